import { Decimal } from 'decimal.js';
import { z } from 'zod';
import {
  AP_DISTRIBUTION_TYPES,
  AP_DOCUMENT_TYPES,
  AR_DISTRIBUTION_TYPES,
  AR_DOCUMENT_TYPES,
  SALES_DOCUMENT_TYPES,
  TEN99_TYPES,
  VENDOR_STATUSES,
  type CodeNames,
} from './enums.ts';
import type {
  ApDocumentSchema,
  ArDocumentSchema,
  CustomerAddressSchema,
  CustomerSchema,
  DistributionSchema,
  GlEntrySchema,
  SalesOrderLineSchema,
  SalesOrderSchema,
  VendorAddressSchema,
  VendorSchema,
} from './resources.ts';

/**
 * Write bodies of `POST /v1/{object}` (docs/api.md#writes, docs/decisions.md#writes): for each
 * writable object, which of its resource's fields a caller may set, with eConnect's limits. The
 * body schemas (writeBody.ts: REST, MCP `create_record`, the agent's own re-validation) are all built from this
 * one table, and the field names are the resource's own (the types below refuse any other), so a
 * record reads back with the names it was written with.
 *
 * Lengths are eConnect's parameter lengths, one less than the column's char(n) where n is even
 * (gp-schema.md §0); the agent's tests hold them against GP's column widths.
 */

/** How one body field is written. Ids are upper-cased as eConnect does; text is kept as given. */
export type WriteField =
  | { kind: 'id'; maxLength: number; required?: true; description: string }
  | { kind: 'text'; maxLength: number; required?: true; description: string }
  | { kind: 'decimal'; required?: true; min?: 'positive' | 'zero'; description: string }
  | { kind: 'date'; required?: true; description: string }
  | { kind: 'flag'; description: string }
  | { kind: 'enum'; codes: CodeNames; allowed: readonly string[]; default?: string; description: string };

type FieldsOf<S extends z.ZodObject> = Partial<Record<keyof z.infer<S>, WriteField>>;

export interface WriteSpec {
  /** The resource fields a caller may set. */
  readonly fields: Readonly<Record<string, WriteField>>;
  /** Body fields that are not resource fields: a document's batch where the resource has none. */
  readonly extraFields?: Readonly<Record<string, WriteField>>;
  /**
   * A document's lines (sales orders, journal entries; a receivables or payables document's
   * distributions): their fields, how many a body may carry, and whether a body may leave them out.
   */
  readonly lines?: {
    readonly fields: Readonly<Record<string, WriteField>>;
    readonly min: number;
    readonly max: number;
    readonly optional?: true;
  };
  /** The eConnect procedures the agent calls, lines first (gp-schema.md §16). */
  readonly procedures: readonly string[];
}

/**
 * The largest amount, quantity, extension or total a body may carry, either sign: GP's numeric(19,5)
 * (14 digits before the point, 5 after) as every writer stores it. The embedded database keeps
 * numeric(19,5) as a 64-bit count of 1/100000 units (gp-schema's sqliteSchema.ts), which ends at
 * 92233720368547.75807, below SQL Server's 99999999999999.99999; one limit for all writers, so the
 * sandbox, the embedded agent and SQL Server answer a body alike (docs/decisions.md#writes).
 */
export const MAX_WRITE_AMOUNT = '92233720368547.75807';
const MAX_AMOUNT = new Decimal(MAX_WRITE_AMOUNT);

/** Whether a value (an amount, or an extension or total of them) fits the writers' numeric(19,5). */
export function fitsNumeric(value: Decimal): boolean {
  return value.abs().lessThanOrEqualTo(MAX_AMOUNT);
}

/**
 * A refinement that answers false rather than throw: whatever goes wrong inside validation is an
 * issue of the field it checks (a 400 naming it), never an exception out of the schema (a 500).
 */
export function safely(predicate: (value: string) => boolean): (value: string) => boolean {
  return (value) => {
    try {
      return predicate(value);
    } catch {
      return false;
    }
  };
}

/**
 * A decimal string with at most 14 digits before the point and 5 after it, within MAX_WRITE_AMOUNT.
 * Each check stops the field's checks when it fails, so the next never sees what the last refused.
 */
