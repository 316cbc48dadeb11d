/**
 * Journal entry templates: each returns a balanced draft of 2-6 lines in the entry's originating
 * currency, in integer cents. Balance is by construction (the totalling line is the sum of the
 * others), never by float arithmetic.
 */
import type { Account, AccountRole, ChartOfAccounts } from './chartOfAccounts.ts';
import type { CustomerRef } from './customers.ts';
import type { Rng } from './prng.ts';
import { VENDORS } from './vocabulary.ts';

export interface DraftLine {
  account: Account;
  debitCents: bigint;
  creditCents: bigint;
  description: string;
}

export interface JournalEntryDraft {
  kind: JournalEntryKind;
  /** GP SERIES: 2 Financial, 3 Sales, 4 Purchasing, 5 Inventory. */
  series: 2 | 3 | 4 | 5;
  sourceDocument: string;
  reference: string;
  currencyId: string;
  master?: { id: string; name: string };
  /** Subledger document type (ORTRXTYP), 0 for GL entries. */
  documentType: number;
  lines: DraftLine[];
}

export type JournalEntryKind = 'SJ' | 'CRJ' | 'PJ' | 'CDJ' | 'GJ' | 'IVADJ';

/** Relative frequency of each kind of entry. */
export const KIND_WEIGHTS = [
  ['SJ', 27],
  ['CRJ', 25],
  ['PJ', 22],
  ['CDJ', 14],
  ['GJ', 10],
  ['IVADJ', 2],
] as const satisfies readonly (readonly [JournalEntryKind, number])[];

export interface DraftContext {
  rng: Rng;
  chart: ChartOfAccounts;
  /** Customers that may appear on sales entries. */
  customers: readonly CustomerRef[];
}

export const FUNCTIONAL_CURRENCY = 'Z-US$';

export function draftJournalEntry(kind: JournalEntryKind, context: DraftContext): JournalEntryDraft {
  switch (kind) {
    case 'SJ':
      return salesEntry(context);
    case 'CRJ':
      return cashReceipt(context);
    case 'PJ':
      return purchaseEntry(context);
    case 'CDJ':
      return cashDisbursement(context);
    case 'GJ':
      return generalEntry(context);
    case 'IVADJ':
      return inventoryAdjustment(context);
  }
}

const debit = (account: Account, cents: bigint, description = ''): DraftLine => ({
  account,
  debitCents: cents,
  creditCents: 0n,
  description,
});
const credit = (account: Account, cents: bigint, description = ''): DraftLine => ({
  account,
  debitCents: 0n,
  creditCents: cents,
  description,
});
const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

/** A positive amount in cents, spread log-uniformly between min and max dollars. */
function amount(rng: Rng, minDollars: number, maxDollars: number): bigint {
  const dollars = minDollars * (maxDollars / minDollars) ** rng.next();
  return BigInt(Math.max(1, Math.round(dollars * 100)));
}

/** Splits a total into `parts` positive integer parts (each at least 1 cent). */
function split(rng: Rng, total: bigint, parts: number): bigint[] {
  if (parts <= 1 || total < BigInt(parts)) return [total];
  const weights = Array.from({ length: parts }, () => BigInt(rng.int(1, 100)));
  const weightTotal = sum(weights);
  const shares = weights.map((w) => (total * w) / weightTotal);
  const result = shares.map((share) => (share < 1n ? 1n : share));
  const last = result.length - 1;
  result[last] = (result[last] ?? 0n) + total - sum(result);
  return result[last] !== undefined && result[last] > 0n ? result : [total];
}

