import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OBJECTS, parseListQuery, splitCompositeId } from './objects.ts';

const customers = OBJECTS.customers;

test('defaults: limit 100, no cursor, no filters', () => {
  assert.deepEqual(parseListQuery(customers, {}), { ok: true, value: { limit: 100, cursor: null, filters: {} } });
});

test('filters are typed and normalised', () => {
  const parsed = parseListQuery(customers, {
    q: 'aaron',
    inactive: 'false',
    'id[]': ['A', 'B'],
    updatedSince: '2026-03-01T15:05:09.1+01:00',
    limit: '1000',
  });
  assert.deepEqual(parsed, {
    ok: true,
    value: {
      limit: 1000,
      cursor: null,
      filters: { q: 'aaron', inactive: false, id: ['A', 'B'], updatedSince: '2026-03-01T14:05:09.100Z' },
    },
  });
});

test('a single id[] is a list of one; a date updatedSince is its UTC midnight', () => {
  const parsed = parseListQuery(customers, { 'id[]': 'A', updatedSince: '2026-03-01' });
  assert.deepEqual(parsed.ok && parsed.value.filters, { id: ['A'], updatedSince: '2026-03-01T00:00:00.000Z' });
});

test('every bad parameter is named', () => {
  const parsed = parseListQuery(customers, {
    limit: '0',
    inactive: 'yes',
    q: 'x'.repeat(65),
    colour: 'red',
    updatedSince: '2026-02-30',
    'id[]': Array.from({ length: 51 }, (_, i) => `C${i}`),
  });
  assert.equal(parsed.ok, false);
  const paths = !parsed.ok ? parsed.issues.map((i) => i.path).sort() : [];
  assert.deepEqual(paths, ['colour', 'id[]', 'inactive', 'limit', 'q', 'updatedSince']);
});

test('limit bounds and repeated single-valued parameters', () => {
  assert.equal(parseListQuery(customers, { limit: '1001' }).ok, false);
  assert.equal(parseListQuery(customers, { limit: '1.5' }).ok, false);
  assert.equal(parseListQuery(customers, { limit: '1' }).ok, true);
  const repeated = parseListQuery(customers, { classId: ['A', 'B'] });
  assert.deepEqual(!repeated.ok && repeated.issues, [{ path: 'classId', message: 'must be given once' }]);
});

test('customer-addresses requires customerId', () => {
  const parsed = parseListQuery(OBJECTS['customer-addresses'], {});
  assert.equal(parsed.ok, false);
  assert.deepEqual(!parsed.ok && parsed.issues.map((i) => i.path), ['customerId']);
  assert.equal(parseListQuery(OBJECTS['customer-addresses'], { customerId: '' }).ok, false);
});

test('gl-entries dates accept a date or a date-time and keep the date as written', () => {
  const parsed = parseListQuery(OBJECTS['gl-entries'], { dateFrom: '2026-01-31T23:30:00-05:00', dateTo: '2026-02-01', year: 'open' });
  assert.deepEqual(parsed.ok && parsed.value.filters, { dateFrom: '2026-01-31', dateTo: '2026-02-01', year: 'open' });
  assert.equal(parseListQuery(OBJECTS['gl-entries'], { year: 'closed' }).ok, false);
  assert.equal(parseListQuery(OBJECTS['gl-entries'], { journalEntryNumber: '99999999999' }).ok, false);
});

test('composite ids split at the first or last colon', () => {
  assert.deepEqual(splitCompositeId('AARON:PRIMARY', 'last'), ['AARON', 'PRIMARY']);
  assert.deepEqual(splitCompositeId('A:B:SHIP TO', 'last'), ['A:B', 'SHIP TO']);
  assert.deepEqual(splitCompositeId('invoice:STD:1', 'first'), ['invoice', 'STD:1']);
  assert.equal(splitCompositeId('nocolon', 'last'), null);
  assert.equal(splitCompositeId(':x', 'last'), null);
  assert.equal(splitCompositeId('x:', 'last'), null);
});
