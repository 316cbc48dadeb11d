import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { AdminService } from '../../../core/admin/adminService.ts';
import { sha256Hex } from '../../../core/auth/secrets.ts';
import type { RequestRecord } from '../../../infrastructure/store/store.ts';
import { startWriteHarness, type WriteHarness } from '../../../testing/writeHarness.ts';

/** The usage page's recent requests over HTTP (issue 36): each with its key's name, narrowed to UTC days from the GET query. */
let h: WriteHarness;
let session = '';
let keyId = '';
let otherKeyId = '';

before(async () => {
  h = await startWriteHarness();
  const admin = new AdminService(h.store);
  const org = await admin.createOrganisation('Used');
  const { key } = await admin.issueApiKey({ orgId: org.id, name: 'ERP sync', mode: 'live', scopes: ['read'] });
  const other = (await admin.issueApiKey({ orgId: org.id, name: 'Reports', mode: 'live', scopes: ['read'] })).key;
  [keyId, otherKeyId] = [key.id, other.id];
  const plant = (await admin.createConnection({ orgId: org.id, name: 'Plant' })).connection.id;
  const user = (await h.store.createUser({ orgId: org.id, email: 'ann@used.example', role: 'viewer' }))!;
  session = randomBytes(24).toString('base64url');
  await h.store.createDashboardSession({ idHash: sha256Hex(session), userId: user.id, at: new Date() });
  const request = (at: string, requestId: string, keyId = key.id): RequestRecord => ({
    orgId: org.id,
    at,
    keyId,
    keyPrefix: keyId === key.id ? key.prefix : 'oauth:abcdef',
    method: 'GET',
    object: 'customers',
    status: 200,
    ms: 12.5,
    requestId,
  });
  await h.store.recordUsage({
    daily: [],
    requests: [
      request('2026-05-01T23:59:59.000Z', 'req_may1'),
      {
        ...request('2026-05-02T00:00:00.000Z', 'req_may2'),
        connectionId: plant,
        recordId: 'NO-SUCH',
        errorCode: 'NOT_FOUND',
        errorMessage: 'No customer <NO-SUCH>.',
        path: '/v1/customers/NO-SUCH',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        status: 404,
      },
      request('2026-05-03T08:00:00.000Z', 'req_may3', 'grant_1'),
    ],
  });
  const elsewhere = await admin.createOrganisation('Elsewhere');
  await h.store.recordUsage({ daily: [], requests: [{ ...request('2026-05-02T00:00:00.000Z', 'req_elsewhere'), orgId: elsewhere.id }] });
  const count = (id: string, day: string, statusClass: string, requests: number) => ({
    orgId: org.id,
    keyId: id,
    day,
    statusClass,
    requests,
  });
  await h.store.recordUsage({
    daily: [
      count(key.id, '2026-05-01', '2xx', 3),
      count(key.id, '2026-05-02', '2xx', 1),
      count(key.id, '2026-05-02', '4xx', 2),
      count(other.id, '2026-05-02', '2xx', 5),
      count(other.id, '2026-05-03', '5xx', 7),
    ],
    requests: [],
  });
});
after(() => h.close());

const dashboard = (pathAndQuery: string) =>
  fetch(`${h.gateway.url}/dashboard/${pathAndQuery}`, { headers: { cookie: `__Host-gp_session=${session}` } });

async function usagePage(query: Record<string, string> = {}) {
  const res = await dashboard(`usage?${new URLSearchParams(query)}`);
  assert.equal(res.status, 200);
  const html = await res.text();
  return { html, ids: [...html.matchAll(/<code>(req_[a-z0-9]+)<\/code>/g)].map((m) => m[1]) };
}

test('recent requests name their key; a grant without a key keeps its prefix', async () => {
  const { html, ids } = await usagePage();
  assert.deepEqual(ids, ['req_may3', 'req_may2', 'req_may1']);
  assert.match(html, /<td>ERP sync <code>lb_live_[^<]*…<\/code><\/td>/);
  assert.match(html, /<td><code>oauth:abcdef…<\/code><\/td>/);
  assert.match(
    html,
    /<td>Plant<\/td><td>GET customers<\/td><td>NO-SUCH<\/td><td>404<\/td><td>NOT_FOUND<\/td><td>12.5<\/td><td><a href="\/dashboard\/usage\/requests\/req_may2"><code>req_may2</,
    'connection, record, status, error code, latency',
  );
  assert.match(html, /<label>From <input type="date" name="from" value="">/);
});

test('From and To narrow the requests to UTC days, both included; a day that does not read is said and not applied', async () => {
  assert.deepEqual((await usagePage({ from: '2026-05-02', to: '2026-05-02' })).ids, ['req_may2']);
  assert.deepEqual((await usagePage({ from: '2026-05-02' })).ids, ['req_may3', 'req_may2']);
  assert.deepEqual((await usagePage({ to: '2026-05-01' })).ids, ['req_may1']);
  const kept = await usagePage({ from: '2026-05-02', to: '2026-05-03' });
  assert.match(kept.html, /name="from" value="2026-05-02"/);
  const bad = await usagePage({ from: 'May' });
  assert.match(bad.html, /role="alert">“From” is not a date/);
  assert.equal(bad.ids.length, 3);
});

