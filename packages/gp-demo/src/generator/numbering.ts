/**
 * GP's numbering setup (docs/decisions.md#writes): the next number of each sales document id
 * (SOP40200), of each receivables document type (RM40401), the next voucher (PM40100) and the next
 * journal entry (GL40000). Written last, from the documents already generated, so that a document
 * the agent writes takes the number after the highest one of its kind, as in GP.
 */
import type Database from 'better-sqlite3';
import { DEMO_TIMELINE_END_MS, dateOnly, rowTimestamp } from './clock.ts';
import type { TableWriter } from './tableWriter.ts';

/** "ORDST1100" → "ORDST1101": GP increments the number's trailing digits, keeping their width. */
export function nextDocumentNumber(number: string): string {
  const match = /^(.*?)(\d+)$/.exec(number.trimEnd());
  if (!match) return `${number.trimEnd()}1`;
  const [, prefix, digits] = match;
  return prefix! + String(BigInt(digits!) + 1n).padStart(digits!.length, '0');
}

/** The RM40401 rows GP ships with: type, description, abbreviation. */
const RM_TYPES: [number, string, string][] = [
  [1, 'Sales / Invoices', 'SLS'],
  [3, 'Debit Memos', 'DR'],
  [4, 'Finance Charges', 'FIN'],
  [5, 'Service / Repairs', 'SVC'],
  [6, 'Warranty', 'WRN'],
  [7, 'Credit Memos', 'CR'],
  [8, 'Returns', 'RTN'],
  [9, 'Payments', 'PMT'],
];
/** Prefixes of the demo's own document numbers, for types no generated document has. */
const RM_PREFIXES: Record<number, string> = { 1: 'INV', 3: 'DR', 4: 'FC', 5: 'SVC', 6: 'WRN', 7: 'CR', 8: 'RTN', 9: 'PYMNT' };

export interface NumberingWriters {
  SOP40200: TableWriter;
  RM40401: TableWriter;
  PM40100: TableWriter;
  GL40000: TableWriter;
}

export function writeNumbering(db: Database.Database, writers: NumberingWriters): void {
  const day = dateOnly(DEMO_TIMELINE_END_MS);
  const sopIds = db
    .prepare(
      'SELECT SOPTYPE, DOCID, max(SOPNUMBE) AS last FROM (SELECT SOPTYPE, DOCID, SOPNUMBE FROM SOP10100 ' +
        'UNION ALL SELECT SOPTYPE, DOCID, SOPNUMBE FROM SOP30200) GROUP BY SOPTYPE, DOCID ORDER BY SOPTYPE, DOCID',
    )
    .all() as { SOPTYPE: number; DOCID: string; last: string }[];
  for (const { SOPTYPE, DOCID, last } of sopIds) {
    writers.SOP40200.insert({
      DOCID: DOCID.trimEnd(),
      SOPTYPE,
      SETUPKEY: SOPTYPE,
      DOCTYABR: DOCID.trimEnd().slice(0, 3),
      SOPNUMBE: nextDocumentNumber(last),
      CREATDDT: day,
      MODIFDT: day,
    });
  }
  const lastOf = db.prepare(
    'SELECT max(DOCNUMBR) FROM (SELECT DOCNUMBR FROM RM20101 WHERE RMDTYPAL = ? UNION ALL SELECT DOCNUMBR FROM RM30101 WHERE RMDTYPAL = ?)',
  );
  for (const [type, description, abbreviation] of RM_TYPES) {
    const last = lastOf.pluck().get(type, type) as string | null;
    writers.RM40401.insert({
      RMDTYPAL: type,
      DOCDESCR: description,
      DOCABREV: abbreviation,
      DOCNUMBR: last ? nextDocumentNumber(last) : `${RM_PREFIXES[type]}00000001`,
      SETUPKEY: type,
    });
  }
  const lastVoucher = db
    .prepare('SELECT max(VCHRNMBR) FROM (SELECT VCHRNMBR FROM PM20000 UNION ALL SELECT VCHRNMBR FROM PM30200)')
    .pluck()
    .get() as string | null;
  writers.PM40100.insert({ UNIQKEY: '1', NTVCHNUM: nextDocumentNumber(lastVoucher ?? '00000000000000000') });
  const lastEntry = db
    .prepare('SELECT max(JRNENTRY) FROM (SELECT JRNENTRY FROM GL20000 UNION ALL SELECT JRNENTRY FROM GL30000)')
    .pluck()
    .get() as number | null;
  writers.GL40000.insert({ UNIQKEY: '1', NJRNLENT: (lastEntry ?? 0) + 1, DEX_ROW_TS: rowTimestamp(DEMO_TIMELINE_END_MS) });
}
