import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AgentSession, ReadService, sandboxWrites, SqliteExecutor } from '@gp-gateway/agent';
import { generateDemo } from '@gp-gateway/gp-demo';
import { startGateway } from '../gateway.ts';
import type { GatewayLimitOptions, MetricsOptions, RunningGateway } from '../gatewayOptions.ts';
import { AdminService } from '../core/admin/adminService.ts';
import { openSqliteStore } from '../infrastructure/store/openStore.ts';
import type { Store } from '../infrastructure/store/store.ts';
import type { KeyMode } from '../infrastructure/store/store.ts';
import { acceptAgent } from '../core/agents/acceptAgent.ts';
import type { AgentLink } from '../core/agents/agentLink.ts';
import type { ApiKey, Scope } from '../infrastructure/store/store.ts';
import { SANDBOX_AGENT_KEY } from '../core/routing/connectionRouting.ts';
import { pollUntil } from '@gp-gateway/testing';

export interface InProcessGateway {
  dir: string;
  demoDir: string;
  store: Store;
  admin: AdminService;
  gateway: RunningGateway;
  /** Every log line the gateway wrote, for assertions about what logs may contain. */
  logs: string[];
  makeKey(orgId: string, mode: KeyMode, scopes: Scope[]): Promise<{ secret: string; key: ApiKey }>;
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /**
   * Holds the sandbox agent's answers until `release()`: requests stay in flight for as long as a
   * test needs, without sleeps. Answers held are delivered in order on release.
   */
  holdAgentAnswers(): { release(): void };
  close(): Promise<void>;
}

export interface InProcessGatewayOptions {
  /** The default limits (docs/api.md#rate-limits) unless given. */
  limits?: Partial<GatewayLimitOptions>;
  /** Largest text of an MCP tool result in bytes; 64 KiB unless given. */
  mcpResultBudgetBytes?: number;
  /** Host values that may call /mcp; any unless given. */
  mcpAllowedHosts?: readonly string[];
  /** Prometheus metrics (gateway.ts); none unless given. */
  metrics?: MetricsOptions;
  /** Serves OAuth Client ID Metadata Documents in place of fetching them (gateway.ts). */
  oauthClientDocuments?: (clientId: string) => Promise<unknown>;
}

/**
 * The gateway in process over real HTTP on a loopback port, with a real agent session over a freshly
 * generated demo database, wired in through the same accept path a WebSocket agent takes (frames
 * cross through queueMicrotask instead of a socket).
 */
export async function startInProcessGateway(options: InProcessGatewayOptions = {}): Promise<InProcessGateway> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-test-'));
  const demoDir = path.join(dir, 'demo');
  generateDemo({ dir: demoDir, scale: 1 });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const log = pino({ level: 'debug' }, sink);
  const store = await openSqliteStore(path.join(dir, 'gateway.sqlite'));
  const admin = new AdminService(store);
  const gateway = await startGateway({
    store,
    log,
    cursorSecret: randomBytes(32),
    port: 0,
    host: '127.0.0.1',
    requestTimeoutMs: 5000,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.mcpResultBudgetBytes ? { mcpResultBudgetBytes: options.mcpResultBudgetBytes } : {}),
    ...(options.mcpAllowedHosts ? { mcpAllowedHosts: options.mcpAllowedHosts } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.oauthClientDocuments ? { oauthClientDocuments: options.oauthClientDocuments } : {}),
  });

  const executor = new SqliteExecutor({ dir: demoDir });
  const service = new ReadService(executor);
  // As the sandbox worker: validate-only writes are checked against the demo, nothing is written.
  const writes = sandboxWrites(demoDir);
  let link: AgentLink | null = null;
  let held: Array<string | Buffer> | null = null;
  // The hello is the first frame, and text: only answers carry a payload, which may be bytes.
  const deliver = (frame: string | Buffer) => (link ? link.receive(frame) : accept(frame.toString()));
  const session = new AgentSession(
    { send: (frame) => queueMicrotask(() => (held && link ? held.push(frame) : deliver(frame))) },
    service,
    log,
    { writes },
  );
  const accept = (hello: string) => {
    link = acceptAgent({ send: (t) => queueMicrotask(() => session.receive(t)), close: () => {} }, hello, SANDBOX_AGENT_KEY, log);
    if (link) gateway.router.add(SANDBOX_AGENT_KEY, link);
  };
  await session.hello({ version: 'test', host: 'localhost', platform: process.platform, dialect: 'sqlite', allowWrites: false });
  await pollUntil('the sandbox agent to be reachable', () => gateway.router.reach(SANDBOX_AGENT_KEY));

  return {
    dir,
    demoDir,
    store,
    admin,
    gateway,
    logs,
    makeKey: (orgId, mode, scopes) => admin.issueApiKey({ orgId, name: 'test', mode, scopes }),
    async get(pathAndQuery, headers = {}) {
      const res = await fetch(`${gateway.url}${pathAndQuery}`, { headers });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    holdAgentAnswers() {
      held ??= [];
      return {
        release() {
          const answers = held ?? [];
          held = null;
          for (const text of answers) deliver(text);
        },
      };
    },
    async close() {
      await gateway.close();
      await executor.close();
      await writes.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
