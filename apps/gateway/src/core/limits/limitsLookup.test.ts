import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../../infrastructure/store/openStore.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { cachedLimitsLookup } from './limitsLookup.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'limits-test-'));
const store = await openSqliteStore(path.join(dir, 'gateway.sqlite'));
after(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an organisation's overrides replace the defaults field by field", async () => {
  const org = await store.createOrganisation('Partial');
  await store.setOrganisationLimits(org.id, { requestsPerWindow: 250 });
  const limitsOf = cachedLimitsLookup(store, DEFAULT_LIMITS, 0);
  assert.deepEqual(await limitsOf(org.id), { requestsPerWindow: 250, windowSeconds: 10, maxInFlightPerConnection: 8 });
  assert.deepEqual(await limitsOf('org_unknown'), DEFAULT_LIMITS);
});

test('a change reaches the lookup once the cached value is older than cacheMs', async () => {
  const start = Date.parse('2026-11-26T10:00:00Z');
  let now = start;
  const org = await store.createOrganisation('Cached');
  const limitsOf = cachedLimitsLookup(store, DEFAULT_LIMITS, 5000, () => now);
  assert.equal((await limitsOf(org.id)).requestsPerWindow, 100);
  await store.setOrganisationLimits(org.id, { requestsPerWindow: 7 });
  now = start + 4999;
  assert.equal((await limitsOf(org.id)).requestsPerWindow, 100);
  now = start + 5001;
  assert.equal((await limitsOf(org.id)).requestsPerWindow, 7);
});
