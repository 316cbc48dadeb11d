import { SALES_DOCUMENT_TYPES } from '@gp-gateway/protocol';
import type { IdPart, ResourceDef } from '../types.ts';
import { dateRange } from './dateRange.ts';

const WORK = 0;
const HISTORY = 1;
const SALES_DOCUMENT_ID: readonly IdPart[] = [{ column: 'SOPTYPE', enum: SALES_DOCUMENT_TYPES }, { column: 'SOPNUMBE' }];

/** Sales documents: unposted work in SOP10100, posted or transferred in SOP30200 (docs/api.md#which-rows-each-list-holds). */
export const salesOrders: ResourceDef = {
  object: 'sales-orders',
  database: 'company',
  sources: [{ table: 'SOP10100' }, { table: 'SOP30200' }],
  fields: {
    type: { column: 'SOPTYPE', codec: { enum: SALES_DOCUMENT_TYPES } },
    number: { column: 'SOPNUMBE', codec: 'string' },
    docTypeId: { column: 'DOCID', codec: 'string' },
    customerId: { column: 'CUSTNMBR', codec: 'string' },
    customerName: { column: 'CUSTNAME', codec: 'string' },
    date: { column: 'DOCDATE', codec: 'date' },
    subtotal: { column: 'SUBTOTAL', codec: 'money' },
    taxAmount: { column: 'TAXAMNT', codec: 'money' },
    freightAmount: { column: 'FRTAMNT', codec: 'money' },
    total: { column: 'DOCAMNT', codec: 'money' },
    batchId: { column: 'BACHNUMB', codec: 'string' },
    siteId: { column: 'LOCNCODE', codec: 'string' },
    customerPONumber: { column: 'CSTPONBR', codec: 'string' },
    voided: { column: 'VOIDSTTS', codec: 'flag' },
  },
  filters: {
    status: { kind: 'sources', sources: { work: [WORK], history: [HISTORY] } },
    customerId: { kind: 'eq', column: 'CUSTNMBR' },
    type: { kind: 'eq', column: 'SOPTYPE', enum: SALES_DOCUMENT_TYPES },
    docTypeId: { kind: 'eq', column: 'DOCID' },
    batchId: { kind: 'eq', column: 'BACHNUMB' },
    siteId: { kind: 'eq', column: 'LOCNCODE' },
    ...dateRange('DOCDATE'),
  },
  keys: {
    default: { name: 'document', indexes: { SOP10100: 'PKSOP10100', SOP30200: 'PKSOP30200' } },
    byFilter: [
      { name: 'customer', filters: ['customerId'], indexes: { SOP10100: 'AK2SOP10100', SOP30200: 'AK2SOP30200' } },
      { name: 'type', filters: ['type'], indexes: { SOP10100: 'AK5SOP10100', SOP30200: 'AK5SOP30200' } },
      { name: 'date', filters: ['dateFrom', 'dateTo'], indexes: { SOP10100: 'AK3SOP10100', SOP30200: 'AK3SOP30200' } },
    ],
  },
  idParts: SALES_DOCUMENT_ID,
};

/** Kit components (CMPNTSEQ > 0) belong to their kit line; the API lists top-level lines only (docs/api.md#which-rows-each-list-holds). */
const TOP_LEVEL = [{ column: 'CMPNTSEQ', op: 'eq', value: 0 }] as const;

export const salesOrderLines: ResourceDef = {
  object: 'sales-order-lines',
  database: 'company',
  sources: [
    { table: 'SOP10200', where: TOP_LEVEL },
    { table: 'SOP30300', where: TOP_LEVEL },
  ],
  fields: {
    // LNITMSEQ is GP's line key, as ORD is a purchase order line's: what a line's change event names it by.
    lineNumber: { column: 'LNITMSEQ', codec: 'int' },
    itemId: { column: 'ITEMNMBR', codec: 'string' },
    description: { column: 'ITEMDESC', codec: 'string' },
    quantity: { column: 'QUANTITY', codec: 'quantity' },
    unitPrice: { column: 'UNITPRCE', codec: 'money' },
    extendedPrice: { column: 'XTNDPRCE', codec: 'money' },
    siteId: { column: 'LOCNCODE', codec: 'string' },
    qtyFulfilled: { column: 'QTYFULFI', codec: 'quantity' },
    unitOfMeasure: { column: 'UOFM', codec: 'string' },
    priceLevel: { column: 'PRCLEVEL', codec: 'string' },
  },
  filters: { documentId: { kind: 'document', parts: SALES_DOCUMENT_ID, splitAt: 'first' } },
  // The document pins SOPTYPE and SOPNUMBE, the rows' own condition CMPNTSEQ: lines in GP's line
  // order. AK2SOP30300's first four columns are unique already (PKSOP30300's, reordered).
  keys: {
    default: { name: 'line', indexes: { SOP10200: 'AK6SOP10200', SOP30300: { index: 'AK2SOP30300', columns: 4 } } },
  },
};
