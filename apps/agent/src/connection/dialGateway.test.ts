import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { pollUntil } from '@gp-gateway/testing';
import {
  CLOSE_TOKEN_REJECTED,
  CLOSE_TOO_MANY_AGENTS,
  CLOSE_TRY_AGAIN_LATER,
  CLOSE_VERSION_UNSUPPORTED,
  encodeFrame,
  withReconnectHint,
  type Operation,
} from '@gp-gateway/protocol';
import { QueryCancelledError } from '../db/executor.ts';
import type { OperationHandler } from '../service/readService.ts';
import { dialGateway, FatalConnectionError, type ConnectionTimings } from './dialGateway.ts';

/**
 * The agent's connection against a scripted gateway on a loopback port: heartbeats, refusal,
 * cancel and drain, with short timings so nothing waits long.
 */
const log = pino({ level: 'silent' });
const token = `lb_agent_${'a'.repeat(32)}`;
const fast = {
  backoffMinMs: 20,
  backoffMaxMs: 100,
  heartbeatIntervalMs: 50,
  heartbeatTimeoutMs: 200,
  drainGraceMs: 2_000,
  statusIntervalMs: 0,
};
const op: Operation = { kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 1, after: null };

/** A read service whose `handle` waits for `release()` or for its signal. */
function fakeService() {
  const waiting: Array<() => void> = [];
  let started: () => void = () => {};
  const handling = new Promise<void>((r) => (started = r));
  const service = {
    async health() {
      return { companies: [], health: { database: 'ok', databaseMessage: null, gpVersion: 'demo', checkedAt: new Date().toISOString() } };
    },
    handle(_op: Operation, signal?: AbortSignal) {
      started();
      return new Promise((resolve, reject) => {
        waiting.push(() => resolve({ payload: '[]', next: null }));
        signal?.addEventListener('abort', () => reject(new QueryCancelledError()), { once: true });
      });
    },
  };
  /** `handling` resolves once the first request reached the service. */
  return { service: service as unknown as OperationHandler, release: () => waiting.shift()?.(), handling };
}

interface Gateway {
  url: string;
  sockets: WebSocket[];
  frames: any[];
  onHello: (ws: WebSocket) => void;
  next(type: string): Promise<any>;
  close(): Promise<void>;
}

async function gateway(): Promise<Gateway> {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, path: '/agent' });
  const g: Gateway = {
    url: '',
    sockets: [],
    frames: [],
    onHello: (ws) => ws.send(encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn' })),
    async next(type) {
      const found = await pollUntil(`a ${type} frame`, () => {
        const at = g.frames.findIndex((f) => f.type === type);
        return at !== -1 && { at };
      });
      return g.frames.splice(found.at, 1)[0];
    },
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise((r) => server.close(r));
    },
  };
  wss.on('connection', (ws) => {
    g.sockets.push(ws);
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString().split('\n')[0]!);
      g.frames.push({ ...frame, at: Date.now() });
      if (frame.type === 'hello') g.onHello(ws);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  g.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return g;
}

const started: Array<{ stop: AbortController; done: Promise<unknown> }> = [];
after(async () => {
  for (const s of started) s.stop.abort();
  await Promise.allSettled(started.map((s) => s.done));
});

function dial(g: Pick<Gateway, 'url'>, service: OperationHandler, timings: Partial<ConnectionTimings> = fast) {
  const stop = new AbortController();
  const done = dialGateway({ gatewayUrl: g.url, token, service, log, dialect: 'sqlite', timings }, { stop: stop.signal });
  started.push({ stop, done });
  return { stop, done };
}

