import { AP_DOCUMENT_TYPES, AR_DOCUMENT_TYPES, type ObjectName } from '@gp-gateway/protocol';
import type { FieldDef, ResourceDef } from '../types.ts';

/**
 * Unposted documents as the API shows them, read from the work tables eConnect writes into
 * (docs/decisions.md#writes): what a write reads back and answers with, field for field the
 * resource a GET returns. The work tables name some columns differently from the posted ones, and
 * lack others: those fields are what an unposted document has (nothing applied yet, not voided).
 */
const constant = (value: unknown): FieldDef => ({ columns: [], compute: () => value });

export const unpostedArInvoices: ResourceDef = {
  object: 'ar-invoices',
  database: 'company',
  sources: [{ table: 'RM10301' }],
  fields: {
    type: { column: 'RMDTYPAL', codec: { enum: AR_DOCUMENT_TYPES } },
    documentNumber: { column: 'DOCNUMBR', codec: 'string' },
    customerId: { column: 'CUSTNMBR', codec: 'string' },
    date: { column: 'DOCDATE', codec: 'date' },
    dueDate: { column: 'DUEDATE', codec: 'date' },
    originalAmount: { column: 'DOCAMNT', codec: 'money' },
    // Unposted: nothing is applied to it yet, so all of it remains.
    remainingAmount: { column: 'DOCAMNT', codec: 'money' },
    salesAmount: { column: 'SLSAMNT', codec: 'money' },
    taxAmount: { column: 'TAXAMNT', codec: 'money' },
    freightAmount: { column: 'FRTAMNT', codec: 'money' },
    description: { column: 'DOCDESCR', codec: 'string' },
    batchId: { column: 'BACHNUMB', codec: 'string' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
    checkNumber: constant(null),
    voided: constant(false),
  },
  filters: {
    status: { kind: 'sources', sources: { work: [0] } },
    customerId: { kind: 'eq', column: 'CUSTNMBR' },
    type: { kind: 'eq', column: 'RMDTYPAL', enum: AR_DOCUMENT_TYPES },
    batchId: { kind: 'eq', column: 'BACHNUMB' },
    currencyId: { kind: 'eq', column: 'CURNCYID' },
    dateFrom: { kind: 'onOrAfter', column: 'DOCDATE' },
    dateTo: { kind: 'onOrBefore', column: 'DOCDATE' },
    dueBefore: { kind: 'before', column: 'DUEDATE' },
  },
  // RMDNUMWK is the work key: eConnect sets it to the document number (its first 17 characters).
  keys: {
    default: { name: 'document', indexes: { RM10301: 'PKRM10301' } },
    byFilter: [
      { name: 'customer', filters: ['customerId'], indexes: { RM10301: 'AK2RM10301' } },
      { name: 'batch', filters: ['batchId'], indexes: { RM10301: 'AK5RM10301' } },
      { name: 'date', filters: ['dateFrom', 'dateTo'], indexes: { RM10301: 'AK3RM10301' } },
    ],
  },
  idParts: [{ column: 'RMDTYPAL', enum: AR_DOCUMENT_TYPES }, { column: 'DOCNUMBR' }],
};

export const unpostedApInvoices: ResourceDef = {
  object: 'ap-invoices',
  database: 'company',
  sources: [{ table: 'PM10000' }],
  fields: {
    type: { column: 'DOCTYPE', codec: { enum: AP_DOCUMENT_TYPES } },
    voucherNumber: { column: 'VCHRNMBR', codec: 'string' },
    vendorDocumentNumber: { column: 'DOCNUMBR', codec: 'string' },
    vendorId: { column: 'VENDORID', codec: 'string' },
    date: { column: 'DOCDATE', codec: 'date' },
    dueDate: { column: 'DUEDATE', codec: 'date' },
    originalAmount: { column: 'DOCAMNT', codec: 'money' },
    remainingAmount: { column: 'CURTRXAM', codec: 'money' },
    purchasesAmount: { column: 'PRCHAMNT', codec: 'money' },
    taxAmount: { column: 'TAXAMNT', codec: 'money' },
    ten99Amount: { column: 'TEN99AMNT', codec: 'money' },
    description: { column: 'TRXDSCRN', codec: 'string' },
    batchId: { column: 'BACHNUMB', codec: 'string' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
    voided: constant(false),
  },
  filters: {
    status: { kind: 'sources', sources: { work: [0] } },
    vendorId: { kind: 'eq', column: 'VENDORID' },
    type: { kind: 'eq', column: 'DOCTYPE', enum: AP_DOCUMENT_TYPES },
    batchId: { kind: 'eq', column: 'BACHNUMB' },
    currencyId: { kind: 'eq', column: 'CURNCYID' },
    dateFrom: { kind: 'onOrAfter', column: 'DOCDATE' },
    dateTo: { kind: 'onOrBefore', column: 'DOCDATE' },
    dueBefore: { kind: 'before', column: 'DUEDATE' },
  },
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
