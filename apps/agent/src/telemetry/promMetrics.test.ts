import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { CLOSE_SERVICE_RESTART, encodeFrame, PROTOCOL_VERSION, type Operation } from '@gp-gateway/protocol';
import { AgentError } from '../service/agentError.ts';
import type { OperationHandler } from '../service/readService.ts';
import { dialGateway } from '../connection/dialGateway.ts';
import { startAgentMetrics } from './promMetrics.ts';
import { publishChangePoll } from './events.ts';

/**
 * The agent's metrics (docs/operations.md#agent-metrics) as Prometheus reads them, after the agent
 * served requests, was sent away by its gateway (1012, as a restarting instance does) and reconnected.
 */
const token = `lb_agent_${'a'.repeat(32)}`;
const op: Operation = { kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 1, after: null };

const service = {
  async health() {
    return { companies: [], health: { database: 'ok', databaseMessage: null, gpVersion: 'demo', checkedAt: new Date().toISOString() } };
  },
  async handle(o: Operation) {
    if (o.kind === 'get') throw new AgentError('NOT_FOUND', 'no such customer');
    return { payload: '[]', next: null };
  },
} as unknown as OperationHandler;

/** A scripted gateway: welcomes each hello and hands on each agent frame, as events. */
async function gateway() {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, path: '/agent' });
  const welcomed: Array<(ws: WebSocket) => void> = [];
  const answers: Array<(frame: { type: string; id: string; code?: string }) => void> = [];
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString().split('\n')[0]!);
      if (frame.type === 'hello') {
        ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'welcome', connectionId: 'conn' }));
        welcomed.shift()?.(ws);
      } else if (frame.type === 'response' || frame.type === 'error') answers.shift()?.(frame);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    nextAgent: () => new Promise<WebSocket>((r) => welcomed.push(r)),
    ask(ws: WebSocket, id: string, o: Operation) {
      const answer = new Promise<{ type: string; code?: string }>((r) => answers.push(r));
      ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id, op: o, timeoutMs: 5_000 }));
      return answer;
    },
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise((r) => server.close(r));
    },
  };
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  return res.text();
}

test('after serving, being sent away with 1012 and reconnecting, the metrics say so', async () => {
  const metrics = await startAgentMetrics('127.0.0.1', 0);
  const g = await gateway();
  const stop = new AbortController();
  after(async () => {
    stop.abort();
    await g.close();
    await metrics.close();
  });
  assert.match(metrics.url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  const first = g.nextAgent();
  const done = dialGateway(
    {
      gatewayUrl: g.url,
      token,
      service,
      log: pino({ level: 'silent' }),
      dialect: 'sqlite',
      timings: { backoffMinMs: 10, backoffMaxMs: 20 },
    },
    { stop: stop.signal },
  );
  const ws = await first;
  assert.equal((await g.ask(ws, 'r1', op)).type, 'response');
  assert.equal((await g.ask(ws, 'r2', op)).type, 'response');
  assert.equal((await g.ask(ws, 'r3', { kind: 'get', object: 'customers', company: 'TWO', id: 'NOPE' } as Operation)).code, 'NOT_FOUND');
  const second = g.nextAgent();
  ws.close(CLOSE_SERVICE_RESTART, 'gateway restarting; reconnect');
  const again = await second;
  assert.equal((await g.ask(again, 'r4', op)).type, 'response');

  const text = await scrape(metrics.url);
  assert.match(text, /^gp_agent_operations_total\{kind="list",object="customers",outcome="ok"\} 3$/m);
  assert.match(text, /^gp_agent_operations_total\{kind="get",object="customers",outcome="NOT_FOUND"\} 1$/m);
  assert.match(text, /^gp_agent_operation_duration_seconds_count\{kind="list"\} 3$/m);
  assert.match(text, /^gp_agent_reconnects_total 1$/m);
  assert.match(text, /^gp_agent_connection_closes_total\{code="1012"\} 1$/m);
  assert.match(text, /^gp_agent_connected 1$/m);
  assert.match(text, /^process_cpu_seconds_total /m);
  stop.abort();
  await done;
  assert.match(await scrape(metrics.url), /^gp_agent_connected 0$/m, 'stopped: no longer connected');
  const other = await fetch(metrics.url.replace('/metrics', '/'));
  assert.equal(other.status, 404, 'nothing else is served on the metrics port');
});

test("change detection's polls: their time per object, and the changes they found", async () => {
  const metrics = await startAgentMetrics('127.0.0.1', 0);
  after(() => metrics.close());
  publishChangePoll({ object: 'customers', seconds: 0.02, changes: 0 });
  publishChangePoll({ object: 'customers', seconds: 0.3, changes: 4 });
  publishChangePoll({ object: 'vendors', seconds: 0.001, changes: 0 });
  const text = await scrape(metrics.url);
  assert.match(text, /^gp_agent_change_poll_duration_seconds_count\{object="customers"\} 2$/m);
  assert.match(text, /^gp_agent_change_poll_duration_seconds_sum\{object="customers"\} 0\.32$/m);
  assert.match(text, /^gp_agent_change_poll_duration_seconds_count\{object="vendors"\} 1$/m);
  assert.match(text, /^gp_agent_changes_found_total\{object="customers"\} 4$/m);
});
