/**
 * The demo's fixed calendar. Data never reads the wall clock (it must be reproducible), so "now"
 * is a constant in the past: live rows that tests insert or update later get a DEX_ROW_TS after
 * every generated one, which is what incremental sync expects.
 */
import { gpDate, gpTimestampFromEpochMs } from '@gp-gateway/gp-schema';
import type { Rng } from './prng.ts';

const DAY_MS = 86_400_000;

/** Go-live of the demo companies: the first history year starts here. */
export const DEMO_TIMELINE_START_MS = Date.UTC(2024, 0, 1);
/** The demo's "now": the last generated DEX_ROW_TS and the last open-year transaction date. */
export const DEMO_TIMELINE_END_MS = Date.UTC(2026, 9, 31, 23, 59, 59, 999);

export const HISTORY_YEARS = [2024, 2025] as const;
export const OPEN_YEAR = 2026;

/** A DEX_ROW_TS at `fraction` of the timeline, jittered so it only roughly follows row order. */
export function timelineTimestamp(rng: Rng, fraction: number): number {
  const span = DEMO_TIMELINE_END_MS - DEMO_TIMELINE_START_MS;
  const jitter = rng.int(-3 * DAY_MS, 3 * DAY_MS);
  return clampToTimeline(DEMO_TIMELINE_START_MS + Math.floor(fraction * span) + jitter);
}

/**
 * A past timestamp for something that happened at `epochMs`: past the demo's "now" it becomes a
 * moment in the last hour (as the GL does), so late rows do not all share the very last millisecond.
 */
export function pastTimestamp(rng: Rng, epochMs: number): number {
  return epochMs <= DEMO_TIMELINE_END_MS ? clampToTimeline(epochMs) : DEMO_TIMELINE_END_MS - rng.int(0, 3_600_000);
}

/**
 * When a document dated `documentMs` was posted: that day (half of them), the next (three in ten)
 * or up to `mostDays` later, at a business time of day; never past the timeline's end.
 */
export function postedAfter(rng: Rng, documentMs: number, mostDays: number): number {
  return pastTimestamp(
    rng,
    documentMs +
      rng.weighted([
        [0, 50],
        [1, 30],
        [rng.int(2, mostDays), 20],
      ] as const) *
        DAY_MS +
      businessTimeOfDayMs(rng) +
      rng.int(0, 999),
  );
}

export function clampToTimeline(epochMs: number): number {
  return Math.min(DEMO_TIMELINE_END_MS, Math.max(DEMO_TIMELINE_START_MS, epochMs));
}

/** GP datetime text for a UTC epoch ms, keeping milliseconds (DEX_ROW_TS). */
export function rowTimestamp(epochMs: number): string {
  return gpTimestampFromEpochMs(epochMs);
}

const dateOnlyCache = new Map<number, string>();

/** GP date-only text (time 00:00:00.000) for the UTC day containing epochMs. */
export function dateOnly(epochMs: number): string {
  const day = dayStartMs(epochMs);
  let text = dateOnlyCache.get(day);
  if (text === undefined) {
    text = gpDate(isoDay(day));
    dateOnlyCache.set(day, text);
  }
  return text;
}

export function isoDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

export function dayStartMs(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS) * DAY_MS;
}

export function addDays(epochMs: number, days: number): number {
  return epochMs + days * DAY_MS;
}

/** A business-hours time of day (UTC) with milliseconds, for posting timestamps. */
export function businessTimeOfDayMs(rng: Rng): number {
  return rng.int(13 * 3_600_000, 23 * 3_600_000 - 1);
}

export { DAY_MS };

/** When the demo ran GP's year-end close for `closedYear` (mid-January of the next year). */
export function yearEndCloseMs(closedYear: number): number {
  return Date.UTC(closedYear + 1, 0, 18, 16, 7, 3, 141);
}

/** Last transaction date of a year: Dec 31, or the demo's "now" in the open year. */
export function lastDayOfYearMs(year: number): number {
  return Math.min(Date.UTC(year, 11, 31), dayStartMs(DEMO_TIMELINE_END_MS));
}
