import { z } from 'zod';
import { NullableDate, NullableDecimal, NullableInt, NullableString, NullableTimestamp } from './values.ts';

/**
 * The resources of docs/api.md#objects, field for field. Every schema is strict: a response object has
 * all of its fields and no others. Enumerated fields (`type`, `status`, …) are plain strings because
 * an unknown GP code passes through as its number in string form (docs/api.md#enumerations).
 */

const Id = z.string().min(1);
const Flag = z.boolean();

export const CompanySchema = z.object({ id: Id, name: NullableString, number: NullableInt }).strict();

export const CustomerSchema = z
  .object({
    id: Id,
    name: NullableString,
    statementName: NullableString,
    shortName: NullableString,
    classId: NullableString,
    contactPerson: NullableString,
    primaryAddressCode: NullableString,
    paymentTermsId: NullableString,
    salespersonId: NullableString,
    salesTerritoryId: NullableString,
    currencyId: NullableString,
    creditLimit: NullableDecimal,
    phone: NullableString,
    taxScheduleId: NullableString,
    inactive: Flag,
    hold: Flag,
    createdAt: NullableDate,
    modifiedAt: NullableTimestamp,
  })
  .strict();

/** The address lines the API shows alike for a customer's address (RM00102) and a vendor's (PM00300). */
const addressFields = {
  code: NullableString,
  contactPerson: NullableString,
  line1: NullableString,
  line2: NullableString,
  line3: NullableString,
  city: NullableString,
  state: NullableString,
  postalCode: NullableString,
  country: NullableString,
  phone: NullableString,
};

export const CustomerAddressSchema = z
  .object({
    customerId: NullableString,
    ...addressFields,
    shippingMethodId: NullableString,
    taxScheduleId: NullableString,
  })
  .strict();

export const VendorSchema = z
  .object({
    id: Id,
    name: NullableString,
    checkName: NullableString,
    shortName: NullableString,
    classId: NullableString,
    primaryAddressCode: NullableString,
    paymentTermsId: NullableString,
    currencyId: NullableString,
    taxId: NullableString,
    ten99Type: NullableString,
    phone: NullableString,
    status: NullableString,
    createdAt: NullableDate,
    modifiedAt: NullableTimestamp,
    hold: Flag,
  })
  .strict();

export const VendorAddressSchema = z
  .object({
    vendorId: NullableString,
    ...addressFields,
  })
  .strict();

export const ItemSchema = z
  .object({
    id: Id,
    description: NullableString,
    shortName: NullableString,
    classId: NullableString,
    type: NullableString,
    tracking: NullableString,
    uomScheduleId: NullableString,
    standardCost: NullableDecimal,
    currentCost: NullableDecimal,
    genericDescription: NullableString,
    modifiedAt: NullableTimestamp,
    inactive: Flag,
  })
  .strict();

export const ItemQuantitySchema = z
  .object({
    itemId: NullableString,
    siteId: NullableString,
    qtyOnHand: NullableDecimal,
    qtyAllocated: NullableDecimal,
    qtyOnOrder: NullableDecimal,
    qtyBackordered: NullableDecimal,
    qtyAvailable: NullableDecimal,
  })
  .strict();

export const AccountSchema = z
  .object({
    id: Id,
    index: NullableInt,
    description: NullableString,
    type: NullableString,
    postingType: NullableString,
    active: Flag,
    categoryId: NullableInt,
    createdAt: NullableDate,
    modifiedAt: NullableTimestamp,
  })
  .strict();

export const GlEntrySchema = z
  .object({
    journalEntryNumber: NullableInt,
    series: NullableInt,
    sourceDocument: NullableString,
    reference: NullableString,
    lineDescription: NullableString,
    date: NullableDate,
    accountNumber: NullableString,
    debit: NullableDecimal,
    credit: NullableDecimal,
    originatingSource: NullableString,
    originatingMasterId: NullableString,
    originatingDocument: NullableString,
  })
  .strict();

/** A receivables or payables document's distribution line (RM10101, PM10100): the GL account it posts to. */
export const DistributionSchema = z
  .object({
    type: NullableString,
    accountNumber: NullableString,
    debit: NullableDecimal,
    credit: NullableDecimal,
    reference: NullableString,
  })
  .strict();

