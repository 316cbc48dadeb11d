import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OBJECT_NAMES } from '@gp-gateway/protocol';
import { checkWriteWhitelist, D9_WRITABLE_OBJECTS, writableObjects } from './writableObjects.ts';

test('writable objects are the v1 writable objects (docs/api.md#writes) the catalogue knows', () => {
  assert.deepEqual(
    writableObjects(),
    D9_WRITABLE_OBJECTS.filter((n) => (OBJECT_NAMES as readonly string[]).includes(n)),
  );
  assert.ok(writableObjects().includes('customers'));
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