test("an incompatible protocol version stops the agent with the gateway's words, without retrying", async () => {
  const g = await gateway();
  g.onHello = (ws) =>
    ws.close(CLOSE_VERSION_UNSUPPORTED, 'this gateway speaks agent protocol 2, the agent speaks 1; install a matching agent');
  const { done } = dial(g, fakeService().service);
  await assert.rejects(
    done,
    (e: Error) =>
      e instanceof FatalConnectionError && /does not speak this agent's protocol: this gateway speaks agent protocol 2/.test(e.message),
  );
  assert.equal(g.sockets.length, 1, 'one attempt, no loop');
  await g.close();
});

test("a token rotated away stops the agent with the gateway's words, without retrying", async () => {
  const g = await gateway();
  g.onHello = (ws) => ws.close(CLOSE_TOKEN_REJECTED, 'the agent token was rotated or revoked');
  const { done } = dial(g, fakeService().service);
  await assert.rejects(
    done,
    (e: Error) => e instanceof FatalConnectionError && /rejected the agent token: the agent token was rotated or revoked/.test(e.message),
  );
  assert.equal(g.sockets.length, 1, 'one attempt, no loop');
  await g.close();
});

test('a connection whose agent slots are all held (a stolen token) is retried with backoff and logged, and served once a slot frees', async () => {
  const g = await gateway();
  let held = 3;
  g.onHello = (ws) =>
    held-- > 0
      ? ws.close(CLOSE_TOO_MANY_AGENTS, 'this connection already has 4 agents connected, the most the gateway accepts; stop one first')
      : ws.send(encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn' }));
  const lines: string[] = [];
  const logged = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const stop = new AbortController();
  const done = dialGateway(
    { gatewayUrl: g.url, token, service: fakeService().service, log: logged, dialect: 'sqlite', timings: fast },
    stop.signal,
  );
  started.push({ stop, done });
  for (let hello = 0; hello < 4; hello++) await g.next('hello');
  assert.equal(g.sockets.length, 4, 'three refusals, then the agent is in');
  const refusals = lines.filter((l) => /refused another agent on this connection/.test(l));
  assert.equal(refusals.length, 3, lines.join(''));
  assert.match(refusals[0]!, /retrying until a slot is free.*rotate it/);
  stop.abort();
  await done;
  await g.close();
});

test('a gateway that stops answering is dropped within the heartbeat timeout, and the agent reconnects', async () => {
  const g = await gateway();
  const { stop, done } = dial(g, fakeService().service);
  const firstHello = await g.next('hello');
  // Stop reading the socket: the agent's pings go unanswered, as behind a NAT that forgot the connection.
  (g.sockets[0] as any)._socket.pause();
  const secondHello = await g.next('hello');
  const ms = secondHello.at - firstHello.at;
  assert.ok(
    ms >= fast.heartbeatTimeoutMs && ms < fast.heartbeatTimeoutMs + fast.heartbeatIntervalMs + fast.backoffMaxMs + 300,
    `reconnected after ${ms} ms`,
  );
  stop.abort();
  await done;
  await g.close();
});

test('a cancel from the gateway stops the request and the agent answers UPSTREAM_TIMEOUT', async () => {
  const g = await gateway();
  const { stop, done } = dial(g, fakeService().service);
  await g.next('hello');
  // Frames arrive in order, and the agent registers a request before it starts on it.
  g.sockets[0]!.send(encodeFrame({ v: 1, type: 'request', id: '7', timeoutMs: 60_000, op }));
  g.sockets[0]!.send(encodeFrame({ v: 1, type: 'cancel', id: '7', reason: 'deadline' }));
  const answer = await g.next('error');
  assert.equal(answer.id, '7');
  assert.equal(answer.code, 'UPSTREAM_TIMEOUT');
  assert.match(answer.message, /^The agent cancelled the query after \d+ ms: its deadline passed\.$/);
  stop.abort();
  await done;
  await g.close();
});

test('a request the agent refuses (an id longer than it accepts) is answered with an error frame, never dropped', async () => {
  const g = await gateway();
  const { stop, done } = dial(g, fakeService().service);
  await g.next('hello');
  const get = { kind: 'get', object: 'customers', company: 'TWO', id: 'x'.repeat(513) };
  g.sockets[0]!.send(encodeFrame({ v: 1, type: 'request', id: '9', timeoutMs: 60_000, op: get }));
  g.sockets[0]!.send(encodeFrame({ v: 1, type: 'request', id: '10', timeoutMs: 60_000, op: { ...op, limit: 0 } }));
  for (const id of ['9', '10']) {
    const answer = await g.next('error');
    assert.deepEqual([answer.id, answer.code], [id, 'VALIDATION_ERROR']);
    assert.match(answer.message, /^The agent refused the request \(invalid frame: .+\)\.$/);
  }
  stop.abort();
  await done;
  await g.close();
});

test('stopping drains: the gateway is told, the request in flight is answered, new ones are refused, then the socket closes', async () => {
  const g = await gateway();
  const { service, release, handling } = fakeService();
  const { stop, done } = dial(g, service);
  await g.next('hello');
  const ws = g.sockets[0]!;
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  ws.send(encodeFrame({ v: 1, type: 'request', id: '1', timeoutMs: 60_000, op }));
  await handling;
  stop.abort();
  assert.deepEqual((await g.next('draining')).graceMs, fast.drainGraceMs);
  ws.send(encodeFrame({ v: 1, type: 'request', id: '2', timeoutMs: 60_000, op }));
  const refused = await g.next('error');
  assert.deepEqual([refused.id, refused.code], ['2', 'CONNECTION_OFFLINE']);
  release();
  assert.equal((await g.next('response')).id, '1');
  assert.equal(await closed, 1001);
  await done;
  assert.equal(g.sockets.length, 1, 'no reconnect after a stop');
  await g.close();
});

test('a request still running when the grace period ends is stopped and answered as such', async () => {
  const g = await gateway();
  const { service, handling } = fakeService();
  const { stop, done } = dial(g, service, { ...fast, drainGraceMs: 100 });
  await g.next('hello');
  g.sockets[0]!.send(encodeFrame({ v: 1, type: 'request', id: '1', timeoutMs: 60_000, op }));
  await handling;
  stop.abort();
  const answer = await g.next('error');
  assert.deepEqual([answer.id, answer.code], ['1', 'CONNECTION_OFFLINE']);
  assert.match(answer.message, /it is shutting down/);
  await done;
  await g.close();
});

test('a gateway that accepts the TCP connection but never answers the upgrade is given up after the connect timeout, and dialled again', async () => {
  // The kernel completed the connection (an accept queue, a stuck balancer) but nothing answers it.
  const dials: number[] = [];
  const silent = net.createServer((socket) => {
    dials.push(Date.now());
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const g = { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` };
  const { stop, done } = dial(g, fakeService().service, { ...fast, connectTimeoutMs: 100 });
  await pollUntil('three dials', () => dials.length >= 3);
  stop.abort();
  await done;
  silent.close();
  // Each dial waited for the timeout before the next: never stuck on one for good, never hammering.
  assert.ok(dials[2]! - dials[0]! >= 200, JSON.stringify(dials));
});

test('refused by the handshake cap with a turn named, the agent dials again at that turn, not before', async () => {
  const g = await gateway();
  let refused = 0;
  const helloAt: number[] = [];
  g.onHello = (ws) => {
    helloAt.push(Date.now());
    if (refused++ === 0) return ws.close(CLOSE_TRY_AGAIN_LATER, withReconnectHint('too many agents connecting', { afterMs: 300 }));
    ws.send(encodeFrame({ v: 1, type: 'welcome', connectionId: 'conn' }));
  };
  const { stop, done } = dial(g, fakeService().service);
  await pollUntil('a second hello', () => helloAt.length >= 2);
  stop.abort();
  await done;
  await g.close();
  // Without the turn, the fast timings would have it back within 100 ms.
  assert.ok(helloAt[1]! - helloAt[0]! >= 300, JSON.stringify(helloAt));
});
