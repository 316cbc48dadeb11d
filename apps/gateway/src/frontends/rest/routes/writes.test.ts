import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorBodySchema } from '@gp-gateway/protocol';
import { answerCorrectly, pollUntil, settleFromJournal } from '@gp-gateway/testing';
import { startWriteHarness, type WriteHarness } from '../../../testing/writeHarness.ts';

/**
 * POST /v1/{object} against the gateway over real HTTP, with scripted agents over real WebSockets:
 * the write refusals in their documented order (docs/api.md#writes), the body's envelope, Idempotency-Key, and exactly once across a dropped
 * agent link. The real agent's side (journal, GP) is tested where it is built; here the agent does
 * exactly what the protocol says, or exactly the fault a test needs.
 */
let h: WriteHarness;
const customer = { id: 'c100', name: 'Acme Ltd' };

before(async () => {
  // Long enough for a scripted agent to reconnect on a loaded machine; the 504 tests wait it out.
  h = await startWriteHarness({ requestTimeoutMs: 2500 });
});
after(async () => {
  const logText = h.logs.join('');
  for (const secret of Object.values(h.keys)) assert.equal(logText.includes(secret), false, 'a secret reached the logs');
  await h.close();
});

const errorOf = (r: { status: number; json: any }) => {
  assert.ok(ErrorBodySchema.safeParse(r.json).success, `an error envelope: ${JSON.stringify(r.json)}`);
  return r.json.error as { code: string; message: string; details: any };
};
let keyCount = 0;
const freshKey = () => `key-${process.pid}-${++keyCount}`;

describe('write refusals in the documented order (docs/api.md#writes), each one before the next', () => {
  // Every request below is also wrong in every later way (bad body, read-only object where it can
  // be), so each answer proves its check comes first.
  const badBody = { id: 'x'.repeat(40), nonsense: 1 };

  test('no key: 401', async () => {
    const r = await h.post('/v1/customers', badBody, { authorization: '' });
    assert.equal(r.status, 401);
    assert.equal(errorOf(r).code, 'UNAUTHORIZED');
  });

  test('a key without the write scope: 403', async () => {
    const r = await h.post('/v1/customers', badBody, { authorization: `Bearer ${h.keys.reader}` });
    assert.equal(r.status, 403);
    assert.match(errorOf(r).message, /lacks the write scope/);
  });

  test('a test key (the sandbox) without validateOnly: 403', async () => {
    const r = await h.post('/v1/items', badBody, { authorization: `Bearer ${h.keys.tester}`, 'x-connection-id': '' });
    assert.equal(r.status, 403);
    assert.match(errorOf(r).message, /sandbox is read-only.*validateOnly=true/);
  });

  test('an object not on the connection’s whitelist, or read-only: 403; no such object: 404', async () => {
    const r = await h.post('/v1/vendors', badBody);
    assert.equal(r.status, 403);
    assert.match(errorOf(r).message, /vendors is not writable on this connection.*whitelist/);
    const closed = await h.post('/v1/customers', badBody, { 'x-connection-id': h.connections.closed.id });
    assert.equal(closed.status, 403);
    const readOnly = await h.post('/v1/items', badBody);
    assert.equal(readOnly.status, 403);
    assert.match(errorOf(readOnly).message, /items is read-only: v1 writes customers/);
    assert.equal((await h.post('/v1/widgets', badBody)).status, 404);
    assert.equal((await h.post('/v1/sales-order-lines', badBody)).status, 404);
  });

  test('a bad body: 400 naming every issue, before the agent is asked anything', async () => {
    const off = await h.agent('hq', { allowWrites: false });
    try {
      const r = await h.post('/v1/customers', badBody, { 'idempotency-key': 'é' });
      assert.equal(r.status, 400);
      const issues = errorOf(r).details.issues as { path: string; message: string }[];
      assert.deepEqual(issues.map((i) => i.path).sort(), ['Idempotency-Key', 'body', 'id', 'name'].sort());
      assert.ok(issues.some((i) => i.message === 'unknown field: nonsense'));
      assert.equal(off.requests.length, 0);
    } finally {
      await h.dropAgents();
    }
  });

  test('no agent of the connection has writes on: 403 saying the customer’s IT decides, not kept under the key; no agent: 503', async () => {
    const offline = await h.post('/v1/customers', customer);
    assert.equal(offline.status, 503);
    assert.equal(errorOf(offline).code, 'CONNECTION_OFFLINE');
    const off = await h.agent('hq', { allowWrites: false });
    try {
      const key = freshKey();
      const r = await h.post('/v1/customers', customer, { 'idempotency-key': key });
      assert.equal(r.status, 403);
      assert.match(errorOf(r).message, /writes turned off.*IT of the company that runs it.*not by the API caller/);
      assert.equal(off.requests.length, 0, 'nothing reaches an agent with writes off');
      // Gateway-side refusals are not kept: once IT turns writes on, the same key runs the write.
      const on = await h.agent('hq');
      const retry = await h.post('/v1/customers', customer, { 'idempotency-key': key });
      assert.equal(retry.status, 201, retry.text);
      assert.deepEqual(
        on.requests.map((q) => q.op.kind),
        ['write'],
      );
    } finally {
      await h.dropAgents();
    }
  });

  test('every check passed: the agent with writes on gets the write once, and the client 201 with the record', async () => {
    const off = await h.agent('hq', { allowWrites: false, host: 'off' });
    const on = await h.agent('hq', { host: 'on' });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await h.post('/v1/customers', { ...customer, id: `c10${i}` });
        assert.equal(r.status, 201, r.text);
        assert.equal(
          r.text,
          `{"data":${JSON.stringify({ id: `C10${i}`, name: 'Acme Ltd' })}}`,
          'the agent’s bytes, ids upper-cased by the schema',
        );
      }
      assert.equal(off.requests.length, 0, 'writes go only to agents that allow them');
      const writes = on.sent('write');
      assert.equal(writes.length, 3);
      const op = writes[0]!.op as { operationId: string; company: string; validateOnly: boolean };
      assert.match(op.operationId, /^[A-Za-z0-9_-]{16,64}$/);
      assert.equal(new Set(writes.map((w) => (w.op as { operationId: string }).operationId)).size, 3, 'a fresh operation id each');
      assert.deepEqual([op.company, op.validateOnly], ['TWO', false]);
    } finally {
      await h.dropAgents();
    }
  });
});

