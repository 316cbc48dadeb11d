import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { generateDemo } from '@gp-gateway/gp-demo';
import { startAgentProcess, waitFor, type Started } from './support/processes.ts';

/**
 * A real agent process against a hand-written gateway that sends it requests it must refuse: each
 * is answered with an error frame at once. An agent that dropped a request it could not read held
 * the gateway's client, and an in-flight slot of the connection, until the deadline (30 s).
 */
let root: string;
let server: http.Server;
let wss: WebSocketServer;
let gatewayUrl: string;
let agent: Started;
let socket: WebSocket;
const frames: { type: string; id?: string; code?: string; message?: string }[] = [];

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-refusals-'));
  generateDemo({ dir: root, scale: 1, seed: 3 });
  server = http.createServer();
  wss = new WebSocketServer({ server, path: '/agent' });
  const connected = new Promise<WebSocket>((resolve) =>
    wss.on('connection', (ws) => {
      ws.on('message', (data) => {
        const text = data.toString();
        const frame = JSON.parse(text.split('\n')[0]!);
        frames.push(frame);
        if (frame.type === 'hello') ws.send(JSON.stringify({ v: 1, type: 'welcome', connectionId: 'conn_fake' }));
      });
      resolve(ws);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agent = startAgentProcess(gatewayUrl, `lb_agent_${'f'.repeat(32)}`, root, { GP_SQLITE_WORKERS: '1' });
  socket = await connected;
  await waitFor('the hello', () => (frames.some((f) => f.type === 'hello') ? true : null));
});

after(async () => {
  await agent?.stop('SIGKILL');
  wss?.close();
  server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

test('every request the agent refuses is answered with an error frame, never dropped', async () => {
  const get = { kind: 'get', object: 'customers', company: 'TWO' };
  const requests: Record<string, unknown> = {
    longId: { ...get, id: 'A'.repeat(513) },
    emptyId: { ...get, id: '' },
    zeroLimit: { kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 0, after: null },
    unknownObject: { kind: 'list', object: 'widgets', company: 'TWO', filters: {}, limit: 1, after: null },
    unknownKind: { kind: 'delete', object: 'customers', company: 'TWO', id: 'A' },
  };
  const sent = Date.now();
  for (const [id, op] of Object.entries(requests)) socket.send(JSON.stringify({ v: 1, type: 'request', id, timeoutMs: 30_000, op }));
  const answers = await waitFor(
    'an answer to every request',
    () => {
      const errors = frames.filter((f) => f.type === 'error' && f.id !== undefined && Object.hasOwn(requests, f.id));
      return errors.length === Object.keys(requests).length ? errors : null;
    },
    5_000,
  );
  const ms = Date.now() - sent;
  for (const answer of answers) {
    assert.equal(answer.code, 'VALIDATION_ERROR', JSON.stringify(answer));
    assert.match(answer.message!, /^The agent refused the request \(invalid frame: .+\)\.$/);
  }
  assert.ok(ms < 2_000, `answered in ${ms} ms`);
  assert.match(agent.output(), /refused a frame the agent does not understand/);
});
