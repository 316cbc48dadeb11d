/** Fiscal year headers (SY40101): calendar years of 12 periods; closed years are historical. */
import { gpDate } from '../gp/sqliteValues.ts';
import { HISTORY_YEARS, OPEN_YEAR, rowTimestamp, yearEndCloseMs } from './clock.ts';
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
