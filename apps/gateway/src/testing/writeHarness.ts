import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { startGateway } from '../gateway.ts';
import type { MetricsOptions, RunningGateway, WebhookOptions } from '../gatewayOptions.ts';
import type { Scope, Store } from '../infrastructure/store/store.ts';
import { pollUntil, ScriptedAgent, type ScriptedAgentOptions, ScriptedJournal } from '@gp-gateway/testing';
import { tempStore } from './tempStore.ts';

export interface WriteHarness {
  gateway: RunningGateway;
  /** The gateway's store, for what a test reads back (the audit log). */
  store: Store;
  /** The organisation every key and connection is of. */
  orgId: string;
  /** Keys of the organisation by name: `writer` (live, read+write+mcp), `reader` (live, read+mcp), `tester` (test, read+write+mcp). */
  keys: Record<'writer' | 'reader' | 'tester', string>;
  /** Connections by name: `hq` (whitelist customers, customer-addresses, sales-orders, gl-entries) and `closed` (empty whitelist). */
  connections: Record<'hq' | 'closed', { id: string; token: string }>;
  /** The journal of the `hq` company database, shared by every agent started for it. */
  journal: ScriptedJournal;
  logs: string[];
  agent(connection: 'hq' | 'closed', options?: ScriptedAgentOptions): Promise<ScriptedAgent>;
  /** Drops every scripted agent started so far and waits until the gateway has let go of them. */
  dropAgents(): Promise<void>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string; json: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * A gateway in process over real HTTP, with a real store, and scripted agents over real WebSockets
 * (packages/testing/src/scriptedAgent.ts): what the gateway's write path is tested against until the real
 * agent's writes exist, and for faults a real agent cannot be made to show on cue.
 */
export async function startWriteHarness(
  options: { requestTimeoutMs?: number; metrics?: MetricsOptions; webhooks?: WebhookOptions } = {},
): Promise<WriteHarness> {
  const { store, admin, dispose } = await tempStore();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const gateway = await startGateway({
    store,
    log: pino({ level: 'info' }, sink),
    cursorSecret: randomBytes(32),
    port: 0,
    host: '127.0.0.1',
    requestTimeoutMs: options.requestTimeoutMs ?? 2000,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });
  const org = await admin.createOrganisation('Writers');
  await admin.setLimits(org.id, { requestsPerWindow: 1_000_000 });
  const key = async (mode: 'live' | 'test', scopes: Scope[]) =>
    (await admin.issueApiKey({ orgId: org.id, name: mode, mode, scopes })).secret;
  const keys = {
    writer: await key('live', ['read', 'write', 'mcp']),
    reader: await key('live', ['read', 'mcp']),
    tester: await key('test', ['read', 'write', 'mcp']),
  };
  const hq = await admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' });
  await admin.setWriteWhitelist(org.id, hq.connection.id, ['customers', 'customer-addresses', 'sales-orders', 'gl-entries']);
  const closed = await admin.createConnection({ orgId: org.id, name: 'Closed', defaultCompany: 'TWO' });
  const connections = {
    hq: { id: hq.connection.id, token: hq.agentToken },
    closed: { id: closed.connection.id, token: closed.agentToken },
  };
  const journal = new ScriptedJournal();
  const agents: ScriptedAgent[] = [];
  return {
    gateway,
    store,
    orgId: org.id,
    keys,
    connections,
    journal,
    logs,
    async agent(connection, agentOptions = {}) {
      const agent = await ScriptedAgent.connect(gateway.url, connections[connection].token, { journal, ...agentOptions });
      agents.push(agent);
      return agent;
    },
    async dropAgents() {
      for (const agent of agents.splice(0)) agent.drop();
      await pollUntil(
        'the gateway to let the dropped agents go',
        async () => !(await gateway.router.reach(connections.hq.id)) && !(await gateway.router.reach(connections.closed.id)),
      );
    },
    async post(path, body, headers = {}) {
      const res = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${keys.writer}`,
          'x-connection-id': connections.hq.id,
          'content-type': 'application/json',
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Tests assert on `text` when the answer is not JSON.
      }
      return { status: res.status, text, json, headers: res.headers };
    },
    async close() {
      for (const agent of agents) agent.drop();
      await gateway.close();
      await dispose();
    },
  };
}