describe('with an agent that allows writes', () => {
  let agent: Awaited<ReturnType<WriteHarness['agent']>>;
  before(async () => {
    agent = await h.agent('hq');
  });
  after(() => h.dropAgents());

  test('bodies that cannot be read get the error envelope, never a 500 or HTML', async () => {
    const cases: [string | undefined, string, string, string][] = [
      ['{"id": "A", ', 'application/json', 'body', 'is not valid JSON'],
      [JSON.stringify({ ...customer, name: 'x'.repeat(1024 * 1024) }), 'application/json', 'body', 'must be at most 1 MiB'],
      [JSON.stringify(customer), 'text/plain', 'Content-Type', 'must be application/json'],
      [JSON.stringify(customer), 'application/json; charset=latin1', 'Content-Type', 'the charset must be utf-8'],
      ['[1, 2]', 'application/json', 'body', 'Invalid input: expected object, received array'],
      ['null', 'application/json', 'body', 'Invalid input: expected object, received null'],
    ];
    for (const [body, type, path, message] of cases) {
      const res = await fetch(`${h.gateway.url}/v1/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.keys.writer}`, 'x-connection-id': h.connections.hq.id, 'content-type': type },
        ...(body === undefined ? {} : { body }),
      });
      const json = (await res.json()) as any;
      assert.equal(res.status, 400, `${type} ${body?.slice(0, 20)}`);
      assert.ok(ErrorBodySchema.safeParse(json).success);
      assert.deepEqual(json.error.details.issues, [{ path, message }], `${type} ${body?.slice(0, 20)}`);
    }
    const none = await fetch(`${h.gateway.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.keys.writer}`, 'x-connection-id': h.connections.hq.id },
    });
    assert.equal(none.status, 400);
    assert.deepEqual(((await none.json()) as any).error.details.issues, [
      { path: 'body', message: 'is required: the record as a JSON object' },
    ]);
    const query = await h.post('/v1/customers?validateOnly=yes&x=1', customer);
    assert.equal(query.status, 400);
    assert.equal(agent.sent('write').length, 0);
  });

  test('text that hides or reorders characters is a 400 naming the field, the character and where it is; the agent is never asked (issue 36)', async () => {
    const sentBefore = agent.sent('write').length;
    const r = await h.post('/v1/customers', {
      id: 'C200',
      name: 'Invoice\u202efdp.exe',
      statementName: 'Acme\u200bLtd',
      shortName: 'ACME\u001b[2J',
      contactPerson: 'Jo Bloggs\u0000',
    });
    assert.equal(r.status, 400);
    const error = errorOf(r);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      [...error.details.issues].sort((a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path)),
      [
        { path: 'contactPerson', message: 'contains a control character (U+0000) at position 10' },
        { path: 'name', message: 'contains a bidirectional control character (U+202E) at position 8' },
        { path: 'shortName', message: 'contains a control character (U+001B) at position 5' },
        { path: 'statementName', message: 'contains a zero-width character (U+200B) at position 5' },
      ],
    );
    assert.equal(agent.sent('write').length, sentBefore);
    const accepted = await h.post('/v1/customers?validateOnly=true', { id: 'C201', name: 'Société Générale 東京 🚀' });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.json));
  });

  test('validate-only: 200 with what would be created; allowed on the sandbox, where it reaches the sandbox’s agent', async () => {
    const written = agent.journal.entries.size;
    const r = await h.post('/v1/customers?validateOnly=true', customer, { 'idempotency-key': freshKey() });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { data: { id: 'C100', name: 'Acme Ltd' } });
    const op = agent.sent('write').at(-1)!.op as { validateOnly: boolean };
    assert.equal(op.validateOnly, true);
    assert.equal(agent.journal.entries.size, written, 'nothing written');
    // This gateway runs no sandbox agent: the test key's validate-only passed every gateway check and found it offline.
    const sandbox = await h.post('/v1/customers?validateOnly=true', customer, {
      authorization: `Bearer ${h.keys.tester}`,
      'x-connection-id': '',
    });
    assert.equal(sandbox.status, 503);
    assert.equal(errorOf(sandbox).code, 'CONNECTION_OFFLINE');
  });

  test('the same Idempotency-Key and body twice: one agent call, identical bytes, marked as a replay', async () => {
    const key = freshKey();
    const before = agent.sent('write').length;
    const first = await h.post('/v1/customers', { ...customer, id: 'idem1' }, { 'idempotency-key': key });
    // The same body with its fields in another order is the same body.
    const second = await h.post('/v1/customers', { name: customer.name, id: 'idem1' }, { 'idempotency-key': key });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.text, first.text);
    assert.equal(second.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.equal(agent.sent('write').length, before + 1);
    // Another body, another object or another connection with the key: 409 body_mismatch, nothing sent.
    for (const [path, body] of [
      ['/v1/customers', { ...customer, id: 'idem2' }],
      ['/v1/customers?validateOnly=false', { ...customer, id: 'IDEM1', name: 'Other' }],
    ] as const) {
      const r = await h.post(path, body, { 'idempotency-key': key });
      assert.equal(r.status, 409);
      assert.equal(errorOf(r).code, 'IDEMPOTENCY_CONFLICT');
      assert.deepEqual(errorOf(r).details, { reason: 'body_mismatch' });
    }
    assert.equal(agent.sent('write').length, before + 1);
    // Without a key, the same body runs again (a new operation id), as the caller asked.
    assert.equal((await h.post('/v1/customers', { ...customer, id: 'idem1' })).status, 201);
    assert.equal(agent.sent('write').length, before + 2);
  });

  test('two concurrent requests with one key: one runs, the other is 409 in_flight', async () => {
    const key = freshKey();
    const held: (() => void)[] = [];
    const correct = agent.script;
    agent.script = (request, a) => held.push(() => correct(request, a));
    try {
      const first = h.post('/v1/customers', { ...customer, id: 'conc' }, { 'idempotency-key': key });
      await pollUntil('the write to be held', () => held.length === 1);
      const second = await h.post('/v1/customers', { ...customer, id: 'conc' }, { 'idempotency-key': key });
      assert.equal(second.status, 409);
      assert.deepEqual(errorOf(second).details, { reason: 'in_flight' });
      held.shift()!();
      assert.equal((await first).status, 201);
      assert.equal(held.length, 0, 'the second never reached the agent');
    } finally {
      agent.script = correct;
    }
  });

  test('GP’s refusals are answers: stored and replayed with their details; the agent’s other details are dropped', async () => {
    const key = freshKey();
    const correct = agent.script;
    agent.script = ({ id }, a) =>
      a.error(id, 'VALIDATION_ERROR', 'internal words', {
        issues: [{ path: 'paymentTermsId', message: 'no payment terms NET99 in GP' }],
        gp: [{ code: 4127, message: 'The payment terms do not exist' }],
        secret: 'dropped',
      });
    try {
      const first = await h.post('/v1/customers', { ...customer, paymentTermsId: 'NET99' }, { 'idempotency-key': key });
      assert.equal(first.status, 400);
      assert.deepEqual(errorOf(first).details, {
        issues: [{ path: 'paymentTermsId', message: 'no payment terms NET99 in GP' }],
        gp: [{ code: 4127, message: 'The payment terms do not exist' }],
      });
      assert.doesNotMatch(first.text, /internal words/);
      agent.script = ({ id }, a) => a.error(id, 'ALREADY_EXISTS', 'exists');
      const replay = await h.post('/v1/customers', { ...customer, paymentTermsId: 'NET99' }, { 'idempotency-key': key });
      assert.equal(replay.text, first.text, 'the stored 400, not the agent’s new answer');
      const exists = await h.post('/v1/customers', customer, { 'idempotency-key': freshKey() });
      assert.equal(exists.status, 409);
      assert.equal(errorOf(exists).code, 'ALREADY_EXISTS');
      // A 503 is not stored: the same key runs again once the database is back.
      const retried = freshKey();
      agent.script = ({ id }, a) => a.error(id, 'ERP_UNAVAILABLE', 'down');
      assert.equal((await h.post('/v1/customers', { ...customer, id: 'e503' }, { 'idempotency-key': retried })).status, 503);
      agent.script = correct;
      const again = await h.post('/v1/customers', { ...customer, id: 'e503' }, { 'idempotency-key': retried });
      assert.equal(again.status, 201);
      const asked = agent.requests.slice(-2).map((r) => r.op.kind);
      assert.deepEqual(asked, ['outcome', 'write'], 'the earlier operation was settled (never executed) before running anew');
    } finally {
      agent.script = correct;
    }
  });
});

