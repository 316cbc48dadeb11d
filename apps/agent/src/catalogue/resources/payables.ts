import { AP_DOCUMENT_TYPES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';
import { dateRange } from './dateRange.ts';

const OPEN = 0;
const HISTORY = 1;
const INVOICE_TYPES = [1, 2, 3, 4, 5];
const PAYMENT_TYPES = [6];

/**
 * Posted payables documents: open in PM20000, history in PM30200 (docs/api.md#which-rows-each-list-holds). The voucher number is GP's
 * key; DOCNUMBR is the vendor's own document (or check) number.
 */
function payables(object: 'ap-invoices' | 'ap-payments', types: readonly number[]): ResourceDef {
  const ofTypes = [{ column: 'DOCTYPE', op: 'in', values: types }] as const;
  return {
    object,
    database: 'company',
    sources: [
      { table: 'PM20000', where: ofTypes },
      { table: 'PM30200', where: ofTypes },
    ],
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
      voided: { column: 'VOIDED', codec: 'flag' },
    },
    filters: {
      status: { kind: 'sources', sources: { open: [OPEN], history: [HISTORY] } },
      vendorId: { kind: 'eq', column: 'VENDORID' },
      type: { kind: 'eq', column: 'DOCTYPE', enum: AP_DOCUMENT_TYPES },
      batchId: { kind: 'eq', column: 'BACHNUMB' },
      currencyId: { kind: 'eq', column: 'CURNCYID' },
      ...dateRange('DOCDATE'),
      dueBefore: { kind: 'before', column: 'DUEDATE' },
    },
    // type pins the default key's first column.
    keys: {
      default: { name: 'voucher', indexes: { PM20000: 'PKPM20000', PM30200: 'PKPM30200' } },
      byFilter: [
        { name: 'vendor', filters: ['vendorId'], indexes: { PM20000: 'AK3PM20000', PM30200: 'AK1PM30200' } },
        // History only: no index of the open table leads with DOCDATE.
        { name: 'date', filters: ['dateFrom', 'dateTo'], indexes: { PM30200: 'AK4PM30200' } },
      ],
    },
    idParts: [{ column: 'DOCTYPE', enum: AP_DOCUMENT_TYPES }, { column: 'VCHRNMBR' }],
  };
}

export const apInvoices = payables('ap-invoices', INVOICE_TYPES);
export const apPayments = payables('ap-payments', PAYMENT_TYPES);
