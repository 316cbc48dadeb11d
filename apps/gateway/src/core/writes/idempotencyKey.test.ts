import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFingerprint, type WriteIdentity } from './idempotencyKey.ts';

const order: WriteIdentity = {
  object: 'sales-orders',
  connectionId: 'conn_1',
  company: 'TWO',
  body: {
    lines: [{ itemId: 'A', quantity: '1.5' }],
    customerId: 'C1',
    note: 'é\u2028"x"',
    n: 1.5e-7,
    neg: -0,
    nil: null,
    flag: true,
  },
};

test('a write is the same request whatever the order of its fields, and another as soon as any value differs', () => {
  const reordered = { ...order, body: Object.fromEntries(Object.entries(order.body as object).reverse()) };
  assert.equal(writeFingerprint(reordered), writeFingerprint(order));
  assert.notEqual(writeFingerprint({ ...order, company: 'NWIND' }), writeFingerprint(order));
  assert.notEqual(
    writeFingerprint({ ...order, body: { ...(order.body as object), lines: [{ itemId: 'A', quantity: '1.50' }] } }),
    writeFingerprint(order),
  );
});

test('fingerprints stay what earlier gateways stored: a retry across an upgrade is still the same request', () => {
  // Computed by the hand-written canonical JSON this replaced (sorted keys, JSON.stringify's escaping).
  assert.equal(writeFingerprint(order), '9c0051c671139126ecb51c551312cb3ffcff2414da170779cda8df61cb87c0f6');
});
