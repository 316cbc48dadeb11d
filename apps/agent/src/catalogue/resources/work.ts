import { AP_DOCUMENT_TYPES, AR_DOCUMENT_TYPES } from '@gp-gateway/protocol';
import type { FieldDef, ResourceDef } from '../types.ts';
import { apInvoices } from './payables.ts';
import { arInvoices } from './receivables.ts';
import { glEntries } from './glEntries.ts';

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
  filters: {},
  keys: { default: { name: 'document', indexes: { RM10301: 'PKRM10301' } } },
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
    description: { column: 'TRXDSCRN', codec: 'string' },
    batchId: { column: 'BACHNUMB', codec: 'string' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
    voided: constant(false),
  },
  filters: {},
  keys: { default: { name: 'voucher', indexes: { PM10000: 'AK2PM10000' } } },
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
  filters: { journalEntryNumber: { kind: 'eq', column: 'JRNENTRY' } },
  keys: { default: { name: 'line', indexes: { GL10001: 'PKGL10001' } } },
};

/** The posted resources these stand for: the same fields, in the same order (work.test.ts). */
export const POSTED_OF = { 'ar-invoices': arInvoices, 'ap-invoices': apInvoices, 'gl-entries': glEntries } as const;
