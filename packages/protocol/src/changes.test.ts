import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, eventTypeMatches, eventTypeOf, eventTypePatternProblem } from './changes.ts';

test('event types are the singular noun and the kind; patterns name a noun', () => {
  assert.equal(eventTypeOf('customers', 'created'), 'customer.created');
  assert.equal(eventTypeOf('item-quantities', 'updated'), 'item-quantity.updated');
  assert.equal(eventTypeOf('batches', 'deleted'), 'batch.deleted');
  assert.ok(EVENT_TYPES.includes('connection.online') && EVENT_TYPES.includes('connection.offline'));
  assert.ok(eventTypeMatches('customer.updated', ['customer.*']));
  assert.ok(!eventTypeMatches('customer-address.updated', ['customer.*']), 'customer.* is not customer-address.*');
  assert.ok(eventTypeMatches('vendor.deleted', ['customer.*', 'vendor.deleted']));
  assert.ok(eventTypeMatches('vendor.deleted', []), 'no filter: every type');
});

test('a type filter that names no event type is a problem, said with the nouns there are', () => {
  assert.equal(eventTypePatternProblem('customer.created'), null);
  assert.equal(eventTypePatternProblem('customer.*'), null);
  assert.equal(eventTypePatternProblem('connection.*'), null);
  assert.match(eventTypePatternProblem('customers.*')!, /customer\.\*/);
  assert.notEqual(eventTypePatternProblem('customer.moved'), null);
  assert.notEqual(eventTypePatternProblem('*'), null);
});
