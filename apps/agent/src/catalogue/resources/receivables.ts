import { AR_DOCUMENT_TYPES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';
import { dateRange } from './dateRange.ts';

const OPEN = 0;
const HISTORY = 1;
const INVOICE_TYPES = [1, 3, 4, 5, 6, 7, 8];
const PAYMENT_TYPES = [9];

/**
 * Posted receivables documents: open in RM20101, history in RM30101 (docs/api.md#which-rows-each-list-holds). Invoices and payments
 * are the same shape and differ only in which RMDTYPAL codes they hold.
 */
function receivables(object: 'ar-invoices' | 'ar-payments', types: readonly number[]): ResourceDef {
  const ofTypes = [{ column: 'RMDTYPAL', op: 'in', values: types }] as const;
  return {
    object,
    database: 'company',
    sources: [
      { table: 'RM20101', where: ofTypes },
      { table: 'RM30101', where: ofTypes },
    ],
    fields: {
      type: { column: 'RMDTYPAL', codec: { enum: AR_DOCUMENT_TYPES } },
      documentNumber: { column: 'DOCNUMBR', codec: 'string' },
      customerId: { column: 'CUSTNMBR', codec: 'string' },
      date: { column: 'DOCDATE', codec: 'date' },
      dueDate: { column: 'DUEDATE', codec: 'date' },
      originalAmount: { column: 'ORTRXAMT', codec: 'money' },
      remainingAmount: { column: 'CURTRXAM', codec: 'money' },
      salesAmount: { column: 'SLSAMNT', codec: 'money' },
      taxAmount: { column: 'TAXAMNT', codec: 'money' },
      freightAmount: { column: 'FRTAMNT', codec: 'money' },
      description: { column: 'TRXDSCRN', codec: 'string' },
      batchId: { column: 'BACHNUMB', codec: 'string' },
      currencyId: { column: 'CURNCYID', codec: 'string' },
      checkNumber: { column: 'CHEKNMBR', codec: 'string' },
      voided: { column: 'VOIDSTTS', codec: 'flag' },
    },
    filters: {
      status: { kind: 'sources', sources: { open: [OPEN], history: [HISTORY] } },
      customerId: { kind: 'eq', column: 'CUSTNMBR' },
      type: { kind: 'eq', column: 'RMDTYPAL', enum: AR_DOCUMENT_TYPES },
      batchId: { kind: 'eq', column: 'BACHNUMB' },
      currencyId: { kind: 'eq', column: 'CURNCYID' },
      ...dateRange('DOCDATE'),
      dueBefore: { kind: 'before', column: 'DUEDATE' },
    },
    // type pins the default key's first column.
    keys: {
      default: { name: 'document', indexes: { RM20101: 'AK4RM20101', RM30101: 'AK4RM30101' } },
      byFilter: [
        { name: 'customer', filters: ['customerId'], indexes: { RM20101: 'PKRM20101', RM30101: 'PKRM30101' } },
        // History only: no index of the open table leads with DOCDATE.
        { name: 'date', filters: ['dateFrom', 'dateTo'], indexes: { RM30101: 'AK5RM30101' } },
      ],
    },
    idParts: [{ column: 'RMDTYPAL', enum: AR_DOCUMENT_TYPES }, { column: 'DOCNUMBR' }],
  };
}

export const arInvoices = receivables('ar-invoices', INVOICE_TYPES);
export const arPayments = receivables('ar-payments', PAYMENT_TYPES);
