/** Fiscal years (SY40101): calendar years of 12 periods; closed years are historical. Periods (SY40100) below. */
import { gpDate } from '@gp-gateway/gp-schema';
import { DAY_MS, HISTORY_YEARS, OPEN_YEAR, clampToTimeline, rowTimestamp, yearEndCloseMs } from './clock.ts';
import type { Rng } from './prng.ts';
import type { TableWriter } from './tableWriter.ts';

export function writeFiscalYears(fiscalYears: TableWriter): void {
  for (const year of [...HISTORY_YEARS, OPEN_YEAR]) {
    const historical = year !== OPEN_YEAR;
    // A closed year's row was last touched by the close that marked it historical; the open year's
    // row when it was set up, shortly before it began.
    const touchedMs = historical ? yearEndCloseMs(year) : Date.UTC(year - 1, 11, 15, 17, 42, 10, 512);
    fiscalYears.insert({
      YEAR1: year,
      FSTFSCDY: gpDate(`${year}-01-01`),
      LSTFSCDY: gpDate(`${year}-12-31`),
      NUMOFPER: 12,
      HISTORYR: historical ? 1 : 0,
      DEX_ROW_TS: rowTimestamp(touchedMs),
    });
  }
}

/** FORIGIN 0 rows: the transaction origins that can be closed per period, by series (2-7). */
const ORIGINS = [
  [2, 'General Entry'],
  [2, 'Clearing Entry'],
  [3, 'Sales Transaction Entry'],
  [3, 'Cash Receipts Entry'],
  [3, 'Sales Order Processing'],
  [4, 'Payables Trx Entry'],
  [4, 'Manual Payments'],
  [4, 'Receivings Trx Entry'],
  [5, 'Transaction Entry'],
  [5, 'Transfer Entry'],
  [6, 'Payroll Transaction Entry'],
  [7, 'Timesheet Entry'],
] as const;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * Whether series `series` (2 Financial .. 7 Project) is closed for a period: 2024 is closed
 * throughout; 2025 too except Project's last quarter; in 2026 Financial and Inventory are closed
 * through June, Sales and Purchasing through August, Payroll through September, Project not at all.
 */
function isPeriodClosed(year: number, period: number, series: number): boolean {
  if (year === HISTORY_YEARS[0]) return true;
  if (year === HISTORY_YEARS[1]) return !(series === 7 && period >= 10);
  const closedThrough: Record<number, number> = { 2: 6, 3: 8, 4: 8, 5: 6, 6: 9, 7: 0 };
  return period >= 1 && period <= (closedThrough[series] ?? 0);
}

/**
 * SY40100, per GP: for every year and period (0-12) one period-level row (FORIGIN 1, SERIES 0,
 * blank ODESCTN) whose PSERIES_1..6 flag Financial..Project as closed, plus one FORIGIN 0 row per
 * transaction origin carrying CLOSED. Period 0 rows mark the year start (PERIODDT = PERDENDT =
 * January 1). The period-level row's own CLOSED is 1 only when every series is closed.
 */
export function writeFiscalPeriods(rng: Rng, periods: TableWriter): void {
  for (const year of [...HISTORY_YEARS, OPEN_YEAR]) {
    const setupMs = Date.UTC(year - 1, 11, 15, 17, 42, 10, 512);
    for (let period = 0; period <= 12; period++) {
      const start = period === 0 ? `${year}-01-01` : `${year}-${String(period).padStart(2, '0')}-01`;
      const endMs = period === 0 ? Date.UTC(year, 0, 1) : Date.UTC(year, period, 0);
      const periodEnd = new Date(endMs).toISOString().slice(0, 10);
      const flags = [2, 3, 4, 5, 6, 7].map((series) => isPeriodClosed(year, period, series));
      // A closed period's rows were last touched by the close, some days after the period ended.
      const touchedMs = (closed: boolean) =>
        closed
          ? clampToTimeline(Math.max(setupMs, endMs + rng.int(8, 20) * DAY_MS + rng.int(14, 22) * 3_600_000 + rng.int(0, 3_599_999)))
          : setupMs;
      const common = {
        YEAR1: year,
        PERIODID: period,
        PERIODDT: gpDate(start),
        PERDENDT: gpDate(periodEnd),
        PERNAME: period === 0 ? '' : MONTHS[period - 1],
      };
      periods.insert({
        ...common,
        CLOSED: flags.every(Boolean) ? 1 : 0,
        SERIES: 0,
        ODESCTN: '',
        FORIGIN: 1,
        PSERIES_1: flags[0] ? 1 : 0,
        PSERIES_2: flags[1] ? 1 : 0,
        PSERIES_3: flags[2] ? 1 : 0,
        PSERIES_4: flags[3] ? 1 : 0,
        PSERIES_5: flags[4] ? 1 : 0,
        PSERIES_6: flags[5] ? 1 : 0,
        DEX_ROW_TS: rowTimestamp(touchedMs(flags.some(Boolean))),
      });
      for (const [series, origin] of ORIGINS) {
        const closed = isPeriodClosed(year, period, series);
        periods.insert({
          ...common,
          CLOSED: closed ? 1 : 0,
          SERIES: series,
          ODESCTN: origin,
          FORIGIN: 0,
          DEX_ROW_TS: rowTimestamp(touchedMs(closed)),
        });
      }
    }
  }
}
