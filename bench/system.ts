import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { generateDemo, demoDatabasePaths, demoSchemaVersion } from '@gp-gateway/gp-demo';
import { openLocalAdmin } from '@gp-gateway/gateway';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The system under measurement, shared by `pnpm bench` and `pnpm bench:profile`: the cached large
 * demo database, and the gateway and an agent started as separate processes over loopback.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DATA = path.join(ROOT, 'bench', '.data');
export const SCALE = Number(process.env.BENCH_SCALE ?? 200);
/**
 * The cache is keyed by the demo's SQLite schema too: a database built from an earlier schema (other
 * indexes, say) would measure plans the agent no longer gets.
 */
export const SCHEMA_VERSION = demoSchemaVersion();
export const demoDir = path.join(DATA, `scale-${SCALE}-schema-${SCHEMA_VERSION}`);

export const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * The Node flags the gateway and the agent run with, taken from `pnpm start` (the agent's launchers
 * carry the same; launchers.test.ts checks), so that the bench measures what users run.
 */
export const RUNTIME_FLAGS: readonly string[] = (() => {
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const words = scripts.start!.split(/\s+/);
  return words.slice(1, words.indexOf('--import'));
})();

/**
 * Generates the scale-SCALE demo into bench/.data once per schema; later runs reuse it. Databases of
 * this scale built from another schema are removed: they are gigabytes, and never read again.
 */
export function ensureDatabase(): void {
  if (fs.existsSync(demoDatabasePaths(demoDir).systemDatabase)) return;
  for (const stale of fs.existsSync(DATA) ? fs.readdirSync(DATA) : []) {
    if (stale === `scale-${SCALE}` || stale.startsWith(`scale-${SCALE}-schema-`))
      fs.rmSync(path.join(DATA, stale), { recursive: true, force: true });
  }
  log(`generating the scale-${SCALE} database in ${demoDir} (once; reused by later runs)`);
  let last = 0;
  generateDemo({
    dir: demoDir,
    scale: SCALE,
    onProgress: ({ phase, done, total }) => {
      if (Date.now() - last < 2000 && done < total) return;
      last = Date.now();
      log(`  ${phase}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`);
    },
  });
}

