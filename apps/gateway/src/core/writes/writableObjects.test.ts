import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWriteWhitelist, writableObjects } from './writableObjects.ts';

test("writable objects are the writable objects of docs/api.md#writes, the protocol's one list", () => {
  assert.deepEqual(writableObjects().sort(), [
    'ap-invoices',
    'ar-invoices',
    'customer-addresses',
    'customers',
    'gl-entries',
    'sales-orders',
    'vendor-addresses',
    'vendors',
  ]);
});

test('a whitelist is normalised: lower case, no duplicates, sorted', () => {
  assert.deepEqual(checkWriteWhitelist([' Customers', 'gl-entries', 'customers']), { ok: true, objects: ['customers', 'gl-entries'] });
  assert.deepEqual(checkWriteWhitelist([]), { ok: true, objects: [] });
});

test('every bad name is reported with its reason', () => {
  assert.deepEqual(checkWriteWhitelist(['companies', 'widgets', 'customers']), {
    ok: false,
    problems: ['companies is read-only: v1 does not write it', 'there is no object named "widgets"'],
  });
});
