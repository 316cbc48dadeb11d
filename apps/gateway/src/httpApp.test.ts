import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ErrorBodySchema, CustomerSchema, listEnvelopeSchema } from '@gp-gateway/protocol';
import { newApiKeySecret } from './core/auth/secrets.ts';
import { startInProcessGateway, type InProcessGateway } from './testing/inProcessGateway.ts';

let t: InProcessGateway;
let dir: string;
const keys: Record<string, string> = {};
let liveConnectionId = '';
let otherOrgConnectionId = '';
let orgAId = '';

before(async () => {
  t = await startInProcessGateway();
  dir = t.dir;
  const org = await t.admin.createOrganisation('Org A');
  orgAId = org.id;
  const other = await t.admin.createOrganisation('Org B');
  keys.test = (await t.makeKey(org.id, 'test', ['read'])).secret;
  keys.live = (await t.makeKey(org.id, 'live', ['read'])).secret;
  keys.noRead = (await t.makeKey(org.id, 'live', ['mcp'])).secret;
  const revoked = await t.makeKey(org.id, 'live', ['read']);
  keys.revoked = revoked.secret;
  const db = new Database(path.join(dir, 'gateway.sqlite'));
  db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), revoked.key.id);
  db.close();
  const live = await t.admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' });
  keys.agentToken = live.agentToken;
  liveConnectionId = live.connection.id;
  otherOrgConnectionId = (await t.admin.createConnection({ orgId: other.id, name: 'Other', defaultCompany: 'TWO' })).connection.id;
});

after(async () => {
  // No secret we issued may appear in any log line of the whole run.
  const logText = t.logs.join('');
  assert.ok(logText.includes('"msg":"request"'), 'the run was logged');
  for (const secret of Object.values(keys)) assert.equal(logText.includes(secret), false, 'a secret reached the logs');
  await t.close();
});

const get = (pathAndQuery: string, headers: Record<string, string> = {}) => t.get(pathAndQuery, headers);
const as = (secret: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, ...extra });

function assertError(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(ErrorBodySchema.safeParse(res.body).success, true, JSON.stringify(res.body));
  assert.equal(res.body.error.code, code);
  assert.equal(res.body.error.requestId, res.headers.get('x-request-id'));
}

describe('authentication', () => {
  test('missing, malformed, unknown and revoked keys get the same 401, saying how to authenticate', async () => {
    const answers = await Promise.all([
      get('/v1/customers'),
      get('/v1/customers', { authorization: 'Bearer nope' }),
      get('/v1/customers', as(newApiKeySecret('live'))),
      get('/v1/customers', as(keys.revoked!)),
    ]);
    for (const res of answers) assertError(res, 401, 'UNAUTHORIZED');
    for (const res of answers)
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="gp-gateway"', 'RFC 9110: how to authenticate');
    assert.equal(new Set(answers.map((r) => r.body.error.message)).size, 1);
  });

  test('a key without the read scope gets 403', async () => {
    assertError(await get('/v1/customers', as(keys.noRead!, { 'x-connection-id': liveConnectionId })), 403, 'FORBIDDEN');
  });
});

/** A request as raw HTTP/1.1, for what fetch will not send (two Host headers); the response's status and body. */
function rawRequest(lines: string[]): Promise<{ status: number; body: any }> {
  const url = new URL(t.gateway.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = 'null'] = out.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body) });
    });
  });
}

describe('headers read one way (issue 32)', () => {
  test("two Host or two Authorization headers (one key, then another organisation's) are a 400 naming the header", async () => {
    const request = 'GET /v1/companies HTTP/1.1';
    const key = `Authorization: Bearer ${keys.test}`;
    assert.equal((await rawRequest([request, 'Host: localhost', key])).status, 200);
    for (const [lines, header] of [
      [[request, 'Host: localhost', 'Host: evil.example', key], 'Host'],
      [[request, 'Host: localhost', key, `Authorization: Bearer ${newApiKeySecret('test')}`], 'Authorization'],
      [[request, 'Host: localhost', key, 'X-Company: TWO', 'x-company: NWIND'], 'X-Company'],
    ] as const) {
      const { status, body } = await rawRequest([...lines]);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(ErrorBodySchema.safeParse(body).success, true);
      assert.deepEqual(body.error.details.issues, [{ path: header, message: 'must be given once' }]);
    }
  });
});

