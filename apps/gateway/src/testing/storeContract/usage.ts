import { test } from 'node:test';
import assert from 'node:assert/strict';
import { USAGE_LOG_KEPT, type RequestRecord } from '../../infrastructure/store/store.ts';
import type { RoleSuite } from './support.ts';

/** What the store must do for usage counts and the request log (roles/usage.ts), on each engine. */
export function usageStoreContract({ fresh }: RoleSuite): void {
  test(`usage: counts add up across batches; each organisation's log keeps its newest ${USAGE_LOG_KEPT.toLocaleString('en')} requests`, async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Busy');
    const other = await store.createOrganisation('Quiet');
    const day = { orgId: org.id, keyId: 'key_a', day: '2026-11-24', statusClass: '2xx', requests: 5 };
    await store.recordUsage({ daily: [day, { ...day, statusClass: '4xx', requests: 1 }, { ...day, day: '2026-10-01' }], requests: [] });
    await store.recordUsage({ daily: [day, { ...day, orgId: other.id }], requests: [] });
    assert.deepEqual(
      (await store.listDailyUsage(org.id, '2026-11-01')).map((d) => [d.day, d.statusClass, d.requests]),
      [
        ['2026-11-24', '2xx', 10],
        ['2026-11-24', '4xx', 1],
      ],
    );
    const request = (orgId: string, i: number): RequestRecord => ({
      orgId,
      at: new Date(Date.UTC(2026, 10, 24, 10, 0, 0, i)).toISOString(),
      keyId: i % 2 ? 'key_a' : 'key_b',
      keyPrefix: 'lb_live_AAAA',
      method: 'GET',
      object: 'customers',
      status: i % 3 ? 200 : 404,
      ms: 1.25,
      requestId: `req_${i}`,
    });
    await store.recordUsage({ daily: [], requests: Array.from({ length: USAGE_LOG_KEPT - 10 }, (_, i) => request(org.id, i)) });
    await store.recordUsage({
      daily: [],
      requests: [...Array.from({ length: 60 }, (_, i) => request(org.id, USAGE_LOG_KEPT - 10 + i)), request(other.id, 0)],
    });
    const kept = await store.listRecentRequests(org.id, { limit: USAGE_LOG_KEPT + 100 });
    assert.equal(kept.length, USAGE_LOG_KEPT);
    assert.deepEqual(
      [kept[0]!.requestId, kept.at(-1)!.requestId],
      [`req_${USAGE_LOG_KEPT + 49}`, 'req_50'],
      'newest first; the oldest 50 went',
    );
    assert.deepEqual(kept[0], request(org.id, USAGE_LOG_KEPT + 49));
    assert.deepEqual(
      (await store.listRecentRequests(other.id, { limit: 5 })).map((r) => r.requestId),
      ['req_0'],
      'organisations apart',
    );
    const detailed = {
      ...request(org.id, USAGE_LOG_KEPT + 100),
      connectionId: 'conn_a',
      recordId: 'NO-SUCH',
      errorCode: 'NOT_FOUND',
      path: '/v1/customers/NO-SUCH',
      errorMessage: 'No customer NO-SUCH.',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    };
    await store.recordUsage({ daily: [], requests: [detailed] });
    assert.deepEqual((await store.listRecentRequests(org.id, { limit: 1 }))[0], detailed, 'connection, record, error, path and trace kept');
    const byId = (orgId: string, requestId: string) => store.listRecentRequests(orgId, { requestId, limit: 1 });
    assert.deepEqual(await byId(org.id, detailed.requestId), [detailed], 'a request found by its id');
    assert.deepEqual(await byId(org.id, 'req_60'), [request(org.id, 60)], 'one written without the detail has none');
    assert.deepEqual(await byId(other.id, detailed.requestId), [], "another organisation's request is not found");
    assert.deepEqual(await byId(org.id, 'req_10'), [], 'nor one trimmed from the log');
    const ranged = await store.listRecentRequests(org.id, {
      since: request(org.id, 100).at,
      before: request(org.id, 103).at,
      limit: 10,
    });
    assert.deepEqual(
      ranged.map((r) => r.requestId),
      ['req_102', 'req_101', 'req_100'],
      'a time range: since included, before not',
    );
    const filtered = await store.listRecentRequests(org.id, { keyId: 'key_b', statusClass: '4xx', limit: 3 });
    assert.deepEqual(
      filtered.map((r) => [r.keyId, r.status]),
      [
        ['key_b', 404],
        ['key_b', 404],
        ['key_b', 404],
      ],
    );
  });
}
