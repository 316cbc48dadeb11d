import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CustomerSchema, GlEntrySchema } from './resources.ts';
import { ErrorBodySchema, ERROR_STATUS } from './errors.ts';

const customer = {
  id: 'AARONFIT0001',
  name: 'Aaron Fitz Electrical',
  statementName: null,
  shortName: null,
  classId: 'USA-ILMO-T1',
  contactPerson: null,
  primaryAddressCode: 'PRIMARY',
  paymentTermsId: 'Net 30',
  salespersonId: null,
  salesTerritoryId: null,
  currencyId: 'Z-US$',
  creditLimit: '1250.00',
  phone: null,
  taxScheduleId: null,
  inactive: false,
  hold: false,
  createdAt: '2024-02-01',
  modifiedAt: '2026-03-01T14:05:09.123Z',
};

test('a complete customer passes; missing, extra or mistyped fields fail', () => {
  assert.equal(CustomerSchema.safeParse(customer).success, true);
  const { phone: _omitted, ...missing } = customer;
  assert.equal(CustomerSchema.safeParse(missing).success, false);
  assert.equal(CustomerSchema.safeParse({ ...customer, extra: 1 }).success, false);
  assert.equal(CustomerSchema.safeParse({ ...customer, creditLimit: 1250 }).success, false, 'money is never a JSON number');
  assert.equal(CustomerSchema.safeParse({ ...customer, name: '' }).success, false, 'empty strings are null');
  assert.equal(CustomerSchema.safeParse({ ...customer, inactive: null }).success, false, 'booleans are never null');
});

test('gl entry amounts are decimal strings and dates are YYYY-MM-DD', () => {
  const entry = {
    journalEntryNumber: 1,
    series: 2,
    sourceDocument: 'GJ',
    reference: null,
    lineDescription: null,
    date: '2026-01-05',
    accountNumber: '000-1100-00',
    debit: '10.50',
    credit: '0.00',
    originatingSource: null,
    originatingMasterId: null,
    originatingDocument: null,
  };
  assert.equal(GlEntrySchema.safeParse(entry).success, true);
  assert.equal(GlEntrySchema.safeParse({ ...entry, debit: '1e3' }).success, false);
  assert.equal(GlEntrySchema.safeParse({ ...entry, date: '2026-01-05T00:00:00Z' }).success, false);
});

test('error bodies carry a known code and a message', () => {
  assert.equal(ErrorBodySchema.safeParse({ error: { code: 'NOT_FOUND', message: 'x', requestId: 'r' } }).success, true);
  assert.equal(ErrorBodySchema.safeParse({ error: { code: 'TEAPOT', message: 'x' } }).success, false);
  assert.deepEqual(
    [
      ERROR_STATUS.CONNECTION_OFFLINE,
      ERROR_STATUS.ERP_UNAVAILABLE,
      ERROR_STATUS.SERVICE_UNAVAILABLE,
      ERROR_STATUS.UPSTREAM_TIMEOUT,
      ERROR_STATUS.RATE_LIMITED,
    ],
    [503, 503, 503, 504, 429],
  );
});