export const ArDocumentSchema = z
  .object({
    type: NullableString,
    documentNumber: NullableString,
    customerId: NullableString,
    date: NullableDate,
    dueDate: NullableDate,
    originalAmount: NullableDecimal,
    remainingAmount: NullableDecimal,
    salesAmount: NullableDecimal,
    taxAmount: NullableDecimal,
    freightAmount: NullableDecimal,
    description: NullableString,
    batchId: NullableString,
    currencyId: NullableString,
    checkNumber: NullableString,
    voided: Flag,
  })
  .strict();

export const ApDocumentSchema = z
  .object({
    type: NullableString,
    voucherNumber: NullableString,
    vendorDocumentNumber: NullableString,
    vendorId: NullableString,
    date: NullableDate,
    dueDate: NullableDate,
    originalAmount: NullableDecimal,
    remainingAmount: NullableDecimal,
    purchasesAmount: NullableDecimal,
    taxAmount: NullableDecimal,
    ten99Amount: NullableDecimal,
    description: NullableString,
    batchId: NullableString,
    currencyId: NullableString,
    voided: Flag,
  })
  .strict();

export const SalesOrderSchema = z
  .object({
    type: NullableString,
    number: NullableString,
    docTypeId: NullableString,
    customerId: NullableString,
    customerName: NullableString,
    date: NullableDate,
    subtotal: NullableDecimal,
    taxAmount: NullableDecimal,
    freightAmount: NullableDecimal,
    total: NullableDecimal,
    batchId: NullableString,
    siteId: NullableString,
    customerPONumber: NullableString,
    voided: Flag,
  })
  .strict();

export const SalesOrderLineSchema = z
  .object({
    lineNumber: NullableInt,
    itemId: NullableString,
    description: NullableString,
    quantity: NullableDecimal,
    unitPrice: NullableDecimal,
    extendedPrice: NullableDecimal,
    siteId: NullableString,
    qtyFulfilled: NullableDecimal,
    unitOfMeasure: NullableString,
    priceLevel: NullableString,
  })
  .strict();

export const PurchaseOrderSchema = z
  .object({
    id: Id,
    status: NullableString,
    type: NullableString,
    vendorId: NullableString,
    vendorName: NullableString,
    date: NullableDate,
    promisedDate: NullableDate,
    subtotal: NullableDecimal,
    taxAmount: NullableDecimal,
    currencyId: NullableString,
  })
  .strict();

export const PurchaseOrderLineSchema = z
  .object({
    lineNumber: NullableInt,
    itemId: NullableString,
    description: NullableString,
    qtyOrdered: NullableDecimal,
    qtyCanceled: NullableDecimal,
    unitCost: NullableDecimal,
    extendedCost: NullableDecimal,
    siteId: NullableString,
  })
  .strict();

export const SiteSchema = z
  .object({
    id: Id,
    name: NullableString,
    line1: NullableString,
    line2: NullableString,
    city: NullableString,
    state: NullableString,
    postalCode: NullableString,
    country: NullableString,
  })
  .strict();

export const CheckbookSchema = z
  .object({
    id: Id,
    name: NullableString,
    cashAccountNumber: NullableString,
    currencyId: NullableString,
    currentBalance: NullableDecimal,
    inactive: Flag,
  })
  .strict();

export const PaymentTermSchema = z
  .object({ id: Id, dueType: NullableInt, dueDays: NullableInt, discountPercent: NullableDecimal })
  .strict();

export const SalespersonSchema = z
  .object({
    id: Id,
    firstName: NullableString,
    lastName: NullableString,
    employeeId: NullableString,
    inactive: Flag,
  })
  .strict();

export const FiscalPeriodSchema = z
  .object({
    year: NullableInt,
    period: NullableInt,
    startDate: NullableDate,
    endDate: NullableDate,
    series: NullableInt,
    closed: Flag,
  })
  .strict();

export const BatchSchema = z
  .object({
    id: Id,
    source: NullableString,
    series: NullableInt,
    transactionCount: NullableInt,
    total: NullableDecimal,
    markedToPost: Flag,
    postingDate: NullableDate,
  })
  .strict();

export type Company = z.infer<typeof CompanySchema>;
export type Customer = z.infer<typeof CustomerSchema>;
export type CustomerAddress = z.infer<typeof CustomerAddressSchema>;
export type GlEntry = z.infer<typeof GlEntrySchema>;
