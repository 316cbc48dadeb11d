/**
 * What writing receivables and payables documents shares (receivableDocuments.ts, payableDocuments.ts).
 *
 * Open or history: documents dated before HISTORY_CUTOFF are fully applied and moved to history by
 * a quarterly paid-transaction removal (DEX_ROW_TS = that run), except a few still open; voided
 * documents are in history. Open documents' remaining amounts depend on their age.
 */
import type { BatchBook } from './batches.ts';
import {
  DAY_MS,
  DEMO_TIMELINE_START_MS,
  businessTimeOfDayMs,
  clampToTimeline,
  dateOnly,
  dayStartMs,
  isoDay,
  pastTimestamp,
  postedAfter,
} from './clock.ts';
import { DEMO_TODAY_MS, fractionOf } from './money.ts';
import type { PhaseProgress } from './progress.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';

/** The tables and helpers a document writer is given: the open and the history table of its documents. */
export interface SubledgerWriteOptions {
  rng: Rng;
  scale: number;
  open: TableWriter;
  history: TableWriter;
  batches: BatchBook;
  progress: PhaseProgress;
}

/** Documents dated before this are paid and moved to history (a few stay open). */
const HISTORY_CUTOFF_MS = Date.UTC(2025, 9, 1);

interface Settlement {
  history: boolean;
  remaining: bigint;
  paidOffMs: number;
  touchedMs: number;
  voidMs: number;
}

export function settle(rng: Rng, documentMs: number, postedMs: number, amount: bigint, voided: boolean, isCredit: boolean): Settlement {
  if (voided) {
    const voidMs = pastTimestamp(rng, Math.max(postedMs, dayStartMs(postedMs) + rng.int(1, 20) * DAY_MS + businessTimeOfDayMs(rng)));
    return { history: true, remaining: 0n, paidOffMs: 0, touchedMs: voidMs, voidMs };
  }
  const stillOpen = rng.chance(0.03);
  if (documentMs < HISTORY_CUTOFF_MS && !stillOpen) {
    const paidOffMs = dayStartMs(documentMs) + rng.int(isCredit ? 0 : 5, 75) * DAY_MS;
    return {
      history: true,
      remaining: 0n,
      paidOffMs,
      touchedMs: removalRunAfter(Math.max(paidOffMs, postedMs)) + rng.int(0, 59_999),
      voidMs: 0,
    };
  }
  const ageDays = Math.max(0, Math.round((DEMO_TODAY_MS - dayStartMs(documentMs)) / DAY_MS));
  const [paid, partial] =
    documentMs < HISTORY_CUTOFF_MS
      ? [0, 0.4]
      : isCredit
        ? [0.85, 0.1]
        : ageDays > 90
          ? [0.8, 0.1]
          : ageDays > 30
            ? [0.5, 0.2]
            : [0.15, 0.15];
  const roll = rng.next();
  const remaining = roll < paid ? 0n : roll < paid + partial ? fractionOf(amount, rng.int(10, 90) / 100) : amount;
  if (remaining === amount) return { history: false, remaining, paidOffMs: 0, touchedMs: postedMs, voidMs: 0 };
  const appliedMs = pastTimestamp(
    rng,
    Math.max(postedMs, dayStartMs(documentMs) + rng.int(1, Math.max(1, Math.min(ageDays, 60))) * DAY_MS + businessTimeOfDayMs(rng)),
  );
  return { history: false, remaining, paidOffMs: remaining === 0n ? appliedMs : 0, touchedMs: appliedMs, voidMs: 0 };
}

/** Paid-transaction removal runs quarterly (the 20th of Jan/Apr/Jul/Oct, evening UTC). */
function removalRunAfter(ms: number): number {
  const date = new Date(ms + DAY_MS);
  for (let year = date.getUTCFullYear(); ; year++) {
    for (const month of [0, 3, 6, 9]) {
      const run = Date.UTC(year, month, 20, 22, 15, 0, 0);
      if (run >= ms + DAY_MS) return clampToTimeline(run);
    }
  }
}

export const day = (ms: number) => dateOnly(ms);
export const compactDay = (ms: number) => isoDay(ms).replaceAll('-', '');
export const pad8 = (n: number) => String(n).padStart(8, '0');

/** A random document date on the demo's timeline, and when it was posted. */
export function randomDates(rng: Rng): { documentMs: number; postedMs: number } {
  const documentMs = dayStartMs(DEMO_TIMELINE_START_MS + Math.floor(rng.next() * (DEMO_TODAY_MS - DEMO_TIMELINE_START_MS)));
  return { documentMs, postedMs: postedAfter(rng, documentMs, 6) };
}