export const WriteDecimalSchema = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, { message: 'a decimal string such as "1250.00"', abort: true })
  .regex(/^-?\d{1,14}(\.\d{1,5})?$/, { message: 'at most 14 digits before the point and 5 after it (numeric(19,5))', abort: true })
  .refine(
    safely((v) => fitsNumeric(new Decimal(v))),
    { message: `at most ${MAX_WRITE_AMOUNT} (numeric(19,5) as GP's databases store it)`, abort: true },
  );

const id = (maxLength: number, description: string, required?: true): WriteField => ({
  kind: 'id',
  maxLength,
  description,
  ...(required && { required }),
});
const text = (maxLength: number, description: string, required?: true): WriteField => ({
  kind: 'text',
  maxLength,
  description,
  ...(required && { required }),
});
const amount = (description: string, required?: true): WriteField => ({
  kind: 'decimal',
  min: 'zero',
  description,
  ...(required && { required }),
});
const date = (description: string, required?: true): WriteField => ({ kind: 'date', description, ...(required && { required }) });
const flag = (description: string): WriteField => ({ kind: 'flag', description });

const addressFields = {
  contactPerson: text(60, 'contact person (CNTCPRSN)'),
  line1: text(60, 'address line 1 (ADDRESS1)'),
  line2: text(60, 'address line 2 (ADDRESS2)'),
  line3: text(60, 'address line 3 (ADDRESS3)'),
  city: text(35, 'city (CITY)'),
  state: text(29, 'state or province (STATE)'),
  postalCode: text(10, 'postal code (ZIP)'),
  country: text(60, 'country (COUNTRY)'),
  phone: text(21, 'phone, digits as GP stores them (PHONE1)'),
} as const;

const batchId = id(15, 'the unposted batch the document goes into (BACHNUMB); created when it does not exist', true);

const customers: FieldsOf<typeof CustomerSchema> = {
  id: id(15, 'customer number (CUSTNMBR); upper-cased', true),
  name: text(64, 'customer name (CUSTNAME)', true),
  statementName: text(64, 'statement name (STMTNAME)'),
  shortName: text(15, 'short name (SHRTNAME)'),
  classId: id(15, 'customer class (CUSTCLAS)'),
  contactPerson: text(60, 'contact person (CNTCPRSN)'),
  primaryAddressCode: id(15, 'primary address code (ADRSCODE)'),
  paymentTermsId: id(20, 'payment terms (PYMTRMID); must exist'),
  salespersonId: id(15, 'salesperson (SLPRSNID); must exist'),
  salesTerritoryId: id(15, 'sales territory (SALSTERR)'),
  currencyId: id(15, 'currency (CURNCYID); must exist'),
  creditLimit: amount('credit limit amount (CRLMTAMT); absent means no credit limit'),
  phone: text(21, 'phone (PHONE1)'),
  taxScheduleId: id(15, 'tax schedule (TAXSCHID)'),
  inactive: flag('inactive (INACTIVE)'),
  hold: flag('on hold (HOLD)'),
};

const customerAddresses: FieldsOf<typeof CustomerAddressSchema> = {
  customerId: id(15, 'the customer (CUSTNMBR); must exist', true),
  code: id(15, 'address code (ADRSCODE)', true),
  ...addressFields,
  shippingMethodId: id(15, 'shipping method (SHIPMTHD)'),
  taxScheduleId: id(15, 'tax schedule (TAXSCHID)'),
};

const vendors: FieldsOf<typeof VendorSchema> = {
  id: id(15, 'vendor id (VENDORID); upper-cased', true),
  name: text(64, 'vendor name (VENDNAME)', true),
  checkName: text(64, 'name on checks (VNDCHKNM)'),
  shortName: text(15, 'short name (VENDSHNM)'),
  classId: id(10, 'vendor class (VNDCLSID)'),
  primaryAddressCode: id(15, 'primary address code (VADDCDPR)'),
  paymentTermsId: id(20, 'payment terms (PYMTRMID); must exist'),
  currencyId: id(15, 'currency (CURNCYID); must exist'),
  taxId: text(11, 'tax id (TXIDNMBR)'),
  ten99Type: { kind: 'enum', codes: TEN99_TYPES, allowed: Object.values(TEN99_TYPES), description: '1099 type (TEN99TYPE)' },
  phone: text(21, 'phone (PHNUMBR1)'),
  status: {
    kind: 'enum',
    codes: VENDOR_STATUSES,
    allowed: Object.values(VENDOR_STATUSES),
    default: 'active',
    description: 'vendor status (VENDSTTS)',
  },
  hold: flag('on hold (HOLD)'),
};

