import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { ClientRequestArgs } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { DEFAULT_TIMINGS, nextReconnect } from '@gp-gateway/agent';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { startNats, startPostgresServer, startRedis, testAgentHello } from '@gp-gateway/testing';
import { generateDemo } from '@gp-gateway/gp-demo';
import { log, memory, ROOT } from './system.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `pnpm bench:cluster [agents]`: two gateway instances on this machine with PostgreSQL, Redis and
 * NATS started here (docs/decisions.md#several-gateway-instances), measuring
 *  1. the p50 a request routed through the other instance adds over one served by the instance
 *     holding the agent (a real agent process on the scale-1 demo), for a get and a 100-row list,
 *     requests one at a time, alternating between the two instances so both see the same machine;
 *  2. the resident memory of one instance holding `agents` (10,000) idle agent sockets: fake agents
 *     in this process, each its own connection, real WebSockets that say hello and answer pings;
 *  3. how long those agents take to be welcomed again by the other instance after the first is
 *     stopped (SIGTERM: drained, sockets closed with 1012), reconnecting as the agent does
 *     (apps/agent/src/connection/reconnectPolicy.ts), and the most handshakes that instance
 *     welcomed in one clock second against its cap.
 */
const AGENTS = Number(process.argv[2] ?? 10_000);
const HANDSHAKE_CAP = 1_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2_000);
const GATEWAY_CLI = path.join(ROOT, 'apps/gateway/src/frontends/cli/main.ts');
const AGENT_CLI = path.join(ROOT, 'apps/agent/src/cli/main.ts');

interface Instance {
  child: ChildProcess;
  url: string;
}

