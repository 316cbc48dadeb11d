/**
 * GP codes and the API strings they become (docs/api.md#enumerations). Shared: the agent decodes with them, filters
 * accept their values, and MCP describes them. A code not listed passes through as its number in
 * string form ("11"), so a real install with an unexpected code never fails a request.
 */
export const AR_DOCUMENT_TYPES = {
  1: 'invoice',
  3: 'debitMemo',
  4: 'financeCharge',
  5: 'serviceRepair',
  6: 'warranty',
  7: 'creditMemo',
  8: 'return',
  9: 'payment',
} as const;

export const AP_DOCUMENT_TYPES = {
  1: 'invoice',
  2: 'financeCharge',
  3: 'miscCharge',
  4: 'return',
  5: 'creditMemo',
  6: 'payment',
} as const;

/** Receivables distribution types (RM10101.DISTTYPE; eConnect's taRMDistribution). */
export const AR_DISTRIBUTION_TYPES = {
  1: 'cash',
  2: 'discountTaken',
  3: 'receivables',
  4: 'writeoff',
  5: 'discountAvailable',
  6: 'gst',
  7: 'withholding',
  8: 'other',
  9: 'sales',
  10: 'trade',
  11: 'freight',
  12: 'misc',
  13: 'taxes',
  14: 'costOfGoods',
  15: 'inventory',
  16: 'financeCharge',
  17: 'returns',
  18: 'debitMemo',
  19: 'creditMemo',
  20: 'service',
  21: 'warrantyExpense',
  22: 'warrantySales',
  23: 'commissionExpense',
  24: 'commissionPayable',
} as const;

/** Payables distribution types (PM10100.DISTTYPE; eConnect's taPMDistribution). */
export const AP_DISTRIBUTION_TYPES = {
  1: 'cash',
  2: 'payables',
  3: 'discountAvailable',
  4: 'discountTaken',
  5: 'financeCharge',
  6: 'purchases',
  7: 'trade',
  8: 'misc',
  9: 'freight',
  10: 'taxes',
  11: 'writeoff',
  12: 'other',
  13: 'gst',
  14: 'withholding',
  15: 'unit',
  16: 'round',
} as const;

export const SALES_DOCUMENT_TYPES = {
  1: 'quote',
  2: 'order',
  3: 'invoice',
  4: 'return',
  5: 'backOrder',
  6: 'fulfillmentOrder',
} as const;

export const PURCHASE_ORDER_STATUSES = {
  1: 'new',
  2: 'released',
  3: 'changeOrder',
  4: 'received',
  5: 'closed',
  6: 'canceled',
} as const;

export const PURCHASE_ORDER_TYPES = { 1: 'standard', 2: 'dropShip', 3: 'blanket', 4: 'blanketDropShip' } as const;
export const VENDOR_STATUSES = { 1: 'active', 2: 'inactive', 3: 'temporary' } as const;
export const TEN99_TYPES = { 1: 'none', 2: 'dividend', 3: 'interest', 4: 'miscellaneous', 5: 'nonemployeeCompensation' } as const;
export const ITEM_TYPES = { 1: 'salesInventory', 2: 'discontinued', 3: 'kit', 4: 'miscCharges', 5: 'services', 6: 'flatFee' } as const;
export const ITEM_TRACKING = { 1: 'none', 2: 'serialNumbers', 3: 'lotNumbers' } as const;
export const ACCOUNT_TYPES = { 1: 'posting', 2: 'unit', 3: 'postingAllocation', 4: 'unitAllocation' } as const;
export const POSTING_TYPES = { 0: 'balanceSheet', 1: 'profitAndLoss' } as const;

export type CodeNames = Readonly<Record<number, string>>;

/** The API strings of an enumeration, as a non-empty tuple for zod enums. */
export function namesOf(codes: CodeNames): [string, ...string[]] {
  return Object.values(codes) as [string, ...string[]];
}

/** API string → GP code; a number in string form stands for itself (an unlisted code). */
export function codeOf(codes: CodeNames, name: string): number | null {
  for (const [code, value] of Object.entries(codes)) if (value === name) return Number(code);
  return /^\d{1,5}$/.test(name) ? Number(name) : null;
}
