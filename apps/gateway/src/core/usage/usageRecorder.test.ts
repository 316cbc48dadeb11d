import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { USAGE_LOG_KEPT, type RequestRecord } from '../../infrastructure/store/store.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { UsageRecorder } from './usageRecorder.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);

const request = (orgId: string, i: number, status: number, keyId = 'key_a', at = '2026-11-24T10:00:00.000Z'): RequestRecord => ({
  orgId,
  at,
  keyId,
  keyPrefix: 'lb_live_AAAA',
  method: 'GET',
  object: 'customers',
  status,
  ms: 1.5,
  requestId: `req_${i}`,
});

test('counts per key, day and status class are exact; the log keeps the newest requests of each flush', async () => {
  const org = await admin.createOrganisation('Usage');
  const other = await admin.createOrganisation('Other usage');
  const usage = new UsageRecorder(store, pino({ level: 'silent' }));
  for (let i = 0; i < 1200; i++) usage.record(request(org.id, i, i % 10 === 0 ? 404 : 200));
  usage.record(request(org.id, 9000, 503, 'key_b', '2026-11-23T23:59:59.999Z'));
  usage.record(request(other.id, 9001, 200));
  await usage.stop();
  const daily = await store.listDailyUsage(org.id, '2026-11-01');
  assert.deepEqual(
    daily.map((d) => [d.day, d.keyId, d.statusClass, d.requests]),
    [
      ['2026-11-23', 'key_b', '5xx', 1],
      ['2026-11-24', 'key_a', '2xx', 1080],
      ['2026-11-24', 'key_a', '4xx', 120],
    ],
  );
  const recent = await store.listRecentRequests(org.id, { limit: 1000 });
  assert.equal(recent.length, 500, 'a flush logs the newest 500 of an organisation');
  assert.equal(recent[0]!.requestId, 'req_9000', 'newest first');
  assert.deepEqual(
    (await store.listRecentRequests(org.id, { statusClass: '4xx', limit: 5 })).map((r) => r.status),
    [404, 404, 404, 404, 404],
  );
  assert.deepEqual(
    (await store.listRecentRequests(org.id, { keyId: 'key_b', limit: 5 })).map((r) => r.requestId),
    ['req_9000'],
  );
  assert.deepEqual(
    (await store.listRecentRequests(other.id, { limit: 5 })).map((r) => r.requestId),
    ['req_9001'],
    'organisations apart',
  );
});

test(`each organisation's request log keeps its newest ${USAGE_LOG_KEPT.toLocaleString('en')} requests`, async () => {
  const org = await admin.createOrganisation('Busy');
  const batch = Array.from({ length: USAGE_LOG_KEPT + 50 }, (_, i) => request(org.id, i, 200));
  await store.recordUsage({ daily: [], requests: batch });
  const kept = await store.listRecentRequests(org.id, { limit: USAGE_LOG_KEPT + 100 });
  assert.equal(kept.length, USAGE_LOG_KEPT);
  assert.equal(kept.at(-1)!.requestId, 'req_50', 'the oldest 50 went');
});
