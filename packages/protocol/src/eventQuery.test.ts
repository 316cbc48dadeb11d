import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEventsQuery } from './eventQuery.ts';

test('the events query: repeatable types and patterns, filters normalised, limit defaulted', () => {
  assert.deepEqual(parseEventsQuery({ type: ['customer.*', 'vendor.deleted'], company: 'two', since: '2026-03-01' }), {
    ok: true,
    value: { types: ['customer.*', 'vendor.deleted'], company: 'TWO', since: '2026-03-01T00:00:00.000Z', limit: 100, cursor: null },
  });
  assert.deepEqual(parseEventsQuery({ type: 'connection.online', limit: '5', object: 'items', connectionId: 'conn_1' }), {
    ok: true,
    value: { types: ['connection.online'], object: 'items', connectionId: 'conn_1', limit: 5, cursor: null },
  });
});

test('the events query refuses what names nothing, with the parameter named', () => {
  const issues = (q: Record<string, unknown>) => {
    const parsed = parseEventsQuery(q);
    assert.equal(parsed.ok, false);
    return parsed.ok ? [] : parsed.issues.map((i) => i.path);
  };
  assert.deepEqual(issues({ type: 'customers.*' }), ['type']);
  assert.deepEqual(issues({ object: 'gl-entries' }), ['object']);
  assert.deepEqual(issues({ company: ['TWO', 'THREE'] }), ['company']);
  assert.deepEqual(issues({ since: 'yesterday' }), ['since']);
  assert.deepEqual(issues({ limit: '0' }), ['limit']);
  assert.deepEqual(issues({ updatedSince: '2026-01-01' }), ['updatedSince']);
});