function salesEntry({ rng, chart, customers }: DraftContext): JournalEntryDraft {
  const customer = rng.pick(customers);
  const salesLines = rng.int(1, 3);
  const lines: DraftLine[] = [];
  for (let i = 0; i < salesLines; i++) {
    const account = rng.chance(0.75) ? chart.one('productSales') : chart.one('serviceSales');
    lines.push(credit(account, amount(rng, 100, 60_000), rng.chance(0.5) ? customer.name.slice(0, 31) : ''));
  }
  const subtotal = sum(lines.map((l) => l.creditCents));
  if (customer.currencyId === FUNCTIONAL_CURRENCY && rng.chance(0.7)) {
    // Tax in basis points, rounded half-up in integers.
    const tax = (subtotal * BigInt(rng.pick([500, 625, 700, 825])) + 5000n) / 10000n;
    if (tax > 0n) lines.push(credit(chart.one('salesTax'), tax, 'Sales tax'));
  }
  if (lines.length < 5 && rng.chance(0.3)) lines.push(credit(chart.one('freightIncome'), amount(rng, 15, 400), 'Freight'));
  const receivable = debit(chart.one('receivables'), sum(lines.map((l) => l.creditCents)));
  lines.unshift(receivable);
  if (lines.length <= 4 && rng.chance(0.4)) {
    const cost = (subtotal * BigInt(rng.int(30, 55))) / 100n || 1n;
    lines.push(debit(chart.one('costOfGoods'), cost), credit(chart.one('inventory'), cost));
  }
  return {
    kind: 'SJ',
    series: 3,
    sourceDocument: 'SJ',
    reference: 'Sales Transaction Entry',
    currencyId: customer.currencyId,
    master: { id: customer.id, name: customer.name },
    documentType: 1,
    lines,
  };
}

function cashReceipt({ rng, chart, customers }: DraftContext): JournalEntryDraft {
  const customer = rng.pick(customers);
  const received = amount(rng, 150, 80_000);
  const lines: DraftLine[] = [debit(chart.one('cash'), received)];
  let applied = received;
  if (rng.chance(0.2)) {
    const discount = (received * 2n) / 98n || 1n;
    lines.push(debit(chart.one('salesDiscounts'), discount, 'Terms discount taken'));
    applied += discount;
  }
  // One receivable line per invoice the payment was applied to.
  for (const part of split(rng, applied, rng.int(1, 3))) lines.push(credit(chart.one('receivables'), part));
  return {
    kind: 'CRJ',
    series: 3,
    sourceDocument: 'CRJ',
    reference: 'Cash Receipts Entry',
    currencyId: customer.currencyId,
    master: { id: customer.id, name: customer.name },
    documentType: 9,
    lines,
  };
}

function purchaseEntry({ rng, chart }: DraftContext): JournalEntryDraft {
  const vendor = rng.pick(VENDORS);
  const lines: DraftLine[] = [];
  const expenseLines = rng.int(1, 4);
  for (let i = 0; i < expenseLines; i++) {
    const account = rng.chance(0.4) ? chart.one('inventory') : chart.any(rng, 'purchases');
    lines.push(debit(account, amount(rng, 20, 15_000), rng.chance(0.4) ? vendor.name.slice(0, 31) : ''));
  }
  lines.push(credit(chart.one('payables'), sum(lines.map((l) => l.debitCents))));
  return {
    kind: 'PJ',
    series: 4,
    sourceDocument: 'PJ',
    reference: 'Payables Transaction Entry',
    currencyId: FUNCTIONAL_CURRENCY,
    master: { id: vendor.id, name: vendor.name },
    documentType: 1,
    lines,
  };
}

function cashDisbursement({ rng, chart }: DraftContext): JournalEntryDraft {
  const vendor = rng.pick(VENDORS);
  const paid = amount(rng, 100, 40_000);
  const lines = split(rng, paid, rng.int(1, 3)).map((part) => debit(chart.one('payables'), part));
  lines.push(credit(chart.one('cash'), paid, rng.chance(0.3) ? `Check to ${vendor.name}`.slice(0, 31) : ''));
  return {
    kind: 'CDJ',
    series: 4,
    sourceDocument: 'CDJ',
    reference: 'Computer Check',
    currencyId: FUNCTIONAL_CURRENCY,
    master: { id: vendor.id, name: vendor.name },
    documentType: 6,
    lines,
  };
}