/** What one autocannon run measured; latencies in ms, errors counting non-2xx answers too. */
export interface Load {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A request other than a GET: its own method, body and headers (added to the target's). */
export interface BenchRequest {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/** `connections` keep-alive connections sending `paths()` (a GET path, or a request) in turn to `url` for `seconds`. */
export async function load(
  url: string,
  headers: Record<string, string>,
  paths: () => string | BenchRequest,
  connections: number,
  seconds: number,
): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    requests: [
      {
        setupRequest: (req: any) => {
          const next = paths();
          return typeof next === 'string' ? { ...req, path: next } : { ...req, ...next, headers: { ...req.headers, ...next.headers } };
        },
      },
    ],
  } as any);
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** `count` customer ids of the bench database's first company, in random order, for gets. */
export function sampleCustomerIds(count = 2000): string[] {
  const company = new Database(path.join(demoDir, 'TWO.sqlite'), { readonly: true });
  try {
    return company.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY random() LIMIT ?').pluck().all(count) as string[];
  } finally {
    company.close();
  }
}

export interface Server {
  child: ChildProcess;
  port: number;
}

/** Starts a TypeScript entry point that prints `listening <port>` once it serves. */
export function startProcess(script: string, args: string[], nodeArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(process.execPath, [...RUNTIME_FLAGS, ...nodeArgs, '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      const port = /listening (\d+)/.exec(out)?.[1];
      if (!port) return;
      // From here on the output is drained unread. Kept, it grew by every log line and was searched
      // again on each chunk: at LOG_LEVEL=info that load generator's work took a third of the gateway's
      // get throughput, since both share the machine's two cores.
      child.stdout!.off('data', onData).resume();
      resolve({ child, port: Number(port) });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Peak and current resident memory of a process, in MB (Linux /proc). */
export function memory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * Resets a process's peak resident memory (VmHWM) to its current RSS (Linux: `5` to clear_refs), so
 * that the next peak read belongs to what runs after this.
 */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** CPU time a process has used so far, in ms: user + system from Linux /proc, in 10 ms clock ticks (CLK_TCK 100). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface GatewayAndAgent {
  gateway: Server;
  agent: ChildProcess;
  /** http://127.0.0.1:<port> of the gateway. */
  url: string;
  /** Headers of a live key of the bench organisation, addressed to its connection. */
  auth: Record<string, string>;
  /** CPU each process has used so far, in ms (cpuMs). */
  cpu(): { gateway: number; agent: number };
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface SystemOptions {
  /** The demo folder the agent serves (default: the read bench's cached database, demoDir). */
  dir?: string;
  /**
   * Writes turned on end to end: the key gets the `write` scope, these objects go on the
   * connection's write whitelist, and the agent runs with --allow-writes (on `dir`, which it changes).
   */
  writes?: readonly string[];
  /** Added to both processes' environment (bench/observability.ts: metrics and tracing on or off). */
  env?: NodeJS.ProcessEnv;
  /**
   * How often the agent looks for changes (GP_AGENT_CHANGES_INTERVAL_MS); 0 unless given: the read
   * and write benches measure requests, and change detection is measured by its own bench.
   */
  changesIntervalMs?: number;
}

/**
 * A gateway with one organisation (limits out of the way: the bench measures speed, not quotas),
 * a live read key and a connection, and an agent on the demo database dialled in to it. `nodeArgs`
 * go to both processes (e.g. --cpu-prof). Resolves once a read goes through.
 */
export async function startGatewayAndAgent(nodeArgs: string[] = [], options: SystemOptions = {}): Promise<GatewayAndAgent> {
  const gatewayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  const customer = await provisionOrganisation(gatewayDir, {
    organisation: 'Bench',
    limits: { requestsPerWindow: 1_000_000, windowSeconds: 1, maxInFlightPerConnection: 1000 },
    connections: ['bench'],
    scopes: options.writes ? ['read', 'write'] : ['read'],
  });
  const key = customer.liveKey;
  const { token, id: connectionId } = customer.connections.bench!;
  if (options.writes) {
    const { admin, close } = await openLocalAdmin(gatewayDir, { create: false, databaseUrl: null });
    try {
      await admin.setWriteWhitelist(customer.orgId, connectionId, [...options.writes]);
    } finally {
      await close();
    }
  }

  const gateway = await startProcess('bench/gatewayServer.ts', [gatewayDir], nodeArgs, options.env);
  const url = `http://127.0.0.1:${gateway.port}`;
  const agent = spawn(
    process.execPath,
    [
      ...RUNTIME_FLAGS,
      ...nodeArgs,
      '--import',
      'tsx',
      'apps/agent/src/cli/main.ts',
      'run',
      '--gateway',
      url,
      '--token',
      token,
      '--sqlite-dir',
      options.dir ?? demoDir,
      ...(options.writes ? ['--allow-writes'] : []),
    ],
    {
      cwd: ROOT,
      // The agent's log (e.g. requests cancelled when a flood's connections close) goes to a file.
      stdio: ['ignore', fs.openSync(path.join(DATA, 'agent.log'), 'w'), 'inherit'],
      env: { ...process.env, LOG_LEVEL: 'warn', GP_AGENT_CHANGES_INTERVAL_MS: String(options.changesIntervalMs ?? 0), ...options.env },
    },
  );
  const auth = { authorization: `Bearer ${key}`, 'x-connection-id': connectionId };
  for (;;) {
    const res = await fetch(`${url}/v1/customers?limit=1`, { headers: auth }).catch(() => null);
    if (res?.status === 200) break;
    await sleep(100);
  }
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    gateway,
    agent,
    url,
    auth,
    cpu: () => ({ gateway: cpuMs(gateway.child.pid!), agent: cpuMs(agent.pid!) }),
    async stop(signal = 'SIGTERM') {
      agent.kill(signal);
      gateway.child.kill(signal);
      await Promise.all([exited(agent), exited(gateway.child)]);
      fs.rmSync(gatewayDir, { recursive: true, force: true });
    },
  };
}
