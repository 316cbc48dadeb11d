import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorBodySchema, MAX_FRAME_BYTES, OBJECTS } from '@gp-gateway/protocol';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { gatewayReadAll, rogueAgent, startUnfinishedFrame, type RogueAgent, type RogueOptions } from './support/rogueAgent.ts';

/**
 * A rogue or broken agent (a hand-written WebSocket client with its connection's token) against a
 * real gateway process: malformed answers, error messages meant for the client, frames larger than
 * any page and frames that never end. It may fail its own connection's requests; it may not pass
 * invalid JSON or its own words to a client, nor make the gateway buffer without bound.
 */
let root: string;
let gateway: Started & { url: string; testKey: string };
let liveKey: string;
const connections: Record<string, { id: string; token: string }> = {};
const rogues: RogueAgent[] = [];

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-rogue-'));
  const customer = await provisionOrganisation(root, {
    organisation: 'Rogue Co',
    limits: { requestsPerWindow: 100_000, windowSeconds: 1 },
    connections: ['malformed', 'liar', 'huge', 'stall'],
  });
  liveKey = customer.liveKey;
  Object.assign(connections, customer.connections);
  gateway = await startGatewayProcess(root, { LOG_LEVEL: 'info' });
});

after(async () => {
  for (const rogue of rogues) rogue.ws.terminate();
  await gateway?.stop('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

async function rogue(connection: string, options: RogueOptions = {}): Promise<RogueAgent> {
  const agent = rogueAgent(gateway.url, connections[connection]!.token, options);
  rogues.push(agent);
  if (options.hello !== false) await agent.welcomed;
  else await new Promise((resolve) => agent.ws.once('open', resolve));
  return agent;
}

async function get(connection: string, pathAndQuery: string) {
  const res = await fetch(`${gateway.url}${pathAndQuery}`, {
    headers: { authorization: `Bearer ${liveKey}`, 'x-connection-id': connections[connection]!.id },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** A customer with every field of the document and no other: the gateway checks an answer's records field by field. */
const customerRecord = JSON.stringify(Object.fromEntries(Object.keys(OBJECTS.customers.resource.shape).map((field) => [field, null])));

/** The gateway process's resident memory in MB (Linux). */
function gatewayRssMb(): number {
  const status = fs.readFileSync(`/proc/${gateway.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

test('a malformed answer is a 502 in the envelope, never 200 application/json with invalid JSON', async () => {
  const answers = ['[{"id":"A",', '{"id":"A"}', '[{"id":"A"}]]', '[1,2,3]', 'not json at all'];
  let next = 0;
  await rogue('malformed', {
    onRequest: (frame, ws) => ws.send(`${JSON.stringify({ v: 1, type: 'response', id: frame.id, next: null })}\n${answers[next++]}`),
  });
  for (const payload of answers) {
    const { status, type, text } = await get('malformed', '/v1/customers?limit=1');
    assert.equal(status, 502, `${payload} → ${status} ${text}`);
    assert.match(type ?? '', /^application\/json/);
    const body = JSON.parse(text);
    assert.ok(ErrorBodySchema.safeParse(body).success, text);
    assert.equal(body.error.code, 'UPSTREAM_ERROR');
  }
  assert.match(gateway.output(), /"msg":"agent sent malformed data"/, 'and the gateway logs it');
});

test("an agent's error message never reaches the client: its code does, with the gateway's words; the agent's go to the log", async () => {
  const secret = "Login failed for user 'sa'. Server=gp01.corp;Password=hunter2 <script>alert(1)</script>";
  await rogue('liar', {
    onRequest: (frame, ws) =>
      ws.send(
        JSON.stringify({
          v: 1,
          type: 'error',
          id: frame.id,
          code: frame.op.kind === 'get' ? 'NOT_FOUND' : 'INTERNAL_ERROR',
          message: secret,
        }),
      ),
  });
  const list = await get('liar', '/v1/customers?limit=1');
  const one = await get('liar', '/v1/customers/AARONFIT0001');
  assert.deepEqual(
    [list.status, JSON.parse(list.text).error.message, one.status, JSON.parse(one.text).error.message],
    [500, 'The connection’s agent failed to answer this request.', 404, 'No record of customers has that id.'],
  );
  assert.ok(!list.text.includes('hunter2') && !one.text.includes('hunter2'));
  assert.match(gateway.output(), /"agentMessage":"Login failed for user 'sa'/);
});

test('a frame larger than any page is refused (1009) as its header arrives; the connection serves on', async () => {
  const honest = await rogue('huge', {
    onRequest: (frame, ws) => ws.send(`${JSON.stringify({ v: 1, type: 'response', id: frame.id, next: null })}\n[${customerRecord}]`),
  });
  const before = gatewayRssMb();
  // The outside test's attack: 63 MB frames. Now each socket is closed at the frame's first bytes.
  const flooders = await Promise.all(Array.from({ length: 3 }, () => rogue('huge')));
  for (const flooder of flooders) startUnfinishedFrame(flooder.ws, 63_000_000, 1_000_000);
  for (const flooder of flooders) assert.equal((await flooder.closed).code, 1009);
  const exact = await rogue('huge');
  startUnfinishedFrame(exact.ws, MAX_FRAME_BYTES + 1, 16);
  assert.equal((await exact.closed).code, 1009, 'one byte over the bound is over');
  assert.equal((await get('huge', '/v1/customers?limit=1')).status, 200, 'the honest agent still serves');
  assert.equal(honest.ws.readyState, honest.ws.OPEN);
  console.log(`gateway RSS ${before} MB before, ${gatewayRssMb()} MB after three 63 MB frames were started`);
});

test("unfinished frames: a socket before its hello may hold 256 KiB, a connection's sockets 8 MiB together; past that they are cut off", async () => {
  const before = gatewayRssMb();
  const silent = await rogue('stall', { hello: false });
  startUnfinishedFrame(silent.ws, 1_000_000, 400_000);
  assert.equal((await silent.closed).code, 1006, 'cut off without a close handshake');

  const [a, b, c] = await Promise.all([rogue('stall'), rogue('stall'), rogue('stall')]);
  startUnfinishedFrame(a!.ws, 4_000_000, 3_500_000);
  startUnfinishedFrame(b!.ws, 4_000_000, 3_500_000);
  // Every byte of both read by the gateway before the third socket starts: which socket crosses the budget is then certain.
  await waitFor("the gateway to read a's and b's 7 MB", () => (gatewayReadAll(a!.ws) && gatewayReadAll(b!.ws)) || null, 10_000);
  assert.deepEqual([a!.ws.readyState, b!.ws.readyState], [a!.ws.OPEN, b!.ws.OPEN], '7 MB in flight is within the budget');
  startUnfinishedFrame(c!.ws, 4_000_000, 2_000_000);
  assert.equal((await c!.closed).code, 1006, 'the socket that crossed the budget is cut off');
  await waitFor('the cut to be logged', () =>
    /the connection's sockets hold more unfinished frames/.test(gateway.output()) ? true : null,
  );
  assert.deepEqual([a!.ws.readyState, b!.ws.readyState], [a!.ws.OPEN, b!.ws.OPEN], 'the others are left alone');
  const grown = gatewayRssMb() - before;
  console.log(`gateway RSS grew ${grown} MB holding two 3.5 MB unfinished frames`);
  assert.ok(grown < 100, `RSS grew ${grown} MB`);
});
