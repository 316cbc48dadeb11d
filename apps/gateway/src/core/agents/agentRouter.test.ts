import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { encodeFrame, type Operation } from '@gp-gateway/protocol';
import { AgentLostError, ApiError } from '../../errors/apiError.ts';
import { AgentLink } from './agentLink.ts';
import { LocalAgentRouter } from './agentRouter.ts';
import { customerWrite as write } from './testOperations.ts';

/** Links over fake channels: each records the frames the gateway sent it and answers when told. */
const log = pino({ level: 'silent' });
// Companies: records of three fields, which the fake agents' answers have (answers are checked against the object's fields).
const op: Operation = { kind: 'list', object: 'companies', company: null, filters: {}, limit: 1, after: null };
const page = (id: string) => JSON.stringify([{ id, name: null, number: null }]);
const health = (database: 'ok' | 'unavailable') => ({
  database,
  databaseMessage: database === 'ok' ? null : 'Login failed',
  gpVersion: null,
  checkedAt: '2026-01-01T00:00:00Z',
});

function agent(host: string, companies = ['TWO'], allowWrites?: boolean) {
  const sent: any[] = [];
  const link = new AgentLink(
    { send: (text) => sent.push(JSON.parse(text.split('\n')[0]!)), close: () => {} },
    {
      agent: { version: '1', host, platform: 'linux', dialect: 'sqlite', ...(allowWrites === undefined ? {} : { allowWrites }) },
      companies: companies.map((id) => ({ id, name: null, number: null })),
      health: health('ok'),
    },
    log,
  );
  const requests = () => sent.filter((f) => f.type === 'request');
  const answer = (id: string, payload = page(host)) =>
    link.receive(Buffer.from(encodeFrame({ v: 1, type: 'response', id, next: null }, payload)));
  return { link, sent, requests, answer };
}

test('a request past its deadline gets 504 and the agent is told to cancel it', async () => {
  const a = agent('gp01');
  const pending = a.link.request(op, 30);
  await assert.rejects(pending, (e: ApiError) => e.code === 'UPSTREAM_TIMEOUT');
  const id = a.requests()[0].id;
  assert.deepEqual(a.sent.at(-1), { v: 1, type: 'cancel', id, reason: 'deadline' });
  // The agent's confirmation of the cancel is only logged; nothing is left pending.
  a.link.receive(encodeFrame({ v: 1, type: 'error', id, code: 'UPSTREAM_TIMEOUT', message: 'cancelled' }));
  assert.equal(a.link.inFlight, 0);
});

test("requests spread over a connection's agents, the least busy first", async () => {
  const router = new LocalAgentRouter();
  const [a, b] = [agent('gp01'), agent('gp02')];
  router.add('conn', a.link);
  router.add('conn', b.link);
  const first = router.request('conn', op, 1000);
  const second = router.request('conn', op, 1000);
  assert.deepEqual([a.requests().length, b.requests().length], [1, 1], 'one each while both are busy');
  a.answer(a.requests()[0].id);
  b.answer(b.requests()[0].id);
  assert.deepEqual((await Promise.all([first, second])).map((r) => r.payload.toString()).sort(), [page('gp01'), page('gp02')]);
  for (let i = 0; i < 4; i++) {
    const next = router.request('conn', op, 1000);
    const target = a.requests().length + b.requests().length;
    for (const x of [a, b]) {
      const last = x.requests().at(-1);
      if (last && x.link.inFlight) x.answer(last.id);
    }
    await next;
    assert.equal(a.requests().length + b.requests().length, target);
  }
  assert.deepEqual([a.requests().length, b.requests().length], [3, 3], 'sequential requests alternate');
});

test('a read whose agent drops mid-request is sent once to another agent of the connection', async () => {
  const router = new LocalAgentRouter();
  const [a, b] = [agent('gp01'), agent('gp02')];
  router.add('conn', a.link);
  router.add('conn', b.link);
  const pending = router.request('conn', op, 1000);
  const [gone, other] = a.requests().length ? [a, b] : [b, a];
  router.remove('conn', gone.link);
  gone.link.closed();
  await new Promise((r) => setImmediate(r));
  assert.equal(other.requests().length, 1, 'retried on the other agent');
  other.answer(other.requests()[0].id);
  assert.equal((await pending).payload.toString(), page(other.link.agent.host));
});

test('with no other agent, a dropped agent fails its requests with 503 at once', async () => {
  const router = new LocalAgentRouter();
  const a = agent('gp01');
  router.add('conn', a.link);
  const pending = router.request('conn', op, 60_000);
  const started = Date.now();
  router.remove('conn', a.link);
  a.link.closed();
  await assert.rejects(pending, (e: ApiError) => e.code === 'CONNECTION_OFFLINE');
  assert.ok(Date.now() - started < 100);
});