const vendorAddresses: FieldsOf<typeof VendorAddressSchema> = {
  vendorId: id(15, 'the vendor (VENDORID); must exist', true),
  code: id(15, 'address code (ADRSCODE)', true),
  ...addressFields,
};

const salesOrders: FieldsOf<typeof SalesOrderSchema> = {
  type: {
    kind: 'enum',
    codes: SALES_DOCUMENT_TYPES,
    allowed: ['quote', 'order', 'invoice', 'return'],
    default: 'order',
    description: 'sales document type (SOPTYPE)',
  },
  number: id(21, 'document number (SOPNUMBE); absent takes the next number of the document type id, as GP does'),
  docTypeId: id(15, 'document type id (DOCID), set up in GP for the type', true),
  customerId: id(15, 'the customer (CUSTNMBR); must exist', true),
  date: date('document date (DOCDATE)', true),
  batchId,
  siteId: id(10, 'default site of the lines (LOCNCODE); must exist'),
  customerPONumber: text(20, "the customer's purchase order number (CSTPONBR)"),
  freightAmount: amount('freight amount (FREIGHT)'),
};

const salesOrderLines: FieldsOf<typeof SalesOrderLineSchema> = {
  itemId: id(30, 'item number (ITEMNMBR); must exist', true),
  description: text(100, 'line description (ITEMDESC); the item description when absent'),
  quantity: { kind: 'decimal', required: true, min: 'positive', description: 'quantity (QUANTITY)' },
  unitPrice: amount('unit price (UNITPRCE)', true),
  siteId: id(10, "site (LOCNCODE); the document's site when absent; must exist"),
  unitOfMeasure: id(8, "unit (UOFM) of the item's schedule; its selling unit when absent"),
  priceLevel: id(10, "price level (PRCLEVEL) pricing the item in the unit; the customer's when absent"),
};

const arInvoices: FieldsOf<typeof ArDocumentSchema> = {
  type: {
    kind: 'enum',
    codes: AR_DOCUMENT_TYPES,
    allowed: ['invoice', 'debitMemo', 'financeCharge', 'serviceRepair', 'warranty', 'creditMemo', 'return'],
    default: 'invoice',
    description: 'receivables document type (RMDTYPAL); payments are not written here',
  },
  documentNumber: id(20, 'document number (DOCNUMBR); absent takes the next number of the type, as GP does'),
  customerId: id(15, 'the customer (CUSTNMBR); must exist', true),
  date: date('document date (DOCDATE)', true),
  dueDate: date("due date (DUEDATE); from the customer's payment terms when absent"),
  salesAmount: amount('sales amount (SLSAMNT)', true),
  freightAmount: amount('freight amount (FRTAMNT)'),
  description: text(30, 'description (DOCDESCR)'),
  batchId,
  currencyId: id(15, "currency (CURNCYID); the customer's when absent; must exist"),
};

const apInvoices: FieldsOf<typeof ApDocumentSchema> = {
  type: {
    kind: 'enum',
    codes: AP_DOCUMENT_TYPES,
    allowed: ['invoice', 'financeCharge', 'miscCharge', 'return', 'creditMemo'],
    default: 'invoice',
    description: 'payables document type (DOCTYPE); payments are not written here',
  },
  voucherNumber: id(17, 'voucher number (VCHNUMWK); absent takes the next voucher number, as GP does'),
  vendorDocumentNumber: text(20, "the vendor's document number (DOCNUMBR)", true),
  vendorId: id(15, 'the vendor (VENDORID); must exist', true),
  date: date('document date (DOCDATE)', true),
  dueDate: date("due date (DUEDATE); from the vendor's payment terms when absent"),
  purchasesAmount: amount('purchases amount (PRCHAMNT)', true),
  ten99Amount: amount('1099 amount (TEN99AMNT); a 1099 vendor only, at most purchasesAmount; absent is 0'),
  description: text(30, 'description (TRXDSCRN)'),
  batchId,
  currencyId: id(15, "currency (CURNCYID); the vendor's when absent; must exist"),
};

const glEntries: FieldsOf<typeof GlEntrySchema> = {
  journalEntryNumber: undefined,
  reference: text(30, 'journal entry reference (REFRENCE)', true),
  date: date('transaction date (TRXDATE)', true),
  sourceDocument: id(11, 'source document code (SOURCDOC), e.g. GJ'),
};

