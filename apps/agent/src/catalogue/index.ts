import type { ObjectName } from '@gp-gateway/protocol';
import type { ResourceDef } from './types.ts';
import { accounts } from './resources/accounts.ts';
import { companies } from './resources/companies.ts';
import { customerAddresses } from './resources/customerAddresses.ts';
import { customers } from './resources/customers.ts';
import { glEntries } from './resources/glEntries.ts';
import { itemQuantities } from './resources/itemQuantities.ts';
import { items } from './resources/items.ts';
import { apInvoices, apPayments } from './resources/payables.ts';
import { purchaseOrderLines, purchaseOrders } from './resources/purchaseOrders.ts';
import { arInvoices, arPayments } from './resources/receivables.ts';
import { apInvoiceDistributions, arInvoiceDistributions } from './resources/distributions.ts';
import { salesOrderLines, salesOrders } from './resources/salesOrders.ts';
import { batches, checkbooks, fiscalPeriods, paymentTerms, salespeople, sites } from './resources/setup.ts';
import { vendorAddresses } from './resources/vendorAddresses.ts';
import { vendors } from './resources/vendors.ts';

/** Every object the agent can read, keyed by its API name. The agent runs nothing else. */
export const CATALOGUE: Readonly<Record<ObjectName, ResourceDef>> = {
  companies,
  customers,
  'customer-addresses': customerAddresses,
  vendors,
  'vendor-addresses': vendorAddresses,
  items,
  'item-quantities': itemQuantities,
  accounts,
  'gl-entries': glEntries,
  'ar-invoices': arInvoices,
  'ar-payments': arPayments,
  'ap-invoices': apInvoices,
  'ap-payments': apPayments,
  'sales-orders': salesOrders,
  'sales-order-lines': salesOrderLines,
  'ar-invoice-distributions': arInvoiceDistributions,
  'ap-invoice-distributions': apInvoiceDistributions,
  'purchase-orders': purchaseOrders,
  'purchase-order-lines': purchaseOrderLines,
  sites,
  checkbooks,
  'payment-terms': paymentTerms,
  salespeople,
  'fiscal-periods': fiscalPeriods,
  batches,
};
