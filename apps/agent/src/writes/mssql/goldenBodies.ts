import { checkWriteBody, type WritableObjectName, type WriteBody } from '@gp-gateway/protocol';

/**
 * One body per writable object, with every optional field the object has: what the golden T-SQL
 * (econnect.golden.test.ts) and the T-SQL parse check (sql/tsqlParse.test.ts) render.
 */
const BODIES: Record<WritableObjectName, Record<string, unknown>> = {
  customers: {
    id: 'apitest0001',
    name: "O'Brien & Sons",
    shortName: 'OBRIEN',
    classId: 'USA-ILMO-T1',
    paymentTermsId: 'Net 30',
    salespersonId: 'GREG E.',
    currencyId: 'Z-US$',
    creditLimit: '2500.00',
    phone: '31255501230000',
    inactive: false,
    hold: true,
  },
  'customer-addresses': {
    customerId: 'AARONFIT0001',
    code: 'SHIP2',
    line1: '1 Test Way',
    city: 'Chicago',
    state: 'IL',
    postalCode: '60601',
    phone: '3125550100',
  },
  vendors: { id: 'apivend', name: 'API Vendor', paymentTermsId: 'Net 30', ten99Type: 'miscellaneous', taxId: '12-3456789' },
  'vendor-addresses': {
    vendorId: 'ACETRAVE0001',
    code: 'REMIT',
    contactPerson: 'Pat',
    line1: 'PO Box 1',
    city: 'Fargo',
    postalCode: '58102',
  },
  'sales-orders': {
    docTypeId: 'STDORD',
    customerId: 'AARONFIT0001',
    date: '2026-11-20',
    batchId: 'API-ORDERS',
    siteId: 'WAREHOUSE',
    customerPONumber: 'PO-77',
    freightAmount: '12.50',
    lines: [
      { itemId: 'ACCS-10011-BK', quantity: '2', unitPrice: '19.99' },
      {
        itemId: 'ACCS-10012',
        quantity: '1.5',
        unitPrice: '100',
        description: 'Special',
        siteId: 'NORTH',
        unitOfMeasure: 'case',
        priceLevel: 'retail',
      },
    ],
  },
  'ar-invoices': {
    customerId: 'AARONFIT0001',
    date: '2026-11-21',
    salesAmount: '1000.00',
    freightAmount: '80',
    batchId: 'API-RM',
    description: 'Consulting',
    lines: [
      { type: 'receivables', accountNumber: '000-1200-00', debit: '1080', reference: 'due' },
      { type: 'sales', accountNumber: '000-4100-00', credit: '1000' },
      { type: 'freight', accountNumber: '000-4500-00', credit: '80' },
    ],
  },
  'ap-invoices': {
    vendorId: 'ACETRAVE0001',
    vendorDocumentNumber: 'V-INV-9',
    date: '2026-11-21',
    purchasesAmount: '500.5',
    ten99Amount: '400',
    batchId: 'API-PM',
    lines: [
      { type: 'purchases', accountNumber: '000-5100-00', debit: '500.5' },
      { type: 'payables', accountNumber: '000-2100-00', credit: '500.5', reference: 'owed' },
    ],
  },
  'gl-entries': {
    reference: 'API accrual',
    date: '2026-11-22',
    batchId: 'API-GL',
    sourceDocument: 'GJ',
    lines: [
      { accountNumber: '000-1100-00', debit: '100.00', lineDescription: 'one' },
      { accountNumber: '000-4100-00', credit: '100.00' },
    ],
  },
};

/** The golden body of `object`, as the protocol's checks answer it (defaults and upper-cased ids applied). */
export function goldenBody(object: WritableObjectName): WriteBody {
  const checked = checkWriteBody(object, BODIES[object]);
  if (!checked.ok) throw new Error(`the golden ${object} body is refused: ${JSON.stringify(checked)}`);
  return checked.body;
}