test('a draining agent gets no new requests; when all drain, 503 at once; its refusal is retried elsewhere', async () => {
  const router = new LocalAgentRouter();
  const [a, b] = [agent('gp01'), agent('gp02')];
  router.add('conn', a.link);
  router.add('conn', b.link);
  a.link.receive(encodeFrame({ v: 1, type: 'draining', graceMs: 30_000 }));
  const pending = router.request('conn', op, 1000);
  assert.deepEqual([a.requests().length, b.requests().length], [0, 1]);
  b.answer(b.requests()[0].id);
  await pending;

  // A request that crossed the draining frame on the wire is refused by the agent and retried.
  const crossing = router.request('conn', op, 1000);
  b.link.receive(encodeFrame({ v: 1, type: 'draining', graceMs: 30_000 }));
  b.link.receive(
    encodeFrame({ v: 1, type: 'error', id: b.requests().at(-1).id, code: 'CONNECTION_OFFLINE', message: 'The agent is shutting down.' }),
  );
  await assert.rejects(crossing, (e: ApiError) => e.code === 'CONNECTION_OFFLINE' && /shutting down/.test(e.message));
  await assert.rejects(
    router.request('conn', op, 1000),
    (e: ApiError) => e.code === 'CONNECTION_OFFLINE' && e.message === 'The connection’s agent is shutting down.',
  );
  assert.deepEqual(
    (await router.reach('conn'))?.companies.map((c) => c.id),
    ['TWO'],
    'company checks still pass; the request says why it fails',
  );
  router.remove('conn', a.link);
  router.remove('conn', b.link);
  assert.equal(await router.reach('conn'), null);
});

test('agents up without their database: ERP_UNAVAILABLE; a status frame brings the companies back', async () => {
  const router = new LocalAgentRouter();
  const a = agent('gp01', []);
  a.link.health = health('unavailable');
  router.add('conn', a.link);
  const updates: string[] = [];
  router.listen({ added: () => {}, removed: () => {}, updated: (_k, link) => updates.push(link.health!.database) });
  await assert.rejects(router.reach('conn'), (e: ApiError) => e.code === 'ERP_UNAVAILABLE');
  a.link.receive(encodeFrame({ v: 1, type: 'status', companies: [{ id: 'TWO', name: null, number: null }], health: health('ok') }));
  assert.deepEqual(
    (await router.reach('conn'))?.companies.map((c) => c.id),
    ['TWO'],
  );
  assert.deepEqual(updates, ['ok']);
});

test('an answer whose bytes are not UTF-8 fails the request instead of reaching the client', async () => {
  const a = agent('gp01');
  const pending = a.link.request(op, 5_000);
  const id = a.requests()[0].id;
  const header = Buffer.from(`${encodeFrame({ v: 1, type: 'response', id, next: null })}\n`);
  a.link.receive(Buffer.concat([header, Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d])]));
  await assert.rejects(pending, (e: ApiError) => e.code === 'UPSTREAM_ERROR');
  // Multi-byte UTF-8 passes untouched.
  const next = a.link.request(op, 5_000);
  a.answer(a.requests()[1].id, page('Müller – 東京'));
  assert.equal((await next).payload.toString(), page('Müller – 東京'));
});

test('a malformed answer is a 502 UPSTREAM_ERROR, and an agent error reaches the client as its code with our words', async () => {
  const a = agent('gp01');
  for (const payload of ['{"not":"a list"}', '[{"id":"A",}]', '[{"id":"A"}] trailing', '["strings", "not records"]']) {
    const pending = a.link.request(op, 5_000);
    a.answer(a.requests().at(-1).id, payload);
    await assert.rejects(pending, (e: ApiError) => e.code === 'UPSTREAM_ERROR' && e.status === 502, payload);
  }
  const get = a.link.request({ kind: 'get', object: 'customers', company: 'TWO', id: 'A' }, 5_000);
  a.answer(a.requests().at(-1).id, '[{"id":"A"}]');
  await assert.rejects(get, (e: ApiError) => e.code === 'UPSTREAM_ERROR', 'a get answers one object, not a list');

  const refused = a.link.request(op, 5_000);
  const secret = "Login failed for user 'sa' on server gp01.corp; SELECT * FROM RM00101";
  a.link.receive(encodeFrame({ v: 1, type: 'error', id: a.requests().at(-1).id, code: 'INTERNAL_ERROR', message: secret }));
  await assert.rejects(
    refused,
    (e: ApiError) => e.code === 'INTERNAL_ERROR' && e.message === 'The connection’s agent failed to answer this request.',
  );
  const missing = a.link.request({ kind: 'get', object: 'customers', company: 'TWO', id: 'A' }, 5_000);
  a.link.receive(encodeFrame({ v: 1, type: 'error', id: a.requests().at(-1).id, code: 'NOT_FOUND', message: '<script>x</script>' }));
  await assert.rejects(missing, (e: ApiError) => e.code === 'NOT_FOUND' && e.message === 'No record of customers has that id.');
});