test('each request is counted with its connection, the record it named or created, and its error code', async () => {
  const agent = await h.agent('hq');
  try {
    const created = await h.post('/v1/customers', { id: 'used01', name: 'Used' });
    assert.equal(created.status, 201, created.text);
    const missing = await fetch(`${h.gateway.url}/v1/customers/NO%20SUCH`, {
      headers: { authorization: `Bearer ${h.keys.writer}`, 'x-connection-id': h.connections.closed.id },
    });
    await missing.arrayBuffer();
    assert.equal(missing.status, 503);
  } finally {
    agent.drop();
  }
  await h.gateway.usage.flush();
  const [read, write] = await h.store.listRecentRequests(h.orgId, { limit: 2 });
  assert.deepEqual(
    [read!.connectionId, read!.recordId, read!.errorCode, read!.status],
    [h.connections.closed.id, 'NO SUCH', 'CONNECTION_OFFLINE', 503],
  );
  assert.deepEqual(
    [write!.connectionId, write!.recordId, write!.errorCode, write!.status],
    [h.connections.hq.id, 'USED01', undefined, 201],
  );
  assert.deepEqual([read!.path, write!.path], ['/v1/customers/NO%20SUCH', '/v1/customers'], 'the path, never the query');
  assert.match(read!.errorMessage!, /offline|connect/i, 'the error envelope’s message');
  assert.equal(write!.errorMessage, undefined);
});

test('the by-key table counts the same key, status class and UTC days as the filter of the requests', async () => {
  // Each row: the key's name, then 2xx, 4xx, 5xx and the total.
  const byKey = async (query: Record<string, string>) => {
    const { html } = await usagePage(query);
    const table = /<h2>(By key[^<]*)<\/h2>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)!;
    const rows = [
      ...table[2]!.matchAll(/<tr><td>([^<(]+) \([^)]*\)<\/td><td>(\d+)<\/td><td>(\d+)<\/td><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g),
    ];
    return { title: table[1], rows: rows.map((m) => [m[1], ...m.slice(2).map(Number)]) };
  };
  assert.deepEqual(await byKey({ from: '2026-05-01', to: '2026-05-03' }), {
    title: 'By key, 2026-05-01 to 2026-05-03',
    rows: [
      ['ERP sync', 4, 2, 0, 6],
      ['Reports', 5, 0, 7, 12],
    ],
  });
  assert.deepEqual((await byKey({ from: '2026-05-02', to: '2026-05-02' })).rows, [
    ['ERP sync', 1, 2, 0, 3],
    ['Reports', 5, 0, 0, 5],
  ]);
  assert.deepEqual((await byKey({ from: '2026-05-01', to: '2026-05-03', key: otherKeyId })).rows, [['Reports', 5, 0, 7, 12]]);
  assert.deepEqual(await byKey({ from: '2026-05-01', to: '2026-05-03', status: '4xx' }), {
    title: 'By key, 2026-05-01 to 2026-05-03, 4xx only',
    rows: [['ERP sync', 0, 2, 0, 2]],
  });
  // Without From: the 30 days up to To.
  assert.deepEqual((await byKey({ to: '2026-05-01', key: keyId })).rows, [['ERP sync', 3, 0, 0, 3]]);
  assert.equal((await byKey({ to: '2026-05-01' })).title, 'By key, 2026-04-02 to 2026-05-01');
  // No filter: the last 30 days, which hold none of these old counts.
  assert.deepEqual((await byKey({})).rows, []);
});

test("a request's page shows everything kept of it, escaped; another organisation's request id is as unknown as a made-up one", async () => {
  const res = await dashboard('usage/requests/req_may2');
  assert.equal(res.status, 200);
  const cells = Object.fromEntries(
    [...(await res.text()).matchAll(/<tr><th scope="row">([^<]+)<\/th><td>(.*?)<\/td><\/tr>/g)].map((m) => [
      m[1],
      m[2]!.replace(/<[^>]+>/g, ''),
    ]),
  );
  const { Key: key, Connection: connection, ...rest } = cells;
  assert.match(key!, /^ERP sync lb_live_\w+…$/);
  assert.match(connection!, /^Plant conn_[\w-]+$/);
  assert.deepEqual(rest, {
    'Time (UTC)': '2026-05-02 00:00:00.000',
    Method: 'GET',
    Path: '/v1/customers/NO-SUCH',
    Object: 'customers',
    Record: 'NO-SUCH',
    Status: '404',
    'Error code': 'NOT_FOUND',
    'Error message': 'No customer &lt;NO-SUCH&gt;.',
    Latency: '12.5 ms',
    'Request id': 'req_may2',
    'Trace id': '4bf92f3577b34da6a3ce929d0e0e4736',
  });

  const plain = await (await dashboard('usage/requests/req_may1')).text();
  assert.doesNotMatch(plain, /Error code|Trace id/, 'a request without an error or trace shows none');
  assert.match(plain, /<th scope="row">Connection<\/th><td>none named<\/td>/);

  for (const id of ['req_elsewhere', 'req_never', 'x'.repeat(500)]) {
    const missing = await dashboard(`usage/requests/${id}`);
    assert.equal(missing.status, 404, id);
    assert.match(await missing.text(), /No such request/);
  }
});
