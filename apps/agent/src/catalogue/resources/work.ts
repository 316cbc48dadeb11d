import { AP_DOCUMENT_TYPES, type ObjectName } from '@gp-gateway/protocol';
import type { FieldDef, ResourceDef } from '../types.ts';
import { apInvoices } from './payables.ts';
import { arInvoices } from './receivables.ts';

/**
 * Unposted documents as the API shows them, read from the work tables eConnect writes into
 * (docs/decisions.md#writes): what a write reads back and answers with, field for field the
 * resource a GET returns. The work tables name some columns differently from the posted ones, and
 * lack others: those fields are what an unposted document has (nothing applied yet, not voided).
 */
const constant = (value: unknown): FieldDef => ({ columns: [], compute: () => value });

/** A list's `status=work`: the one source, the work table. */
const WORK_STATUS = { kind: 'sources', sources: { work: [0] } } as const;

/**
 * The posted resource (same fields and filters, so a write answers what a later GET returns) read
 * from RM10301, which names the amount and description columns differently and has no check
 * number or void flag.
 */
export const unpostedArInvoices: ResourceDef = {
  ...arInvoices,
  sources: [{ table: 'RM10301' }],
  fields: {
    ...arInvoices.fields,
    originalAmount: { column: 'DOCAMNT', codec: 'money' },
    // Unposted: nothing is applied to it yet, so all of it remains.
    remainingAmount: { column: 'DOCAMNT', codec: 'money' },
    description: { column: 'DOCDESCR', codec: 'string' },
    checkNumber: constant(null),
    voided: constant(false),
  },
  filters: { ...arInvoices.filters, status: WORK_STATUS },
  // RMDNUMWK is the work key: eConnect sets it to the document number (its first 17 characters).
  keys: {
    default: { name: 'document', indexes: { RM10301: 'PKRM10301' } },
    byFilter: [
      { name: 'customer', filters: ['customerId'], indexes: { RM10301: 'AK2RM10301' } },
      { name: 'batch', filters: ['batchId'], indexes: { RM10301: 'AK5RM10301' } },
      { name: 'date', filters: ['dateFrom', 'dateTo'], indexes: { RM10301: 'AK3RM10301' } },
    ],
  },
};

/** The posted resource read from PM10000, which has every column the posted resource reads except the void flag. */
export const unpostedApInvoices: ResourceDef = {
  ...apInvoices,
  sources: [{ table: 'PM10000' }],
  fields: { ...apInvoices.fields, voided: constant(false) },
  filters: { ...apInvoices.filters, status: WORK_STATUS },
  // The work voucher number (VCHNUMWK) is unique on its own (AK2PM10000).
  keys: {
    default: { name: 'voucher', indexes: { PM10000: 'AK2PM10000' } },
    byFilter: [
      { name: 'vendor', filters: ['vendorId'], indexes: { PM10000: 'AK3PM10000' } },
      { name: 'batch', filters: ['batchId'], indexes: { PM10000: 'AK5PM10000' } },
    ],
  },
  idParts: [{ column: 'DOCTYPE', enum: AP_DOCUMENT_TYPES }, { column: 'VCHNUMWK' }],
};

/** Unposted journal entry lines (GL10001), each with its header (GL10000) and account number. */
export const unpostedGlEntries: ResourceDef = {
  object: 'gl-entries',
  database: 'company',
  sources: [{ table: 'GL10001' }],
  joins: [
    { alias: 'h', table: 'GL10000', foreignColumn: 'JRNENTRY', localColumn: 'JRNENTRY' },
    { alias: 'a', table: 'GL00105', foreignColumn: 'ACTINDX', localColumn: 'ACTINDX' },
  ],
  fields: {
    journalEntryNumber: { column: 'JRNENTRY', codec: 'int' },
    series: { join: 'h', column: 'SERIES', codec: 'int' },
    sourceDocument: { join: 'h', column: 'SOURCDOC', codec: 'string' },
    reference: { join: 'h', column: 'REFRENCE', codec: 'string' },
    lineDescription: { column: 'DSCRIPTN', codec: 'string' },
    date: { join: 'h', column: 'TRXDATE', codec: 'date' },
    accountNumber: { join: 'a', column: 'ACTNUMST', codec: 'string' },
    debit: { column: 'DEBITAMT', codec: 'money' },
    credit: { column: 'CRDTAMNT', codec: 'money' },
    originatingSource: constant(null),
    originatingMasterId: { column: 'ORMSTRID', codec: 'string' },
    originatingDocument: { column: 'ORDOCNUM', codec: 'string' },
  },
  filters: {
    year: { kind: 'sources', sources: { unposted: [0] } },
    accountNumber: { kind: 'eqLookup', column: 'ACTINDX', lookup: { table: 'GL00105', column: 'ACTNUMST', key: 'ACTINDX' } },
    journalEntryNumber: { kind: 'eq', column: 'JRNENTRY' },
    originatingMasterId: { kind: 'eq', column: 'ORMSTRID' },
    // series, dateFrom and dateTo are the header's (GL10000): a condition on the joined header lets
    // the planner read the header first and sort the lines, so unposted lines are not filtered by them.
  },
  // The entry, then its lines in the order they were inserted (GP's own key, SQNCLINE, is numeric(19,5), which keys cannot be).
  keys: {
    default: { name: 'line', indexes: { GL10001: 'AK4GL10001' } },
    byFilter: [{ name: 'account', filters: ['accountNumber'], indexes: { GL10001: 'AK2GL10001' } }],
  },
};

/**
 * Where a list's filter value leads to the work table instead (docs/api.md): ar-invoices and
 * ap-invoices `status=work`, gl-entries `year=unposted`. A get by id looks there too, after the
 * resource's own tables (work, open and history tables: docs/api.md#writes).
 */
export const WORK_READS: Readonly<Partial<Record<ObjectName, { filter: string; value: string; def: ResourceDef }>>> = {
  'ar-invoices': { filter: 'status', value: 'work', def: unpostedArInvoices },
  'ap-invoices': { filter: 'status', value: 'work', def: unpostedApInvoices },
  'gl-entries': { filter: 'year', value: 'unposted', def: unpostedGlEntries },
};
