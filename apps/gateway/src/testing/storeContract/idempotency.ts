import { test } from 'node:test';
import assert from 'node:assert/strict';
import {} from '../../infrastructure/store/store.ts';
import type { RoleSuite } from './support.ts';

/** What the store must do for Idempotency-Keys (roles/idempotency.ts), on each engine. */
export function idempotencyStoreContract({ fresh, twoOnOne }: RoleSuite): void {
  test('idempotency keys: one claim wins, answers replay, lapsed leases resume, records expire', async () => {
    const store = await fresh();
    const t0 = new Date('2026-01-01T00:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const claim = (operationId: string, fingerprint = 'f1', at = t0, key = 'k1', orgId = 'org_a') =>
      store.claimIdempotencyKey({
        orgId,
        key,
        fingerprint,
        operationId,
        at,
        leaseUntil: new Date(at.getTime() + 1000),
        expiresAt: new Date(at.getTime() + 86_400_000),
      });

    assert.deepEqual(await claim('op_aaaaaaaaaaaaaaaa'), { kind: 'claimed' });
    assert.deepEqual(await claim('op_bbbbbbbbbbbbbbbb'), { kind: 'in_flight' }, 'same body while the lease holds');
    assert.deepEqual(await claim('op_bbbbbbbbbbbbbbbb', 'f2'), { kind: 'body_mismatch' });
    assert.deepEqual(await claim('op_bbbbbbbbbbbbbbbb', 'f1', t0, 'k1', 'org_b'), { kind: 'claimed' }, 'keys are per organisation');
    // Only the operation that holds the record may settle it.
    const result = { kind: 'created' as const, record: Buffer.from('{"id":"A","name":"Zürich"}') };
    assert.equal(await store.completeIdempotencyKey('org_a', 'k1', 'op_bbbbbbbbbbbbbbbb', result), false);
    assert.equal(await store.completeIdempotencyKey('org_a', 'k1', 'op_aaaaaaaaaaaaaaaa', result), true);
    assert.deepEqual(await claim('op_cccccccccccccccc', 'f1', later(5000)), { kind: 'completed', result });
    // GP's refusal is kept as one too, with the request that met it.
    const refusal = {
      code: 'VALIDATION_ERROR' as const,
      message: 'GP refused the document',
      details: { gp: [{ code: 4647, message: 'extended price' }] },
      requestId: 'req_first',
    };
    assert.deepEqual(await claim('op_rrrrrrrrrrrrrrrr', 'f1', t0, 'k-refused'), { kind: 'claimed' });
    assert.equal(await store.completeIdempotencyKey('org_a', 'k-refused', 'op_rrrrrrrrrrrrrrrr', { kind: 'refused', refusal }), true);
    assert.deepEqual(await claim('op_ssssssssssssssss', 'f1', later(10), 'k-refused'), {
      kind: 'completed',
      result: { kind: 'refused', refusal },
    });
    assert.deepEqual(await claim('op_cccccccccccccccc', 'f2', later(5000)), { kind: 'body_mismatch' });
    await store.releaseIdempotencyKey('org_a', 'k1', 'op_aaaaaaaaaaaaaaaa');
    assert.equal((await claim('op_cccccccccccccccc', 'f1', later(5000))).kind, 'completed', 'a completed record is never released');

    // A lease that lapsed (its request gave up, or its gateway died) is resumed once, with its operation id.
    assert.deepEqual(await claim('op_dddddddddddddddd', 'f1', t0, 'k2'), { kind: 'claimed' });
    assert.deepEqual(await claim('op_eeeeeeeeeeeeeeee', 'f1', later(2000), 'k2'), { kind: 'resumed', operationId: 'op_dddddddddddddddd' });
    assert.deepEqual(await claim('op_ffffffffffffffff', 'f1', later(2500), 'k2'), { kind: 'in_flight' }, 'the resumer holds it now');
    await store.suspendIdempotencyKey('org_a', 'k2', 'op_dddddddddddddddd', later(2600));
    assert.deepEqual(await claim('op_ffffffffffffffff', 'f1', later(2600), 'k2'), { kind: 'resumed', operationId: 'op_dddddddddddddddd' });
    await store.releaseIdempotencyKey('org_a', 'k2', 'op_dddddddddddddddd');
    assert.deepEqual(await claim('op_gggggggggggggggg', 'f2', later(2700), 'k2'), { kind: 'claimed' }, 'released: free for any body');

    // Expired records count as absent, and the sweep deletes them.
    assert.deepEqual(await claim('op_hhhhhhhhhhhhhhhh', 'f9', later(86_400_000)), { kind: 'claimed' });
    assert.equal(
      await store.deleteExpiredIdempotencyKeys(later(86_403_000)),
      3,
      'org_b k1, org_a k2 and k-refused expired; the new k1 lives',
    );
    assert.equal(await store.deleteExpiredIdempotencyKeys(later(86_403_000)), 0);
  });

  test('idempotency keys: of many claims of one new key at once, exactly one wins', async () => {
    const [a, b] = await twoOnOne();
    const at = new Date();
    const claims = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).claimIdempotencyKey({
        orgId: 'org_race',
        key: 'same',
        fingerprint: 'f',
        operationId: `op_race_${String(i).padStart(8, '0')}`,
        at,
        leaseUntil: new Date(at.getTime() + 60_000),
        expiresAt: new Date(at.getTime() + 86_400_000),
      }),
    );
    const kinds = (await Promise.all(claims)).map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['claimed', ...Array<string>(19).fill('in_flight')]);
  });
}