describe('exactly once across a dropped agent link', () => {
  test.afterEach(() => h.dropAgents());

  test('committed, then the link dropped: the agent back on the same connection is asked, and the client gets the record', async () => {
    const first = await h.agent('hq', {
      host: 'first',
      script: ({ op }, a) => {
        if (op.kind === 'write') a.journal.commit(op);
        a.drop();
      },
    });
    const key = freshKey();
    const pending = h.post('/v1/customers', { ...customer, id: 'drop1' }, { 'idempotency-key': key });
    await pollUntil('the first request at the agent', () => first.requests.length === 1);
    const back = await h.agent('hq', { host: 'back' });
    const r = await pending;
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json, { data: { id: 'DROP1', name: 'Acme Ltd' } });
    assert.deepEqual(
      back.requests.map((q) => q.op.kind),
      ['outcome'],
      'never the write again: the router does not re-send writes',
    );
    assert.equal(
      (back.requests[0]!.op as { operationId: string }).operationId,
      (first.requests[0]!.op as { operationId: string }).operationId,
    );
    const replay = await h.post('/v1/customers', { ...customer, id: 'drop1' }, { 'idempotency-key': key });
    assert.equal(replay.text, r.text);
    assert.equal(back.requests.length, 1);
  });

  test('dropped before it committed: not_executed, a retryable 503, and the same key runs it anew', async () => {
    const other = await h.agent('hq', { host: 'other' });
    // Drops the link on a write that changes something; answers validate-only as a correct agent would.
    const dropping = await h.agent('hq', {
      host: 'dropping',
      script: (request, a) => (request.op.kind === 'write' && !request.op.validateOnly ? a.drop() : answerCorrectly(request, a)),
    });
    // The write goes to the least busy agent: park a validate-only on `other` so that `dropping` gets it.
    const correct = other.script;
    const parked: (() => void)[] = [];
    other.script = (request, a) => parked.push(() => correct(request, a));
    const busy: Promise<unknown>[] = [];
    for (let i = 0; i < 4 && parked.length === 0; i++) {
      let answered = false;
      busy.push(h.post('/v1/customers?validateOnly=true', customer).then(() => (answered = true)));
      await pollUntil('an answer or a parked write', () => answered || parked.length === 1);
    }
    other.script = correct;
    const key = freshKey();
    const r = await h.post('/v1/customers', { ...customer, id: 'drop2' }, { 'idempotency-key': key });
    parked.shift()!();
    await Promise.all(busy);
    const lost = dropping.requests.filter((q) => q.op.kind === 'write' && !q.op.validateOnly);
    assert.equal(lost.length, 1);
    const lostId = (lost[0]!.op as { operationId: string }).operationId;
    assert.equal(r.status, 503, r.text);
    assert.deepEqual(errorOf(r).details, {
      operationId: lostId,
      outcome: 'not_executed',
    });
    assert.equal(r.headers.get('retry-after'), '1');
    assert.deepEqual(other.sent('outcome').length, 1);
    const retry = await h.post('/v1/customers', { ...customer, id: 'drop2' }, { 'idempotency-key': key });
    assert.equal(retry.status, 201, retry.text);
    const write = other.sent('write').at(-1)!.op as { operationId: string };
    assert.notEqual(write.operationId, lostId, 'a new operation id');
    assert.equal(h.journal.entries.get(lostId), 'abandoned');
  });

  test('no agent back before the deadline: 504 with the operation id, then the retry learns the outcome', async () => {
    const first = await h.agent('hq', {
      script: ({ op }, a) => {
        if (op.kind === 'write') a.journal.commit(op);
        a.drop();
      },
    });
    const key = freshKey();
    const r = await h.post('/v1/customers', { ...customer, id: 'drop3' }, { 'idempotency-key': key });
    assert.equal(r.status, 504, r.text);
    const operationId = (first.requests[0]!.op as { operationId: string }).operationId;
    assert.deepEqual(errorOf(r).details, { operationId, outcome: 'unknown' });
    const back = await h.agent('hq');
    const retry = await h.post('/v1/customers', { ...customer, id: 'drop3' }, { 'idempotency-key': key });
    assert.equal(retry.status, 201, retry.text);
    assert.deepEqual(retry.json, { data: { id: 'DROP3', name: 'Acme Ltd' } });
    assert.deepEqual(
      back.requests.map((q) => [q.op.kind, (q.op as { operationId: string }).operationId]),
      [['outcome', operationId]],
    );
    const documents = [...h.journal.entries.values()].filter((e) => e !== 'abandoned' && e.includes('DROP3'));
    assert.equal(documents.length, 1, 'one document');
  });

  test('an agent that never answers: 504 unknown at the deadline; the retry settles it through the outcome', async () => {
    // It commits the write and never answers it (a statement stuck behind GP's lock, say); it answers outcomes.
    const silent = await h.agent('hq', {
      script: ({ id, op }, a) => {
        if (op.kind === 'write') a.journal.commit(op);
        else if (op.kind === 'outcome') settleFromJournal(id, op.operationId, a);
      },
    });
    const key = freshKey();
    const r = await h.post('/v1/customers', { ...customer, id: 'slow' }, { 'idempotency-key': key });
    assert.equal(r.status, 504);
    assert.equal(errorOf(r).details.outcome, 'unknown');
    const retry = await h.post('/v1/customers', { ...customer, id: 'slow' }, { 'idempotency-key': key });
    assert.equal(retry.status, 201, retry.text);
    assert.equal(silent.sent('write').length, 1, 'the write was sent once');
  });
});