describe('routing to connections and companies', () => {
  test('test keys reach the sandbox with or without X-Connection-Id', async () => {
    const a = await get('/v1/customers?limit=3', as(keys.test!));
    const b = await get('/v1/customers?limit=3', as(keys.test!, { 'x-connection-id': 'sandbox' }));
    assert.equal(a.status, 200);
    assert.deepEqual(a.body.data, b.body.data);
    assert.equal(a.body.data.length, 3);
    assert.equal(listEnvelopeSchema(CustomerSchema).safeParse(a.body).success, true);
  });

  test('unknown, foreign and sandbox connections are the same 400 for a live key', async () => {
    const answers = await Promise.all([
      get('/v1/customers', as(keys.live!, { 'x-connection-id': 'conn_doesnotexist' })),
      get('/v1/customers', as(keys.live!, { 'x-connection-id': otherOrgConnectionId })),
      get('/v1/customers', as(keys.live!, { 'x-connection-id': 'sandbox' })),
    ]);
    for (const res of answers) assertError(res, 400, 'VALIDATION_ERROR');
    assert.equal(new Set(answers.map((r) => r.body.error.message)).size, 1);
    assertError(await get('/v1/customers', as(keys.test!, { 'x-connection-id': liveConnectionId })), 400, 'VALIDATION_ERROR');
  });

  test('a live key without X-Connection-Id gets 400 naming the header', async () => {
    const res = await get('/v1/customers', as(keys.live!));
    assertError(res, 400, 'VALIDATION_ERROR');
    assert.deepEqual(
      res.body.error.details.issues.map((i: any) => i.path),
      ['X-Connection-Id'],
    );
  });

  test('a connection whose agent is offline answers 503 CONNECTION_OFFLINE', async () => {
    assertError(await get('/v1/customers', as(keys.live!, { 'x-connection-id': liveConnectionId })), 503, 'CONNECTION_OFFLINE');
  });

  test('X-Company selects the company; unknown companies and X-Company on companies are 400', async () => {
    const two = await get('/v1/customers?limit=1', as(keys.test!, { 'x-company': 'TWO' }));
    const nwind = await get('/v1/customers?limit=1', as(keys.test!, { 'x-company': 'nwind' }));
    assert.equal(two.status, 200);
    assert.equal(nwind.status, 200);
    assertError(await get('/v1/customers', as(keys.test!, { 'x-company': 'NOPE' })), 400, 'VALIDATION_ERROR');
    assertError(await get('/v1/companies', as(keys.test!, { 'x-company': 'TWO' })), 400, 'VALIDATION_ERROR');
  });

  test('companies lists the two demo companies', async () => {
    const res = await get('/v1/companies', as(keys.test!));
    assert.deepEqual(res.body, {
      data: [
        { id: 'TWO', name: 'Fabrikam, Inc.', number: 1 },
        { id: 'NWIND', name: 'Northwind Traders', number: 2 },
      ],
      nextCursor: null,
    });
    const one = await get('/v1/companies/NWIND', as(keys.test!));
    assert.deepEqual(one.body, { data: { id: 'NWIND', name: 'Northwind Traders', number: 2 } });
    for (const r of [res, one]) assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
  });
});

