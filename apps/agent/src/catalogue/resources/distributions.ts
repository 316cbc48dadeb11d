import { AP_DISTRIBUTION_TYPES, AP_DOCUMENT_TYPES, AR_DISTRIBUTION_TYPES, AR_DOCUMENT_TYPES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';

/** A distribution line's fields, the same columns in RM10101 and PM10100; the account by its number through the join `a` (GL00105). */
function distributionFields(types: Readonly<Record<number, string>>): ResourceDef['fields'] {
  return {
    type: { column: 'DISTTYPE', codec: { enum: types } },
    accountNumber: { join: 'a', column: 'ACTNUMST', codec: 'string' },
    debit: { column: 'DEBITAMT', codec: 'money' },
    credit: { column: 'CRDTAMNT', codec: 'money' },
    reference: { column: 'DistRef', codec: 'string' },
  };
}

/**
 * A receivables or payables document's distribution lines, as GP keeps them until posting moves
 * them to history (RM10101 for work and open receivables documents, PM10100 for payables ones):
 * what a write's distributions read back as (docs/decisions.md#distribution-lines). The account is
 * shown by its number (GL00105), as journal entries show it. History (RM30301, PM30600) is not read.
 */
export const arInvoiceDistributions: ResourceDef = {
  object: 'ar-invoice-distributions',
  database: 'company',
  sources: [{ table: 'RM10101' }],
  joins: [{ alias: 'a', table: 'GL00105', foreignColumn: 'ACTINDX', localColumn: 'DSTINDX' }],
  fields: distributionFields(AR_DISTRIBUTION_TYPES),
  filters: {
    documentId: {
      kind: 'document',
      parts: [{ column: 'RMDTYPAL', enum: AR_DOCUMENT_TYPES }, { column: 'DOCNUMBR' }],
      splitAt: 'first',
    },
  },
  // The document pins RMDTYPAL and DOCNUMBR: its lines in GP's order (SEQNUMBR).
  keys: { default: { name: 'line', indexes: { RM10101: 'AK5RM10101' } } },
};

/**
 * PM10100 does not keep the document type: the voucher's work row (PM10000, whose VCHRNMBR eConnect
 * sets to the work voucher number, char(21) as PM10100's) gives it, so the lines
 * of unposted documents are read (an open document's lines are there too, but not found by this join).
 */
export const apInvoiceDistributions: ResourceDef = {
  object: 'ap-invoice-distributions',
  database: 'company',
  sources: [{ table: 'PM10100', where: [{ column: 'CNTRLTYP', op: 'eq', value: 0 }] }],
  joins: [
    { alias: 'h', table: 'PM10000', foreignColumn: 'VCHRNMBR', localColumn: 'VCHRNMBR' },
    { alias: 'a', table: 'GL00105', foreignColumn: 'ACTINDX', localColumn: 'DSTINDX' },
  ],
  fields: distributionFields(AP_DISTRIBUTION_TYPES),
  filters: {
    documentId: {
      kind: 'document',
      parts: [{ join: 'h', column: 'DOCTYPE', enum: AP_DOCUMENT_TYPES }, { column: 'VCHRNMBR' }],
      splitAt: 'first',
    },
  },
  // The voucher pins VCHRNMBR: its lines in the order they were inserted (DEX_ROW_ID), which is
  // GP's DSTSQNUM order for lines eConnect writes (each max + 16384).
  keys: { default: { name: 'line', indexes: { PM10100: 'AK5PM10100' } } },
};
