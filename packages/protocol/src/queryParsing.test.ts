import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterToolSchema } from './filters.ts';
import { OBJECTS } from './objects.ts';
import { parseListQuery, parseToolFilters, splitCompositeId } from './queryParsing.ts';

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

test('customer-addresses requires customerId, and says so', () => {
  const parsed = parseListQuery(OBJECTS['customer-addresses'], {});
  assert.deepEqual(!parsed.ok && parsed.issues, [{ path: 'customerId', message: 'is required for customer-addresses' }]);
  const tool = parseToolFilters(OBJECTS['customer-addresses'], {});
  assert.deepEqual(!tool.ok && tool.issues, [{ path: 'filters.customerId', message: 'is required for customer-addresses' }]);
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

test('tool filters are JSON values, validated and normalised as the query string would be', () => {
  const parsed = parseToolFilters(customers, {
    q: 'aaron',
    inactive: false,
    id: ['A', 'B'],
    updatedSince: '2026-03-01T15:05:09.1+01:00',
    hold: null,
  });
  assert.deepEqual(parsed, {
    ok: true,
    value: { q: 'aaron', inactive: false, id: ['A', 'B'], updatedSince: '2026-03-01T14:05:09.100Z' },
  });
  const fromQuery = parseListQuery(customers, {
    q: 'aaron',
    inactive: 'false',
    'id[]': ['A', 'B'],
    updatedSince: '2026-03-01T15:05:09.1+01:00',
  });
  assert.deepEqual(parsed.ok && parsed.value, fromQuery.ok && fromQuery.value.filters);
  assert.deepEqual(parseToolFilters(OBJECTS['gl-entries'], { journalEntryNumber: 42, year: 'open' }), {
    ok: true,
    value: { journalEntryNumber: 42, year: 'open' },
  });
});

test('tool filter issues carry the REST messages under filters.<name>', () => {
  const parsed = parseToolFilters(customers, { inactive: 'maybe', classId: ['A', 'B'], id: [], q: 'x'.repeat(65), colour: 'red' });
  assert.deepEqual(!parsed.ok && parsed.issues, [
    { path: 'filters.colour', message: 'unknown filter' },
    { path: 'filters.q', message: 'must be at most 64 characters' },
    { path: 'filters.id', message: 'give at least one id' },
    { path: 'filters.classId', message: 'must be given once' },
    { path: 'filters.inactive', message: 'must be true or false' },
  ]);
  const rest = parseListQuery(customers, { inactive: 'maybe' });
  assert.deepEqual(!rest.ok && rest.issues, [{ path: 'inactive', message: 'must be true or false' }]);
  const integer = parseToolFilters(OBJECTS['gl-entries'], { journalEntryNumber: 1.5 });
  assert.deepEqual(!integer.ok && integer.issues, [{ path: 'filters.journalEntryNumber', message: 'must be an integer' }]);
});

test('a lines list takes its document as a required filter', () => {
  const lines = OBJECTS['sales-order-lines'];
  assert.deepEqual(parseToolFilters(lines, { documentId: 'invoice:STDINV1' }), { ok: true, value: { documentId: 'invoice:STDINV1' } });
  assert.deepEqual(parseToolFilters(lines, {}), { ok: false, issues: [{ path: 'filters.documentId', message: 'is required' }] });
  assert.deepEqual(parseToolFilters(lines, { documentId: 7 }), {
    ok: false,
    issues: [{ path: 'filters.documentId', message: 'must be a non-empty string' }],
  });
});

test('the advertised tool schema types each filter as JSON', () => {
  const schema = filterToolSchema(OBJECTS['customer-addresses'].filters);
  assert.equal(schema.safeParse({ customerId: 'A' }).success, true);
  assert.equal(schema.safeParse({}).success, false, 'customerId is required');
  const customersSchema = filterToolSchema(customers.filters);
  assert.equal(customersSchema.safeParse({ inactive: false, id: ['A'] }).success, true);
  assert.equal(customersSchema.safeParse({ inactive: 'false' }).success, false);
  assert.equal(customersSchema.safeParse({ colour: 'red' }).success, false);
});

test('search and id values with hidden characters are refused, naming the parameter (issue 32)', () => {
  for (const hidden of ['\u0000', '\u0085', '\u200b', '\u202e']) {
    const parsed = parseListQuery(customers, { q: `a${hidden}`, 'id[]': [`A${hidden}`], classId: `X${hidden}` });
    assert.deepEqual(parsed.ok ? [] : parsed.issues.map((i) => i.path), ['q', 'id[].0', 'classId'], JSON.stringify(hidden));
  }
  assert.equal(parseListQuery(customers, { q: 'Société Générale' }).ok, true);
});

test('a date-time is read one way: an offset past ±14:00 or a time past 24:00 is refused, on date filters too', () => {
  const receivables = OBJECTS['ar-invoices'];
  for (const value of ['2026-03-01T00:00:00+25:00', '2026-03-01T00:00:00-14:30', '2026-03-01T25:00:00Z', '2026-03-01T12:60:00Z']) {
    const dated = parseListQuery(receivables, { dateFrom: value });
    assert.deepEqual(dated.ok ? [] : dated.issues.map((i) => i.path), ['dateFrom'], value);
    const since = parseListQuery(customers, { updatedSince: value });
    assert.deepEqual(since.ok ? [] : since.issues.map((i) => i.path), ['updatedSince'], value);
  }
  for (const value of ['2026-03-01T00:00:00+14:00', '2026-03-01T00:00:00-12:00', '2026-03-01T24:00:00Z']) {
    assert.equal(parseListQuery(receivables, { dateFrom: value }).ok, true, value);
  }
});

test('gl-entries year=unposted with a header filter is a 400 naming the filter and why, on REST and MCP alike', () => {
  const entries = OBJECTS['gl-entries'];
  const parsed = parseListQuery(entries, { year: 'unposted', dateFrom: '2026-01-01', series: '2' });
  assert.deepEqual(parsed.ok ? [] : parsed.issues.map((i) => i.path), ['series', 'dateFrom']);
  assert.match(parsed.ok ? '' : parsed.issues[1]!.message, /^cannot be combined with year=unposted: .*journalEntryNumber/);
  const tool = parseToolFilters(entries, { year: 'unposted', dateTo: '2026-01-01' });
  assert.deepEqual(tool.ok ? [] : tool.issues.map((i) => i.path), ['filters.dateTo']);
  assert.equal(parseListQuery(entries, { year: 'open', dateFrom: '2026-01-01' }).ok, true);
});