const glEntryLines: FieldsOf<typeof GlEntrySchema> = {
  accountNumber: text(75, 'account number as GP shows it (ACTNUMST); must exist and be active', true),
  debit: amount('debit amount (DEBITAMT); zero or absent on a credit line'),
  credit: amount('credit amount (CRDTAMNT); zero or absent on a debit line'),
  lineDescription: text(30, 'line description (DSCRIPTN)'),
};

/**
 * A receivables or payables document's distribution lines (taRMDistribution, taPMDistribution):
 * absent, GP creates them from the posting accounts, as before (CREATEDIST 1); present, they are the
 * document's, and GP creates none (CREATEDIST 0). docs/decisions.md#distribution-lines.
 */
function distributionLines(types: CodeNames, allowed: readonly string[]): FieldsOf<typeof DistributionSchema> {
  return {
    type: { kind: 'enum', codes: types, allowed, description: 'distribution type (DISTTYPE)' },
    accountNumber: text(75, 'account number (ACTNUMST); must exist, be active and take postings', true),
    debit: amount('debit (DEBITAMT); absent or zero on a credit line'),
    credit: amount('credit (CRDTAMNT); absent or zero on a debit line'),
    reference: text(30, 'distribution reference (DistRef)'),
  };
}
/** GP's distribution types a payables line may have: "if ((@I_vDISTTYPE < 1) or (@I_vDISTTYPE > 15)) … 770" (taPMDistribution). */
const AP_LINE_TYPES = Object.entries(AP_DISTRIBUTION_TYPES)
  .filter(([code]) => Number(code) <= 15)
  .map(([, name]) => name);
const DISTRIBUTIONS_MAX = 100;

const defined = (fields: Record<string, WriteField | undefined>): Record<string, WriteField> =>
  Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, WriteField] => entry[1] !== undefined));

/** The v1 writable objects (docs/decisions.md#writes) and how each is written. */
export const WRITES = {
  customers: { fields: defined(customers), procedures: ['taUpdateCreateCustomerRcd'] },
  'customer-addresses': { fields: defined(customerAddresses), procedures: ['taCreateCustomerAddress'] },
  vendors: { fields: defined(vendors), procedures: ['taUpdateCreateVendorRcd'] },
  'vendor-addresses': { fields: defined(vendorAddresses), procedures: ['taCreateVendorAddress'] },
  'sales-orders': {
    fields: defined(salesOrders),
    lines: { fields: defined(salesOrderLines), min: 1, max: 500 },
    procedures: ['taGetSopNumber', 'taSopLineIvcInsert', 'taSopHdrIvcInsert'],
  },
  'ar-invoices': {
    fields: defined(arInvoices),
    lines: {
      fields: defined(distributionLines(AR_DISTRIBUTION_TYPES, Object.values(AR_DISTRIBUTION_TYPES))),
      min: 2,
      max: DISTRIBUTIONS_MAX,
      optional: true,
    },
    procedures: ['taGetPaymentNumber', 'taRMDistribution', 'taRMTransaction'],
  },
  'ap-invoices': {
    fields: defined(apInvoices),
    lines: { fields: defined(distributionLines(AP_DISTRIBUTION_TYPES, AP_LINE_TYPES)), min: 2, max: DISTRIBUTIONS_MAX, optional: true },
    procedures: ['taGetPMNextVoucherNumber', 'taPMDistribution', 'taPMTransactionInsert'],
  },
  'gl-entries': {
    fields: defined(glEntries),
    extraFields: { batchId },
    lines: { fields: defined(glEntryLines), min: 2, max: 500 },
    procedures: ['taGetNextJournalEntry', 'taGLTransactionLineInsert', 'taGLTransactionHeaderInsert'],
  },
} as const satisfies Record<string, WriteSpec>;

export type WritableObjectName = keyof typeof WRITES;
export const WRITABLE_OBJECT_NAMES = Object.keys(WRITES) as [WritableObjectName, ...WritableObjectName[]];
export const WritableObjectNameSchema = z.enum(WRITABLE_OBJECT_NAMES);

export function writeSpec(object: string): WriteSpec | null {
  return Object.hasOwn(WRITES, object) ? WRITES[object as WritableObjectName] : null;
}