function startInstance(name: string, dataDir: string, env: NodeJS.ProcessEnv): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', GATEWAY_CLI, 'start'], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: '0', INSTANCE_ID: name, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout!.off('data', onData).resume();
      resolve({ child, url });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway ${name} exited with ${code}:\n${out}`)));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Where a fake agent is, for the progress lines and for finding agents that neither arrive nor fail. */
type FakeState = 'waiting' | 'connecting' | 'upgrading' | 'open' | 'welcomed';

/**
 * One fake agent: dials `target()`, says hello, idles; on any close dials again when the agent's own
 * policy says (nextReconnect with the agent's default timings: the gateway's hints, full-jitter
 * backoff) and, like the agent, gives up on a dial whose upgrade is not answered within its connect
 * timeout.
 */
class FakeAgent {
  welcomedAt = 0;
  /** When the gateway's answer to the upgrade (101) arrived. */
  upgradedAt = 0;
  state: FakeState = 'waiting';
  stateSince = Date.now();
  private attempt = 0;
  private openedAt = 0;
  private stopped = false;
  private ws: WebSocket | null = null;

  constructor(
    private readonly token: string,
    private readonly target: () => string,
    private readonly onWelcome: (agent: FakeAgent) => void,
    private readonly onClose: (code: number) => void,
  ) {}

  private enter(state: FakeState): void {
    this.state = state;
    this.stateSince = Date.now();
  }

  dial(): void {
    if (this.stopped) return;
    this.enter('connecting');
    const ws = new WebSocket(`${this.target().replace(/^http/, 'ws')}/agent`, {
      headers: { authorization: `Bearer ${this.token}` },
      handshakeTimeout: DEFAULT_TIMINGS.connectTimeoutMs,
      // Seen here: the TCP connection is up and the upgrade request on its way.
      createConnection: (options: ClientRequestArgs) => {
        const socket = net.connect(options as net.NetConnectOpts);
        socket.once('connect', () => this.enter('upgrading'));
        return socket;
      },
    });
    this.ws = ws;
    ws.on('upgrade', () => (this.upgradedAt = Date.now()));
    ws.on('open', () => {
      this.openedAt = Date.now();
      this.enter('open');
      ws.send(testAgentHello({ version: '0.1.0', host: 'bench' }));
    });
    ws.on('message', (data: Buffer) => {
      if (!this.welcomedAt && data.toString().startsWith('{"v":1,"type":"welcome"')) {
        this.welcomedAt = Date.now();
        this.enter('welcomed');
        this.onWelcome(this);
      }
    });
    ws.on('error', () => {});
    ws.on('close', (code: number, reason: Buffer) => {
      const welcomed = this.welcomedAt !== 0;
      this.welcomedAt = 0;
      this.onClose(code);
      if (this.stopped) return;
      this.enter('waiting');
      const upMs = this.openedAt ? Date.now() - this.openedAt : 0;
      this.openedAt = 0;
      const next = nextReconnect(this.attempt, { code, reason: reason.toString(), welcomed, upMs }, DEFAULT_TIMINGS);
      this.attempt = next.attempt;
      setTimeout(() => this.dial(), next.delayMs);
    });
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}

/** The agents by state, with the oldest time one has been in it: "connecting 12 (oldest 95 s)". */
function describe(agents: readonly FakeAgent[]): string {
  const now = Date.now();
  const by = new Map<FakeState, { n: number; oldest: number }>();
  for (const a of agents) {
    const s = by.get(a.state) ?? { n: 0, oldest: 0 };
    s.n += 1;
    s.oldest = Math.max(s.oldest, now - a.stateSince);
    by.set(a.state, s);
  }
  return [...by].map(([state, { n, oldest }]) => `${state} ${n} (oldest ${(oldest / 1000).toFixed(0)} s)`).join(', ');
}

/** The kernel's count of connections dropped because a listening socket's accept queue was full (all sockets). */
function listenOverflows(): number {
  const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const header = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const names = lines[header]!.split(/\s+/);
  const values = lines[header + 1]!.split(/\s+/);
  return Number(values[names.indexOf('ListenOverflows')] ?? 0);
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-'));
const cleanup: Array<() => Promise<unknown> | void> = [];
try {
  // Each agent is a socket here and one in the gateway: both processes need the file descriptors.
  const openFiles = Number(/Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0);
  log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, open files limit ${openFiles}`,
  );
  if (openFiles < AGENTS + 2_000) {
    throw new Error(`${AGENTS} agents need an open files limit of ${AGENTS + 2_000} or more (ulimit -n); it is ${openFiles}`);
  }
  const [pg, redis, nats] = await Promise.all([startPostgresServer(), startRedis(), startNats()]);
  cleanup.push(
    () => pg.stop(),
    () => redis.stop(),
    () => nats.stop(),
  );
  const databaseUrl = await pg.createDatabase();
  const site = path.join(root, 'site');
  generateDemo({ dir: site, scale: 1 });
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    NATS_URL: nats.url,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    AGENT_HANDSHAKES_PER_SECOND: String(HANDSHAKE_CAP),
    SHUTDOWN_GRACE_MS: '2000',
  };
  const dataDir = (name: string) => {
    const dir = path.join(root, name);
    fs.cpSync(site, path.join(dir, 'demo'), { recursive: true });
    return dir;
  };
  const a = await startInstance('A', dataDir('a'), env);
  cleanup.push(() => void a.child.kill('SIGKILL'));
  const b = await startInstance('B', dataDir('b'), env);
  cleanup.push(() => void b.child.kill('SIGKILL'));

  // 1. Routed through the other instance vs served by the holder.
  const customer = await provisionOrganisation(path.join(root, 'a'), {
    organisation: 'Bench',
    limits: { requestsPerWindow: 1_000_000, windowSeconds: 1, maxInFlightPerConnection: 1000 },
    connections: ['hq'],
    databaseUrl,
  });
  const agent = spawn(
    process.execPath,
    ['--import', 'tsx', AGENT_CLI, 'run', '--gateway', a.url, '--token', customer.connections.hq!.token, '--sqlite-dir', site],
    {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    },
  );
  cleanup.push(() => void agent.kill('SIGKILL'));
  const headers = { authorization: `Bearer ${customer.liveKey}`, 'x-connection-id': customer.connections.hq!.id };
  const timed = async (url: string) => {
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (;;) {
    const res = await fetch(`${a.url}/v1/customers?limit=1`, { headers }).catch(() => null);
    if (res?.status === 200) break;
    await sleep(100);
  }
  const ids = ((await (await fetch(`${a.url}/v1/customers?limit=100`, { headers })).json()) as { data: { id: string }[] }).data.map(
    (c) => c.id,
  );
  const routed: Record<string, { holder: number; other: number; added: number; p90Added: number }> = {};
  for (const [name, pathOf] of [
    ['get', (i: number) => `/v1/customers/${encodeURIComponent(ids[i % ids.length]!)}`],
    ['list of 100', () => '/v1/customers?limit=100'],
  ] as const) {
    const onHolder: number[] = [];
    const onOther: number[] = [];
    for (let i = 0; i < 200; i++) await timed(`${(i % 2 ? a : b).url}${pathOf(i)}`); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      // Alternating which goes first, so neither gets the other's warm caches every time.
      const first = i % 2 ? a : b;
      const second = first === a ? b : a;
      const t1 = await timed(`${first.url}${pathOf(i)}`);
      const t2 = await timed(`${second.url}${pathOf(i)}`);
      (first === a ? onHolder : onOther).push(t1);
      (second === a ? onHolder : onOther).push(t2);
    }
    onHolder.sort((x, y) => x - y);
    onOther.sort((x, y) => x - y);
    const [h, o] = [percentile(onHolder, 0.5), percentile(onOther, 0.5)];
    routed[name] = { holder: h, other: o, added: o - h, p90Added: percentile(onOther, 0.9) - percentile(onHolder, 0.9) };
    log(`${name}: p50 on the holder ${h.toFixed(2)} ms, through the other ${o.toFixed(2)} ms: added ${(o - h).toFixed(2)} ms`);
  }
  agent.kill('SIGTERM');

  // 2. One instance holding AGENTS idle agents.
  log(`provisioning ${AGENTS} connections`);
  const many = await provisionOrganisation(path.join(root, 'a'), {
    organisation: 'Many agents',
    limits: { requestsPerWindow: 1_000 },
    connections: Array.from({ length: AGENTS }, (_, i) => `site-${i}`),
    databaseUrl,
  });
  let live = [a.url];
  const welcomes = new Map<string, Map<number, number>>();
  let welcomed = 0;
  const onWelcome = () => {
    welcomed++;
  };
  // Counted in the second the gateway answered the upgrade, which is when its cap admitted the socket
  // (the welcome comes a hello's round trip later, possibly in the next second).
  const countWelcome = (url: string, upgradedAt: number) => {
    const second = Math.floor(upgradedAt / 1000);
    const perSecond = welcomes.get(url) ?? new Map<number, number>();
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    welcomes.set(url, perSecond);
  };
  const closes = new Map<number, number>();
  const agents = Object.values(many.connections).map((c) => {
    const fake: FakeAgent = new FakeAgent(
      c.token,
      () => live[Math.floor(Math.random() * live.length)]!,
      (agent) => {
        countWelcome(live[0]!, agent.upgradedAt);
        onWelcome();
      },
      (code) => closes.set(code, (closes.get(code) ?? 0) + 1),
    );
    return fake;
  });
  /** Waits until every agent is welcomed, with a progress line every 10 s; throws after 180 s saying where the missing ones are. */
  const waitForAll = async (what: string, started: number) => {
    const overflowsBefore = listenOverflows();
    let nextLine = started + 10_000;
    const progress = () =>
      `${welcomed} welcomed; agents: ${describe(agents)}; closes by code: ${JSON.stringify(Object.fromEntries(closes))}; ` +
      `accept queue overflows ${listenOverflows() - overflowsBefore}; load ${os.loadavg()[0]!.toFixed(2)}`;
    while (welcomed < AGENTS) {
      if (Date.now() - started > 180_000) throw new Error(`only ${welcomed} of ${AGENTS} agents ${what} in 180 s: ${progress()}`);
      if (Date.now() >= nextLine) {
        log(`${((Date.now() - started) / 1000).toFixed(0)} s: ${progress()}`);
        nextLine += 10_000;
      }
      await sleep(200);
    }
    log(`done: ${progress()}`);
    closes.clear();
  };
  cleanup.push(() => agents.forEach((x) => x.stop()));
  const rssBefore = memory(a.child.pid!).rss;
  let started = Date.now();
  for (const fake of agents) fake.dial();
  await waitForAll('welcomed by A', started);
  const connectSeconds = (Date.now() - started) / 1000;
  await sleep(5_000); // idle: heartbeats and presence refreshes running
  const held = memory(a.child.pid!);
  log(
    `A holds ${AGENTS} agents (welcomed in ${connectSeconds.toFixed(1)} s): RSS ${held.rss.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before), peak ${held.peak.toFixed(0)} MB`,
  );

  // 3. A stopped: every agent back on B.
  welcomed = 0;
  welcomes.clear();
  live = [b.url];
  started = Date.now();
  a.child.kill('SIGTERM');
  await waitForAll('back on B', started);
  const backSeconds = (Date.now() - started) / 1000;
  const perSecond = welcomes.get(b.url) ?? new Map<number, number>();
  const busiest = Math.max(0, ...perSecond.values());
  // Seen from this process, which reads its sockets late when the machine is busy: answers the gateway
  // sent in two seconds can land in one here. Over five seconds that skew averages out.
  const busiestFive = Math.max(
    0,
    ...[...perSecond.keys()].map((from) => [0, 1, 2, 3, 4].reduce((sum, i) => sum + (perSecond.get(from + i) ?? 0), 0) / 5),
  );
  log(
    `all ${AGENTS} agents back on B ${backSeconds.toFixed(1)} s after A was stopped; most welcomed in one second ${busiest}, a second on average over the busiest five ${busiestFive} (cap ${HANDSHAKE_CAP})`,
  );

  const result = {
    machine: { cores: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))) },
    routedP50Ms: routed,
    idleAgents: { agents: AGENTS, rssMb: Math.round(held.rss), peakMb: Math.round(held.peak), connectSeconds },
    reconnect: { seconds: backSeconds, mostHandshakesInOneSecond: busiest, mostPerSecondOverFive: busiestFive, cap: HANDSHAKE_CAP },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'cluster.json'), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => {});
  fs.rmSync(root, { recursive: true, force: true });
}
process.exit(0);