test('a misbehaving agent cannot mislead the gateway: unknown codes, codes its request cannot have, records off the document (issue 32)', async () => {
  const a = agent('gp01');
  const started = Date.now();
  const unknown = a.link.request(op, 30_000);
  a.link.receive(encodeFrame({ v: 1, type: 'error', id: a.requests().at(-1).id, code: 'TEAPOT', message: 'x' }));
  await assert.rejects(unknown, (e: ApiError) => e.code === 'UPSTREAM_ERROR' && e.status === 502);
  assert.ok(Date.now() - started < 5_000, 'at once, not at the deadline');
  assert.equal(a.link.inFlight, 0);

  const read = a.link.request(op, 5_000);
  a.link.receive(encodeFrame({ v: 1, type: 'error', id: a.requests().at(-1).id, code: 'ALREADY_EXISTS', message: 'x' }));
  await assert.rejects(read, (e: ApiError) => e.code === 'UPSTREAM_ERROR', 'a read never answers 409');
  const created = a.link.request(write(), 5_000);
  a.link.receive(encodeFrame({ v: 1, type: 'error', id: a.requests().at(-1).id, code: 'NOT_FOUND', message: 'x' }));
  await assert.rejects(created, (e: ApiError) => e.code === 'UPSTREAM_ERROR', 'a write never answers 404');
  const limited = a.link.request(op, 5_000);
  a.link.receive(encodeFrame({ v: 1, type: 'error', id: a.requests().at(-1).id, code: 'RATE_LIMITED', message: 'x' }));
  await assert.rejects(limited, (e: ApiError) => e.code === 'UPSTREAM_ERROR', 'nor a code only the gateway gives');

  for (const record of [
    { id: 'A', name: null, number: null, extra: 1 },
    JSON.parse('{"id":"A","name":null,"number":null,"__proto__":{"admin":true}}'),
    { id: 'A', name: null },
  ]) {
    const pending = a.link.request(op, 5_000);
    a.answer(a.requests().at(-1).id, JSON.stringify([record]));
    await assert.rejects(pending, (e: ApiError) => e.code === 'UPSTREAM_ERROR', JSON.stringify(record));
  }
});

test('a write whose agent dropped is never sent again: the caller learns the link dropped, and settles it', async () => {
  const router = new LocalAgentRouter();
  const [a, b] = [agent('gp01', ['TWO'], true), agent('gp02', ['TWO'], true)];
  router.add('conn', a.link);
  router.add('conn', b.link);
  const pending = router.request('conn', write(), 1000);
  const [gone, other] = a.requests().length ? [a, b] : [b, a];
  router.remove('conn', gone.link);
  gone.link.closed();
  await assert.rejects(pending, (e: ApiError) => e instanceof AgentLostError && e.dropped);
  assert.equal(other.requests().length, 0, 'not retried on the other agent');
});

test('writes go only to agents with writes on; validate-only and outcomes prefer them, else any agent', async () => {
  const router = new LocalAgentRouter();
  const off = agent('off', ['TWO'], false);
  const old = agent('old');
  router.add('conn', off.link);
  router.add('conn', old.link);
  assert.equal((await router.reach('conn'))?.allowsWrites, false);
  await assert.rejects(router.request('conn', write(), 1000), (e: ApiError) => /writes turned on/.test(e.message));
  assert.equal(off.requests().length + old.requests().length, 0);
  void router.request('conn', write(true), 1000).catch(() => {});
  assert.equal(off.requests().length + old.requests().length, 1, 'validate-only goes to an agent, which refuses it if it must');
  const on = agent('on', ['TWO'], true);
  router.add('conn', on.link);
  assert.equal((await router.reach('conn'))?.allowsWrites, true);
  for (let i = 0; i < 3; i++) {
    void router.request('conn', write(i === 0), 1000).catch(() => {});
    void router.request('conn', { kind: 'outcome', company: 'TWO', operationId: 'op_0123456789abcdef' }, 1000).catch(() => {});
  }
  assert.equal(on.requests().length, 6);
  assert.equal(off.requests().length + old.requests().length, 1);
});

test('waitForAgent resolves when an agent connects, or false at its timeout', async () => {
  const router = new LocalAgentRouter();
  assert.equal(await router.waitForAgent('conn', 10), false);
  const waiting = router.waitForAgent('conn', 5000);
  router.add('conn', agent('gp01').link);
  assert.equal(await waiting, true);
  assert.equal(await router.waitForAgent('conn', 0), true);
});
