import { z } from 'zod';
import type { FilterSpecs } from './filters.ts';
import {
  AccountSchema,
  ApDocumentSchema,
  ArDocumentSchema,
  BatchSchema,
  CheckbookSchema,
  CompanySchema,
  CustomerAddressSchema,
  CustomerSchema,
  DistributionSchema,
  FiscalPeriodSchema,
  GlEntrySchema,
  ItemQuantitySchema,
  ItemSchema,
  PaymentTermSchema,
  PurchaseOrderLineSchema,
  PurchaseOrderSchema,
  SalesOrderLineSchema,
  SalesOrderSchema,
  SalespersonSchema,
  SiteSchema,
  VendorAddressSchema,
  VendorSchema,
} from './resources.ts';
import {
  ACCOUNT_TYPES,
  AP_DOCUMENT_TYPES,
  AR_DOCUMENT_TYPES,
  ITEM_TRACKING,
  ITEM_TYPES,
  namesOf,
  POSTING_TYPES,
  PURCHASE_ORDER_STATUSES,
  PURCHASE_ORDER_TYPES,
  SALES_DOCUMENT_TYPES,
  TEN99_TYPES,
  VENDOR_STATUSES,
  type CodeNames,
} from './enums.ts';

/**
 * The API-level catalogue: which objects exist, their resource schema, their filters and the form of
 * their id. Gateway routes, agent validation and MCP tools all read this one table.
 */
export interface ObjectSpec {
  /** Path segment under /v1, e.g. `customer-addresses`. */
  readonly name: string;
  readonly description: string;
  readonly resource: z.ZodObject;
  readonly filters: FilterSpecs;
  /**
   * How get-by-id ids look: `plain` is the `id` field; `composite` joins parts with `:` (docs/api.md#composite-ids);
   * null means the object has no get-by-id.
   */
  readonly idForm: { kind: 'plain' } | { kind: 'composite'; parts: readonly [string, string]; splitAt: 'first' | 'last' } | null;
  /** Objects read from a company database honour X-Company; `companies` reads the system database. */
  readonly companyScoped: boolean;
  /** Lines of one document are listed under their parent: GET /v1/{parent}/{id}/lines. */
  readonly parent?: string;
}

const ids = { kind: 'ids', description: 'fetch specific ids (repeat the parameter, at most 50)' } as const;
const exact = (description: string, maxLength = 31) => ({ kind: 'string', maxLength, description }) as const;
const search = (what: string) => ({ kind: 'search', description: `case-insensitive substring of the ${what}` }) as const;
const flag = (description: string) => ({ kind: 'boolean', description }) as const;
const enumOf = (codes: CodeNames, description: string) => ({ kind: 'enum', values: namesOf(codes), description }) as const;
const updatedSince = { kind: 'timestamp', description: 'rows whose modifiedAt is at or after this instant' } as const;
const dateFrom = { kind: 'date', description: 'document date on or after (inclusive)' } as const;
const dateTo = { kind: 'date', description: 'document date on or before (inclusive)' } as const;
const dueBefore = { kind: 'date', description: 'due date before (exclusive)' } as const;
const required = (description: string) => ({ kind: 'string', maxLength: 31, required: true, description }) as const;
const documentIdFromPath = {
  kind: 'string',
  maxLength: 64,
  required: true,
  fromPath: true,
  description: 'the document whose lines to list',
} as const;
const salesDocumentId = { kind: 'composite', parts: ['type', 'number'], splitAt: 'first' } as const;

/**
 * A posted document list's status: which of its tables to read. Invoices can also be read unposted,
 * from the work table eConnect writes them into.
 */
const statusOf = (tables: { work: string; open: string; history: string }, work: boolean) =>
  work
    ? ({
        kind: 'enum',
        values: ['work', 'open', 'history'],
        description: `work (${tables.work}, unposted), open (${tables.open}) or history (${tables.history}); open and history when absent`,
      } as const)
    : ({
        kind: 'enum',
        values: ['open', 'history'],
        description: `open (${tables.open}) or history (${tables.history}); both when absent`,
      } as const);

