import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { GatewayClient, GatewayError, ROUTES_WITHOUT_COMPANY } from './client.ts';
import { retryAfterMs } from './retry.ts';

/** A real HTTP server answering from a script, recording every request it got. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
let server: http.Server;
let baseUrl = '';
let seen: Seen[] = [];
let answer: (req: Seen, index: number) => Reply = () => ({ status: 200, body: {} });

before(async () => {
  server = http.createServer(requestHandler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function requestHandler(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let body = '';
  for await (const chunk of req) body += chunk;
  const request = { method: req.method!, url: req.url!, headers: req.headers, body };
  seen.push(request);
  const reply = answer(request, seen.length - 1);
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
}

function script(replies: (req: Seen, index: number) => Reply) {
  seen = [];
  answer = replies;
}
const customer = (id: string) => ({ id, name: id, inactive: false });
const errorBody = (code: string) => ({ error: { code, message: `${code} happened`, requestId: 'req_0123456789abcdef', details: null } });

test('the key and the routing headers go with every request', async () => {
  script(() => ({ status: 200, body: { data: customer('A') } }));
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_live_x', connectionId: 'conn_1', company: 'TWO' });
  const record = await client.get('customers', 'A B/1');
  assert.equal(record.id, 'A');
  assert.equal(seen[0]!.url, '/v1/customers/A%20B%2F1', 'the id is URL-encoded');
  assert.equal(seen[0]!.headers.authorization, 'Bearer lb_live_x');
  assert.equal(seen[0]!.headers['x-connection-id'], 'conn_1');
  assert.equal(seen[0]!.headers['x-company'], 'TWO');
  assert.equal(seen[0]!.headers['idempotency-key'], undefined, 'only POSTs carry one');
});

test('the company goes only where the gateway takes it: not on the companies themselves', async () => {
  script(() => ({ status: 200, body: { data: [], nextCursor: null } }));
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_live_x', connectionId: 'conn_1', company: 'TWO' });
  for await (const _ of client.list('companies')) assert.fail('no companies were scripted');
  await client.page('customers');
  assert.deepEqual(
    seen.map((r) => [r.url, r.headers['x-company'] ?? null]),
    [
      ['/v1/companies', null],
      ['/v1/customers', 'TWO'],
    ],
  );
  // Every documented /v1 operation without the X-Company parameter, and only those, is on the list.
  const document = JSON.parse(fs.readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'));
  for (const [route, operations] of Object.entries(
    document.paths as Record<string, Record<string, { parameters?: { $ref?: string }[] }>>,
  )) {
    if (!route.startsWith('/v1/')) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const takesCompany = (operation.parameters ?? []).some((p) => p.$ref?.endsWith('/Company'));
      const example = route.replace(/\{[^}]+\}/g, 'x');
      assert.equal(
        ROUTES_WITHOUT_COMPANY.some((r) => r.test(example)),
        !takesCompany,
        `${method} ${route}`,
      );
    }
  }
});

test('list walks every page with the same filters, passing each nextCursor back', async () => {
  const pages = [
    { data: [customer('A'), customer('B')], nextCursor: 'c1' },
    { data: [customer('C'), customer('D')], nextCursor: 'c2' },
    { data: [customer('E')], nextCursor: null },
  ];
  script((_req, i) => ({ status: 200, body: pages[i] }));
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_test_x' });
  const ids: string[] = [];
  for await (const c of client.list('customers', { inactive: false, id: ['A', 'B'] }, { limit: 2 })) ids.push(c.id);
  assert.deepEqual(ids, ['A', 'B', 'C', 'D', 'E']);
  const queries = seen.map((s) => new URL(s.url, baseUrl).searchParams);
  assert.deepEqual(
    queries.map((q) => [q.get('inactive'), q.getAll('id[]').join(','), q.get('limit'), q.get('cursor')]),
    [
      ['false', 'A,B', '2', null],
      ['false', 'A,B', '2', 'c1'],
      ['false', 'A,B', '2', 'c2'],
    ],
  );
  assert.ok(seen.every((s) => new URL(s.url, baseUrl).pathname === '/v1/customers'));
});

test('429 and 503 are retried after Retry-After, a bounded number of times', async () => {
  script((_req, i) =>
    i === 0
      ? { status: 429, body: errorBody('RATE_LIMITED'), headers: { 'retry-after': '1' } }
      : i === 1
        ? { status: 503, body: errorBody('ERP_UNAVAILABLE'), headers: { 'retry-after': '0' } }
        : { status: 200, body: { data: customer('A') } },
  );
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_test_x' });
  const started = Date.now();
  assert.equal((await client.get('customers', 'A')).id, 'A');
  assert.equal(seen.length, 3);
  assert.ok(Date.now() - started >= 950, 'waited the second Retry-After asked for');

  script(() => ({ status: 429, body: errorBody('RATE_LIMITED'), headers: { 'retry-after': '0' } }));
  await assert.rejects(new GatewayClient({ baseUrl, apiKey: 'lb_test_x', maxRetries: 2 }).get('customers', 'A'), (e: unknown) => {
    assert.ok(e instanceof GatewayError);
    assert.equal(e.status, 429);
    assert.equal(e.code, 'RATE_LIMITED');
    return true;
  });
  assert.equal(seen.length, 3, 'the first try and two retries');

  script(() => ({ status: 429, body: errorBody('RATE_LIMITED'), headers: { 'retry-after': '120' } }));
  await assert.rejects(new GatewayClient({ baseUrl, apiKey: 'lb_test_x', maxRetryWaitMs: 5000 }).get('customers', 'A'), GatewayError);
  assert.equal(seen.length, 1, 'a wait longer than allowed is not waited for');

  script(() => ({ status: 500, body: errorBody('INTERNAL_ERROR') }));
  await assert.rejects(new GatewayClient({ baseUrl, apiKey: 'lb_test_x' }).get('customers', 'A'), /500 INTERNAL_ERROR/);
  assert.equal(seen.length, 1, 'other errors are not retried');
});

test('a POST carries an Idempotency-Key, the same one on each retry', async () => {
  script((_req, i) =>
    i === 0
      ? { status: 503, body: errorBody('CONNECTION_OFFLINE'), headers: { 'retry-after': '0' } }
      : { status: 200, body: { key: { id: 'key_1' }, secret: 'lb_test_new' } },
  );
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_test_x' });
  const rotated = await client.rotateKey('key_1');
  assert.equal(rotated.secret, 'lb_test_new');
  assert.equal(seen.length, 2);
  const [first, second] = seen.map((s) => s.headers['idempotency-key']);
  assert.match(String(first), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(second, first);
  assert.equal(seen[0]!.method, 'POST');

  await client.rotateKey('key_1');
  assert.notEqual(seen[2]!.headers['idempotency-key'], first, 'each write has its own key');
  assert.equal(seen[2]!.body, '', 'no overlap asked: no body, the old secret fails at once');

  await client.rotateKey('key_1', { overlap: '24h' });
  assert.deepEqual([JSON.parse(seen[3]!.body), seen[3]!.headers['content-type']], [{ overlap: '24h' }, 'application/json']);
});

test('create posts the typed body with an Idempotency-Key, validateOnly as the query, and answers data', async () => {
  const line = { journalEntryNumber: 7, accountNumber: '000-1100-00' };
  script((req) =>
    req.url.includes('validateOnly') ? { status: 200, body: { data: { reference: 'R' } } } : { status: 201, body: { data: [line] } },
  );
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_live_x', connectionId: 'conn_1' });
  const entry = { reference: 'R', date: '2026-11-30', batchId: 'API', lines: [{ accountNumber: '000-1100-00', debit: '1.00' }] };
  const lines = await client.create('gl-entries', entry);
  assert.deepEqual(lines, [line], 'a journal entry answers its lines');
  assert.equal(seen[0]!.method, 'POST');
  assert.equal(seen[0]!.url, '/v1/gl-entries');
  assert.match(String(seen[0]!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
  assert.equal(seen[0]!.headers['content-type'], 'application/json');
  await client.create('gl-entries', entry, { idempotencyKey: 'accrual-2026-11' });
  assert.equal(seen[1]!.headers['idempotency-key'], 'accrual-2026-11', 'a key of the caller is kept');
  assert.deepEqual(await client.create('gl-entries', entry, { validateOnly: true }), { reference: 'R' });
  assert.equal(seen[2]!.url, '/v1/gl-entries?validateOnly=true');
  assert.deepEqual(JSON.parse(seen[2]!.body), entry, 'the body is sent as given');

  script(() => ({ status: 409, body: errorBody('ALREADY_EXISTS') }));
  await assert.rejects(client.create('customers', { id: 'A', name: 'A' }), /409 ALREADY_EXISTS/);
  const typed = () => {
    // @ts-expect-error a customer needs a name
    void client.create('customers', { id: 'A' });
    // @ts-expect-error items are read-only
    void client.create('items', {});
  };
  assert.equal(typeof typed, 'function');
});

test('error answers become GatewayError with the envelope', async () => {
  script(() => ({ status: 404, body: errorBody('NOT_FOUND') }));
  await assert.rejects(new GatewayClient({ baseUrl, apiKey: 'lb_test_x' }).get('vendors', 'nope'), (e: unknown) => {
    assert.ok(e instanceof GatewayError);
    assert.deepEqual([e.status, e.code, e.requestId, e.details], [404, 'NOT_FOUND', 'req_0123456789abcdef', null]);
    return true;
  });
});

test('the types follow the document', () => {
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_test_x' });
  // Compile-time checks (pnpm typecheck): filters, objects and records are typed from docs/openapi.json.
  const typed = async () => {
    for await (const c of client.list('customers', { inactive: false, classId: 'X' })) {
      const name: string | null = c.name;
      void name;
    }
    // @ts-expect-error `inactive` is a boolean filter
    client.list('customers', { inactive: 'no' });
    // @ts-expect-error vendors have no `inactive` filter
    client.list('vendors', { inactive: true });
    // @ts-expect-error gl-entries have no get by id
    await client.get('gl-entries', 'x');
    for await (const line of client.lines('sales-orders', 'order:ORDST1050')) void line.itemId;
  };
  assert.equal(typeof typed, 'function');
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs(new Date(Date.now() + 10_000).toUTCString()) > 8000, true);
  assert.equal(retryAfterMs(null), 1000);
});

test('events reads the feed to the present, or follows it: an empty page is asked again later with the same cursor', async () => {
  const event = (id: string) => ({
    id,
    type: 'customer.updated',
    connectionId: 'conn_1',
    company: 'TWO',
    object: 'customers',
    recordId: id,
    changedAt: null,
    recordedAt: '2026-03-01T00:00:00.000Z',
    data: null,
  });
  const pages = [
    { data: [event('evt_1'), event('evt_2')], nextCursor: 'c1' },
    { data: [], nextCursor: 'c1' },
    { data: [event('evt_3')], nextCursor: 'c2' },
  ];
  script((_req, i) => ({ status: 200, body: pages[Math.min(i, pages.length - 1)] }));
  const client = new GatewayClient({ baseUrl, apiKey: 'lb_live_x' });
  const toPresent: string[] = [];
  for await (const e of client.events({ type: ['customer.*'] }, { limit: 2 })) toPresent.push(e.id);
  assert.deepEqual(toPresent, ['evt_1', 'evt_2'], 'without follow it ends at the first empty page');
  assert.equal(seen[0]!.url, '/v1/events?type=customer.*&limit=2');
  assert.equal(seen[1]!.url, '/v1/events?type=customer.*&limit=2&cursor=c1');

  script((_req, i) => ({ status: 200, body: pages[Math.min(i, pages.length - 1)] }));
  const stop = new AbortController();
  const followed: string[] = [];
  const cursors: string[] = [];
  for await (const e of client.events({}, { follow: true, intervalMs: 1, signal: stop.signal, onCursor: (c) => cursors.push(c) })) {
    followed.push(e.id);
    if (e.id === 'evt_3') stop.abort();
  }
  assert.deepEqual(followed, ['evt_1', 'evt_2', 'evt_3'], 'following reads past the empty page');
  assert.deepEqual(
    seen.map((r) => r.url),
    ['/v1/events', '/v1/events?cursor=c1', '/v1/events?cursor=c1'],
  );
  assert.deepEqual(cursors.slice(0, 2), ['c1', 'c1']);
});