describe('lists, cursors and gets', () => {
  test('a cursor walk returns every customer exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/v1/customers?limit=97${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, as(keys.test!));
      assert.equal(res.status, 200);
      seen.push(...res.body.data.map((c: any) => c.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    const db = new Database(path.join(dir, 'demo', 'TWO.sqlite'), { readonly: true });
    const expected = (db.prepare('SELECT rtrim(CUSTNMBR) AS id FROM RM00101 ORDER BY CUSTNMBR').all() as { id: string }[]).map((r) => r.id);
    db.close();
    assert.deepEqual(seen, expected);
  });

  test('tampered cursors and cursors of other filters or companies are 400', async () => {
    const first = await get('/v1/customers?limit=2', as(keys.test!));
    const cursor: string = first.body.nextCursor;
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
    for (const [query, headers] of [
      [`cursor=${encodeURIComponent(tampered)}`, {}],
      [`cursor=${encodeURIComponent(cursor)}&classId=USA-ILMO-T1`, {}],
      [`cursor=${encodeURIComponent(cursor)}`, { 'x-company': 'NWIND' }],
      ['cursor=not-a-cursor', {}],
    ] as const) {
      const res = await get(`/v1/customers?limit=2&${query}`, as(keys.test!, headers));
      assertError(res, 400, 'VALIDATION_ERROR');
      assert.deepEqual(
        res.body.error.details.issues.map((i: any) => i.path),
        ['cursor'],
      );
    }
    const next = await get(`/v1/customers?limit=2&cursor=${encodeURIComponent(cursor)}`, as(keys.test!));
    assert.equal(next.status, 200);
  });

  test('invalid query parameters are named in details.issues', async () => {
    const res = await get('/v1/customers?limit=5000&colour=red&inactive=maybe', as(keys.test!));
    assertError(res, 400, 'VALIDATION_ERROR');
    assert.deepEqual(res.body.error.details.issues.map((i: any) => i.path).sort(), ['colour', 'inactive', 'limit']);
  });

  test('get by id, and 404 for an unknown id, object or a list without get', async () => {
    const list = await get('/v1/customers?limit=1', as(keys.test!));
    const customer = list.body.data[0];
    assert.deepEqual((await get(`/v1/customers/${encodeURIComponent(customer.id)}`, as(keys.test!))).body, { data: customer });
    assert.deepEqual((await get(`/v1/customers/${encodeURIComponent(customer.id.toLowerCase())}`, as(keys.test!))).body, {
      data: customer,
    });
    assertError(await get('/v1/customers/NO-SUCH-CUSTOMER', as(keys.test!)), 404, 'NOT_FOUND');
    assertError(await get('/v1/widgets', as(keys.test!)), 404, 'NOT_FOUND');
    assertError(await get('/v1/gl-entries/1', as(keys.test!)), 404, 'NOT_FOUND');
    assertError(await get('/nowhere'), 404, 'NOT_FOUND');
  });

  test('customer addresses need customerId and are fetched by <customerId>:<code>', async () => {
    assertError(await get('/v1/customer-addresses', as(keys.test!)), 400, 'VALIDATION_ERROR');
    const customer = (await get('/v1/customers?limit=1', as(keys.test!))).body.data[0];
    const addresses = await get(`/v1/customer-addresses?customerId=${encodeURIComponent(customer.id)}`, as(keys.test!));
    assert.ok(addresses.body.data.length >= 1);
    assert.ok(addresses.body.data.every((a: any) => a.customerId === customer.id));
    const address = addresses.body.data[0];
    const one = await get(`/v1/customer-addresses/${encodeURIComponent(`${address.customerId}:${address.code}`)}`, as(keys.test!));
    assert.deepEqual(one.body, { data: address });
  });
});

describe('access log', () => {
  test('each request is one line with its request id, whole path, status and key prefix', async () => {
    const read = await get('/v1/customers?limit=1', as(keys.test!));
    const refused = await get('/v1/customers/NO-SUCH-CUSTOMER', as(keys.test!));
    const writer = await t.makeKey(orgAId, 'test', ['write']);
    keys.writer = writer.secret;
    const rotate = await fetch(`${t.gateway.url}/v1/api-keys/${writer.key.id}/rotate`, { method: 'POST', headers: as(writer.secret) });
    keys.rotated = ((await rotate.json()) as { secret: string }).secret;
    const lines = t.logs
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    for (const [res, path, status] of [
      [read, '/v1/customers', 200],
      [refused, '/v1/customers/NO-SUCH-CUSTOMER', 404],
      [rotate, `/v1/api-keys/${writer.key.id}/rotate`, 200],
    ] as const) {
      const logged = lines.filter((l) => l.msg === 'request' && l.requestId === res.headers.get('x-request-id'));
      assert.equal(logged.length, 1, `one line for ${path}`);
      assert.equal(logged[0].path, path);
      assert.equal(logged[0].status, status);
      assert.match(logged[0].key, /^lb_test_\w+$/, 'a key prefix');
    }
  });
});