/** The filters receivables and payables documents both answer to, after status and the party. */
const documentFilters = (types: CodeNames) =>
  ({
    type: enumOf(types, 'document type'),
    batchId: exact('batch id'),
    currencyId: exact('currency id'),
    dateFrom,
    dateTo,
    dueBefore,
  }) as const;

const arFilters = (types: CodeNames, work: boolean) =>
  ({
    status: statusOf({ work: 'RM10301', open: 'RM20101', history: 'RM30101' }, work),
    customerId: exact('customer id'),
    ...documentFilters(types),
  }) as const;

const apFilters = (types: CodeNames, work: boolean) =>
  ({
    status: statusOf({ work: 'PM10000', open: 'PM20000', history: 'PM30200' }, work),
    vendorId: exact('vendor id'),
    ...documentFilters(types),
  }) as const;

const { 9: _payment, ...AR_INVOICE_TYPES } = AR_DOCUMENT_TYPES;
const { 6: _apPayment, ...AP_INVOICE_TYPES } = AP_DOCUMENT_TYPES;

export const OBJECTS = {
  companies: {
    name: 'companies',
    description: 'Company databases of the connection (DYNAMICS..SY01500)',
    resource: CompanySchema,
    filters: { id: ids },
    idForm: { kind: 'plain' },
    companyScoped: false,
  },
  customers: {
    name: 'customers',
    description: 'Customers (RM00101)',
    resource: CustomerSchema,
    filters: {
      q: search('name'),
      id: ids,
      classId: exact('customer class id'),
      inactive: flag('inactive customers only (true) or active only (false)'),
      hold: flag('customers on hold (true) or not (false)'),
      paymentTermsId: exact('payment terms id'),
      salespersonId: exact('salesperson id'),
      salesTerritoryId: exact('sales territory id'),
      currencyId: exact('currency id'),
      taxScheduleId: exact('tax schedule id'),
      updatedSince,
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'customer-addresses': {
    name: 'customer-addresses',
    description: 'Addresses of one customer (RM00102); id is <customerId>:<code>',
    resource: CustomerAddressSchema,
    filters: {
      customerId: required('the customer whose addresses to list'),
      shippingMethodId: exact('shipping method id'),
      taxScheduleId: exact('tax schedule id'),
    },
    idForm: { kind: 'composite', parts: ['customerId', 'code'], splitAt: 'last' },
    companyScoped: true,
  },
  vendors: {
    name: 'vendors',
    description: 'Vendors (PM00200)',
    resource: VendorSchema,
    filters: {
      q: search('name'),
      id: ids,
      classId: exact('vendor class id'),
      status: enumOf(VENDOR_STATUSES, 'vendor status'),
      ten99Type: enumOf(TEN99_TYPES, '1099 type'),
      hold: flag('vendors on hold (true) or not (false)'),
      paymentTermsId: exact('payment terms id'),
      currencyId: exact('currency id'),
      updatedSince,
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'vendor-addresses': {
    name: 'vendor-addresses',
    description: 'Addresses of one vendor (PM00300); id is <vendorId>:<code>',
    resource: VendorAddressSchema,
    filters: { vendorId: required('the vendor whose addresses to list') },
    idForm: { kind: 'composite', parts: ['vendorId', 'code'], splitAt: 'last' },
    companyScoped: true,
  },
  items: {
    name: 'items',
    description: 'Inventory items (IV00101)',
    resource: ItemSchema,
    filters: {
      q: search('description'),
      id: ids,
      classId: exact('item class id'),
      type: enumOf(ITEM_TYPES, 'item type'),
      tracking: enumOf(ITEM_TRACKING, 'serial or lot tracking'),
      uomScheduleId: exact('unit of measure schedule id'),
      inactive: flag('inactive items only (true) or active only (false)'),
      updatedSince,
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'item-quantities': {
    name: 'item-quantities',
    description: 'Quantities of items per site (IV00102 site rows); id is <itemId>:<siteId>',
    resource: ItemQuantitySchema,
    filters: { itemId: exact('item id'), siteId: exact('site id') },
    idForm: { kind: 'composite', parts: ['itemId', 'siteId'], splitAt: 'last' },
    companyScoped: true,
  },
  accounts: {
    name: 'accounts',
    description: 'General ledger accounts (GL00100 with the formatted number from GL00105)',
    resource: AccountSchema,
    filters: {
      q: search('description'),
      id: ids,
      active: flag('active accounts only (true) or inactive only (false)'),
      type: enumOf(ACCOUNT_TYPES, 'account type'),
      postingType: enumOf(POSTING_TYPES, 'balance sheet or profit and loss'),
      categoryId: { kind: 'integer', description: 'account category number' },
      updatedSince,
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'gl-entries': {
    name: 'gl-entries',
    description: 'General ledger lines of open (GL20000) and history (GL30000) years, and unposted ones (GL10001) with year=unposted',
    resource: GlEntrySchema,
    filters: {
      year: {
        kind: 'enum',
        values: ['unposted', 'open', 'history'],
        description: 'unposted entries (GL10000/GL10001), open years only, or history years only; open and history when absent',
        refuses: {
          value: 'unposted',
          filters: ['series', 'dateFrom', 'dateTo'],
          reason:
            "they are the entry header's, and no GP index reads unposted lines in order with them; filter by journalEntryNumber instead",
        },
      },
      accountNumber: exact('account number as formatted in GP, e.g. 000-1100-00', 129),
      journalEntryNumber: { kind: 'integer', description: 'journal entry number' },
      series: { kind: 'integer', description: 'GP series number (2 Financial, 3 Sales, 4 Purchasing, …)' },
      originatingMasterId: exact('customer or vendor id the entry came from'),
      dateFrom: { kind: 'date', description: 'transaction date on or after (inclusive)' },
      dateTo: { kind: 'date', description: 'transaction date on or before (inclusive)' },
    },
    idForm: null,
    companyScoped: true,
  },
  'ar-invoices': {
    name: 'ar-invoices',
    description: 'Receivables documents other than payments (RM10301 work, RM20101 open, RM30101 history); id is <type>:<documentNumber>',
    resource: ArDocumentSchema,
    filters: arFilters(AR_INVOICE_TYPES, true),
    idForm: { kind: 'composite', parts: ['type', 'documentNumber'], splitAt: 'first' },
    companyScoped: true,
  },
  'ar-payments': {
    name: 'ar-payments',
    description: 'Receivables payments (RMDTYPAL 9); id is payment:<documentNumber>',
    resource: ArDocumentSchema,
    filters: arFilters({ 9: 'payment' }, false),
    idForm: { kind: 'composite', parts: ['type', 'documentNumber'], splitAt: 'first' },
    companyScoped: true,
  },
  'ap-invoices': {
    name: 'ap-invoices',
    description: 'Payables documents other than payments (PM10000 work, PM20000 open, PM30200 history); id is <type>:<voucherNumber>',
    resource: ApDocumentSchema,
    filters: apFilters(AP_INVOICE_TYPES, true),
    idForm: { kind: 'composite', parts: ['type', 'voucherNumber'], splitAt: 'first' },
    companyScoped: true,
  },
  'ap-payments': {
    name: 'ap-payments',
    description: 'Payables payments (DOCTYPE 6); id is payment:<voucherNumber>',
    resource: ApDocumentSchema,
    filters: apFilters({ 6: 'payment' }, false),
    idForm: { kind: 'composite', parts: ['type', 'voucherNumber'], splitAt: 'first' },
    companyScoped: true,
  },
  'ar-invoice-distributions': {
    name: 'ar-invoice-distributions',
    description: 'Distribution lines of one unposted or open receivables document (RM10101); GET /v1/ar-invoices/{id}/lines',
    resource: DistributionSchema,
    filters: { documentId: documentIdFromPath },
    idForm: null,
    companyScoped: true,
    parent: 'ar-invoices',
  },
  'ap-invoice-distributions': {
    name: 'ap-invoice-distributions',
    description: 'Distribution lines of one unposted payables document (PM10100); GET /v1/ap-invoices/{id}/lines',
    resource: DistributionSchema,
    filters: { documentId: documentIdFromPath },
    idForm: null,
    companyScoped: true,
    parent: 'ap-invoices',
  },
  'sales-orders': {
    name: 'sales-orders',
    description: 'Sales documents (SOP10100 work, SOP30200 history); id is <type>:<number>',
    resource: SalesOrderSchema,
    filters: {
      status: { kind: 'enum', values: ['work', 'history'], description: 'work (SOP10100) or history (SOP30200); both when absent' },
      customerId: exact('customer id'),
      type: enumOf(SALES_DOCUMENT_TYPES, 'document type'),
      docTypeId: exact('document type id, e.g. STDINV'),
      batchId: exact('batch id'),
      siteId: exact('site id'),
      dateFrom,
      dateTo,
    },
    idForm: salesDocumentId,
    companyScoped: true,
  },
  'sales-order-lines': {
    name: 'sales-order-lines',
    description: 'Top-level lines of one sales document (SOP10200/SOP30300, kit components left out); GET /v1/sales-orders/{id}/lines',
    resource: SalesOrderLineSchema,
    filters: { documentId: documentIdFromPath },
    idForm: null,
    companyScoped: true,
    parent: 'sales-orders',
  },
  'purchase-orders': {
    name: 'purchase-orders',
    description: 'Purchase orders (POP10100 open and POP30100 history together)',
    resource: PurchaseOrderSchema,
    filters: {
      id: ids,
      status: enumOf(PURCHASE_ORDER_STATUSES, 'purchase order status'),
      type: enumOf(PURCHASE_ORDER_TYPES, 'purchase order type'),
      vendorId: exact('vendor id'),
      currencyId: exact('currency id'),
      dateFrom,
      dateTo,
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'purchase-order-lines': {
    name: 'purchase-order-lines',
    description: 'Lines of one purchase order (POP10110/POP30110); GET /v1/purchase-orders/{id}/lines',
    resource: PurchaseOrderLineSchema,
    filters: { documentId: documentIdFromPath },
    idForm: null,
    companyScoped: true,
    parent: 'purchase-orders',
  },
  sites: {
    name: 'sites',
    description: 'Inventory sites (IV40700)',
    resource: SiteSchema,
    filters: { q: search('name'), id: ids, inactive: flag('inactive sites only (true) or active only (false)') },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  checkbooks: {
    name: 'checkbooks',
    description: 'Checkbooks (CM00100)',
    resource: CheckbookSchema,
    filters: {
      q: search('name'),
      id: ids,
      inactive: flag('inactive checkbooks only (true) or active only (false)'),
      currencyId: exact('currency id'),
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'payment-terms': {
    name: 'payment-terms',
    description: 'Payment terms (SY03300)',
    resource: PaymentTermSchema,
    filters: { q: search('id'), id: ids },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  salespeople: {
    name: 'salespeople',
    description: 'Salespeople (RM00301)',
    resource: SalespersonSchema,
    filters: {
      q: search('last or first name'),
      id: ids,
      inactive: flag('inactive salespeople only (true) or active only (false)'),
      employeeId: exact('employee id'),
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'fiscal-periods': {
    name: 'fiscal-periods',
    description: 'Fiscal periods per year (SY40100/SY40101); closed means closed for the Financial series',
    resource: FiscalPeriodSchema,
    filters: { year: { kind: 'integer', description: 'fiscal year' } },
    idForm: null,
    companyScoped: true,
  },
  batches: {
    name: 'batches',
    description: 'Posting batches (SY00500)',
    resource: BatchSchema,
    filters: {
      id: ids,
      source: exact('batch source, e.g. RM_Sales'),
      series: { kind: 'integer', description: 'GP series number' },
      markedToPost: flag('batches marked to post (true) or not (false)'),
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
} as const satisfies Record<string, ObjectSpec>;

export type ObjectName = keyof typeof OBJECTS;
export const OBJECT_NAMES = Object.keys(OBJECTS) as [ObjectName, ...ObjectName[]];
export const ObjectNameSchema = z.enum(OBJECT_NAMES);

export function objectSpec(name: string): ObjectSpec | undefined {
  return Object.hasOwn(OBJECTS, name) ? OBJECTS[name as ObjectName] : undefined;
}
