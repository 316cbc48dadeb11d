import { PURCHASE_ORDER_STATUSES, PURCHASE_ORDER_TYPES } from '@gp-gateway/protocol';
import type { ResourceDef } from '../types.ts';
import { dateRange } from './dateRange.ts';

/** Open (POP10100) and history (POP30100) purchase orders as one list (docs/api.md#which-rows-each-list-holds); PONUMBER is unique across both. */
export const purchaseOrders: ResourceDef = {
  object: 'purchase-orders',
  database: 'company',
  sources: [{ table: 'POP10100' }, { table: 'POP30100' }],
  fields: {
    id: { column: 'PONUMBER', codec: 'string' },
    status: { column: 'POSTATUS', codec: { enum: PURCHASE_ORDER_STATUSES } },
    type: { column: 'POTYPE', codec: { enum: PURCHASE_ORDER_TYPES } },
    vendorId: { column: 'VENDORID', codec: 'string' },
    vendorName: { column: 'VENDNAME', codec: 'string' },
    date: { column: 'DOCDATE', codec: 'date' },
    promisedDate: { column: 'PRMDATE', codec: 'date' },
    subtotal: { column: 'SUBTOTAL', codec: 'money' },
    taxAmount: { column: 'TAXAMNT', codec: 'money' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
  },
  filters: {
    id: { kind: 'in', column: 'PONUMBER' },
    status: { kind: 'eq', column: 'POSTATUS', enum: PURCHASE_ORDER_STATUSES },
    type: { kind: 'eq', column: 'POTYPE', enum: PURCHASE_ORDER_TYPES },
    vendorId: { kind: 'eq', column: 'VENDORID' },
    currencyId: { kind: 'eq', column: 'CURNCYID' },
    ...dateRange('DOCDATE'),
  },
  keys: {
    default: { name: 'order', indexes: { POP10100: 'PKPOP10100', POP30100: 'PKPOP30100' } },
    byFilter: [
      { name: 'vendor', filters: ['vendorId'], indexes: { POP10100: 'AK2POP10100', POP30100: 'AK2POP30100' } },
      { name: 'date', filters: ['dateFrom', 'dateTo'], indexes: { POP10100: 'AK3POP10100', POP30100: 'AK3POP30100' } },
    ],
  },
  idParts: [{ column: 'PONUMBER' }],
};

/** ORD is GP's line key (eConnect numbers lines 16384, 32768, …); it is the API's lineNumber. */
export const purchaseOrderLines: ResourceDef = {
  object: 'purchase-order-lines',
  database: 'company',
  sources: [{ table: 'POP10110' }, { table: 'POP30110' }],
  fields: {
    lineNumber: { column: 'ORD', codec: 'int' },
    itemId: { column: 'ITEMNMBR', codec: 'string' },
    description: { column: 'ITEMDESC', codec: 'string' },
    qtyOrdered: { column: 'QTYORDER', codec: 'quantity' },
    qtyCanceled: { column: 'QTYCANCE', codec: 'quantity' },
    unitCost: { column: 'UNITCOST', codec: 'money' },
    extendedCost: { column: 'EXTDCOST', codec: 'money' },
    siteId: { column: 'LOCNCODE', codec: 'string' },
  },
  filters: { documentId: { kind: 'document', parts: [{ column: 'PONUMBER' }], splitAt: null } },
  // The document pins PONUMBER: lines in ORD order.
  keys: { default: { name: 'line', indexes: { POP10110: 'PKPOP10110', POP30110: 'PKPOP30110' } } },
};
