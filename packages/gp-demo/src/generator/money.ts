/**
 * Exact arithmetic for generated documents. Amounts are numeric(19,5) scaled integers (BigInt,
 * 1.00 = 100000n); random draws pick whole cents (or whole 1/100000 for the few sub-cent prices)
 * and everything after that is integer arithmetic, so totals always equal the sum of their parts.
 */
import { DAY_MS, DEMO_TIMELINE_END_MS, dayStartMs } from './clock.ts';
import { CURRENCY_INDEX, EXCHANGE_RATES, RATE_ONE } from './generalLedger.ts';
import { FUNCTIONAL_CURRENCY } from './journalEntries.ts';
import type { Rng } from './prng.ts';
import type { PaymentTermDefinition } from './vocabulary.ts';
import { PAYMENT_TERM_DEFINITIONS } from './vocabulary.ts';

export { FUNCTIONAL_CURRENCY };

/** Scaled units per cent (numeric(19,5) keeps 5 decimals, a cent is 2). */
export const CENT = 1000n;
/** Scaled units per whole unit (1.00000). */
export const ONE = 100000n;

export const cents = (value: bigint | number): bigint => BigInt(value) * CENT;
export const units = (value: bigint | number): bigint => BigInt(value) * ONE;
export const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

/** Round a non-negative scaled amount half-up to whole cents. */
export function roundToCents(scaled: bigint): bigint {
  if (scaled < 0n) return -roundToCents(-scaled);
  return ((scaled + CENT / 2n) / CENT) * CENT;
}

/** A positive amount in whole cents (scaled), log-uniform between min and max dollars. */
export function randomAmount(rng: Rng, minDollars: number, maxDollars: number): bigint {
  const dollars = minDollars * (maxDollars / minDollars) ** rng.next();
  return cents(Math.max(1, Math.round(dollars * 100)));
}

/** `basisPoints` of an amount (825 = 8.25%), rounded to cents. */
export function percentOf(amount: bigint, basisPoints: number): bigint {
  return roundToCents((amount * BigInt(basisPoints)) / 10000n);
}

/** Extended amount of a quantity at a unit price, rounded to cents as GP rounds to the currency. */
export function extend(quantity: bigint, unitPrice: bigint): bigint {
  return roundToCents((quantity * unitPrice) / ONE);
}

/** Splits a scaled amount into `fraction` (0-1, two decimals) of itself, rounded to cents. */
export function fractionOf(amount: bigint, fraction: number): bigint {
  return roundToCents((amount * BigInt(Math.round(fraction * 100))) / 100n);
}

/** Functional amount to originating currency, rounded half-up to cents. */
export function fromFunctional(amount: bigint, currencyId: string): bigint {
  const rate = EXCHANGE_RATES[currencyId];
  if (rate === undefined) throw new Error(`no exchange rate for ${currencyId}`);
  if (rate === RATE_ONE) return amount;
  return roundToCents((amount * RATE_ONE) / rate);
}

export function currencyIndex(currencyId: string): number {
  return CURRENCY_INDEX[currencyId] ?? 0;
}

const TERMS_BY_ID = new Map(PAYMENT_TERM_DEFINITIONS.map((t) => [t.id, t]));

export function paymentTerm(id: string): PaymentTermDefinition | undefined {
  return TERMS_BY_ID.get(id);
}

/** Due date of a document under GP's five due types (taCalcDueDateRM); no terms: the document date. */
export function dueDateMs(documentMs: number, termsId: string): number {
  const term = TERMS_BY_ID.get(termsId);
  const day = dayStartMs(documentMs);
  if (!term) return day;
  const date = new Date(day);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dayOfMonth = (y: number, m: number, d: number) => Date.UTC(y, m, Math.min(d, new Date(Date.UTC(y, m + 1, 0)).getUTCDate()));
  switch (term.dueType) {
    case 1:
      return day + term.dueDays * DAY_MS;
    case 2:
      return date.getUTCDate() <= term.dueDays ? dayOfMonth(year, month, term.dueDays) : dayOfMonth(year, month + 1, term.dueDays);
    case 3:
      return Date.UTC(year, month + 1, 0);
    case 4:
      return day;
    case 5:
      return dayOfMonth(year, month + 1, term.dueDays);
  }
}

/** The demo's "today" (start of the day of its last timestamp). */
export const DEMO_TODAY_MS = dayStartMs(DEMO_TIMELINE_END_MS);