/**
 * A month's write-off of an asset: one to three departments' `expense` accounts debited (each
 * between `minDollars` and `maxDollars`), the asset's `contra` account credited with their sum.
 */
function writeOff(
  { rng, chart }: Pick<DraftContext, 'rng' | 'chart'>,
  expense: AccountRole,
  contra: AccountRole,
  minDollars: number,
  maxDollars: number,
): DraftLine[] {
  const lines: DraftLine[] = [];
  const departments = rng.int(1, 3);
  for (let i = 0; i < departments; i++) lines.push(debit(chart.any(rng, expense), amount(rng, minDollars, maxDollars)));
  lines.push(credit(chart.one(contra), sum(lines.map((l) => l.debitCents))));
  return lines;
}

function generalEntry({ rng, chart }: DraftContext): JournalEntryDraft {
  const variant = rng.weighted([
    ['payroll', 4],
    ['depreciation', 2],
    ['accrual', 2],
    ['transfer', 3],
    ['insurance', 1],
    ['bank', 1],
  ] as const);
  const lines: DraftLine[] = [];
  let reference: string;
  switch (variant) {
    case 'payroll': {
      reference = 'Payroll';
      const departments = rng.int(2, 3);
      for (let i = 0; i < departments; i++) lines.push(debit(chart.any(rng, 'salaries'), amount(rng, 2_000, 25_000), 'Gross wages'));
      const gross = sum(lines.map((l) => l.debitCents));
      const withheld = (gross * 22n) / 100n;
      lines.push(credit(chart.one('withholding'), withheld, 'Withholding'), credit(chart.one('payrollCash'), gross - withheld, 'Net pay'));
      break;
    }
    case 'depreciation': {
      reference = 'Monthly depreciation';
      lines.push(...writeOff({ rng, chart }, 'depreciation', 'accumulatedDepreciation', 300, 6_000));
      break;
    }
    case 'accrual': {
      reference = 'Accrue salaries';
      const accrued = amount(rng, 1_000, 30_000);
      lines.push(debit(chart.any(rng, 'salaries'), accrued, 'Accrual'), credit(chart.one('accruedSalaries'), accrued, 'Accrual'));
      break;
    }
    case 'transfer': {
      reference = 'Transfer to payroll account';
      const moved = amount(rng, 10_000, 150_000);
      lines.push(debit(chart.one('payrollCash'), moved), credit(chart.one('cash'), moved));
      break;
    }
    case 'insurance': {
      reference = 'Amortize prepaid insurance';
      lines.push(...writeOff({ rng, chart }, 'insurance', 'prepaidInsurance', 100, 2_000));
      break;
    }
    case 'bank': {
      reference = 'Bank service charges';
      const charge = amount(rng, 5, 250);
      lines.push(debit(chart.one('bankCharges'), charge), credit(chart.one('cash'), charge));
      break;
    }
  }
  return { kind: 'GJ', series: 2, sourceDocument: 'GJ', reference, currencyId: FUNCTIONAL_CURRENCY, documentType: 0, lines };
}

function inventoryAdjustment({ rng, chart }: DraftContext): JournalEntryDraft {
  const adjustment = amount(rng, 10, 5_000);
  const shrink = rng.chance(0.7);
  const lines = shrink
    ? [debit(chart.one('inventoryVariance'), adjustment, 'Count variance'), credit(chart.one('inventory'), adjustment, 'Count variance')]
    : [debit(chart.one('inventory'), adjustment, 'Count variance'), credit(chart.one('inventoryVariance'), adjustment, 'Count variance')];
  return {
    kind: 'IVADJ',
    series: 5,
    sourceDocument: 'IVADJ',
    reference: 'Inventory Adjustment',
    currencyId: FUNCTIONAL_CURRENCY,
    documentType: 1,
    lines,
  };
}
