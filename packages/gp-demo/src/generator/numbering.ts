/**
 * GP's numbering setup (docs/decisions.md#writes): the next number of each sales document id
 * (SOP40200) and of each sales document type (SOP40300), of each receivables document type (RM40401), the next voucher (PM40100) and the next
 * journal entry (GL40000). Written last, from the documents already generated, so that a document
 * the agent writes takes the number after the highest one of its kind, as in GP.
 */
import type Database from 'better-sqlite3';
import { DEMO_TIMELINE_END_MS, dateOnly, rowTimestamp } from './clock.ts';
import { padChar, toScaled } from '@gp-gateway/gp-schema';
import { RM_PREFIX } from './receivableDocuments.ts';
import type { ReceivableType } from './subledgers.ts';
import type { TableWriter } from './tableWriter.ts';

/** "ORDST1100" → "ORDST1101": GP increments the number's trailing digits, keeping their width. */
function nextDocumentNumber(number: string): string {
  const match = /^(.*?)(\d+)$/.exec(number.trimEnd());
  if (!match) return `${number.trimEnd()}1`;
  const [, prefix, digits] = match;
  return prefix! + String(BigInt(digits!) + 1n).padStart(digits!.length, '0');
}

/** The RM40401 rows GP ships with: type, description, abbreviation. */
const RM_TYPES: [ReceivableType, string, string][] = [
  [1, 'Sales / Invoices', 'SLS'],
  [3, 'Debit Memos', 'DR'],
  [4, 'Finance Charges', 'FIN'],
  [5, 'Service / Repairs', 'SVC'],
  [6, 'Warranty', 'WRN'],
  [7, 'Credit Memos', 'CR'],
  [8, 'Returns', 'RTN'],
  [9, 'Payments', 'PMT'],
];

/** The SOP40300 rows GP ships with: type, name, abbreviation. */
const SOP_TYPES: [number, string, string][] = [
  [1, 'Quote', 'QTE'],
  [2, 'Order', 'ORD'],
  [3, 'Invoice', 'INV'],
  [4, 'Return', 'RTN'],
  [5, 'Back Order', 'BCK'],
  [6, 'Fulfillment Order', 'FUL'],
];

export interface NumberingWriters {
  SOP40200: TableWriter;
  SOP40300: TableWriter;
  RM40401: TableWriter;
  PM40100: TableWriter;
  GL40000: TableWriter;
}

export interface UnpostedWriters {
  RM10301: TableWriter;
  RM10101: TableWriter;
  PM10000: TableWriter;
  PM10100: TableWriter;
  GL10000: TableWriter;
  GL10001: TableWriter;
  SY00500: TableWriter;
}

/** Unposted documents per company: a few of each kind, as eConnect or a user entering them would leave them. */
const UNPOSTED = 4;

/**
 * A few documents entered but not posted, in the work tables eConnect writes (RM10301 with its
 * distributions RM10101, PM10000 with PM10100, GL10000/GL10001), in batches of their own, so that
 * `status=work` and `year=unposted` have rows to list. Numbered after the posted ones, as GP numbers
 * them; written before the numbering setup.
 */
export function writeUnposted(db: Database.Database, writers: UnpostedWriters, interid: string): void {
  const day = dateOnly(DEMO_TIMELINE_END_MS);
  const stamp = rowTimestamp(DEMO_TIMELINE_END_MS);
  // The posting setup's account of a slot (SY01100), where the customer or vendor names none.
  const setupAccount = (series: number, sequence: number) =>
    db.prepare('SELECT ACTINDX FROM SY01100 WHERE SERIES = ? AND SEQNUMBR = ?').pluck().get(series, sequence) as number;
  const customers = db
    .prepare('SELECT CUSTNMBR, CUSTNAME, CURNCYID, PYMTRMID FROM RM00101 WHERE INACTIVE = 0 ORDER BY CUSTNMBR LIMIT ?')
    .all(UNPOSTED) as Record<string, string>[];
  let invoice = lastOf(
    db,
    'SELECT max(DOCNUMBR) FROM (SELECT DOCNUMBR FROM RM20101 WHERE RMDTYPAL = 1 UNION ALL SELECT DOCNUMBR FROM RM30101 WHERE RMDTYPAL = 1)',
  );
  customers.forEach((customer, i) => {
    invoice = nextDocumentNumber(invoice ?? 'INV00000000');
    const amount = toScaled(`${(i + 1) * 125}`);
    writers.RM10301.insert({
      DOCTYPE: 1,
      RMDTYPAL: 1,
      RMDNUMWK: invoice.slice(0, 17),
      DOCNUMBR: invoice,
      DOCDESCR: 'Unposted invoice',
      DOCDATE: day,
      BACHNUMB: 'RMUNPOSTED',
      BCHSOURC: 'RM_Sales',
      CUSTNMBR: customer.CUSTNMBR!.trimEnd(),
      CUSTNAME: customer.CUSTNAME!.trimEnd(),
      SLSAMNT: amount,
      DOCAMNT: amount,
      PYMTRMID: customer.PYMTRMID!.trimEnd(),
      CURNCYID: customer.CURNCYID!.trimEnd(),
      LSTEDTDT: day,
      DEX_ROW_TS: stamp,
    });
    // The distributions eConnect creates with an invoice: sales credited, the receivable debited.
    [
      [9, setupAccount(3, 1100), 0n, amount],
      [3, setupAccount(3, 100), amount, 0n],
    ].forEach(([type, account, debit, credit], line) =>
      writers.RM10101.insert({
        PSTGSTUS: 3,
        DOCNUMBR: invoice!,
        DCSTATUS: 1,
        DISTTYPE: type,
        RMDTYPAL: 1,
        SEQNUMBR: (line + 1) * 16384,
        CUSTNMBR: customer.CUSTNMBR!.trimEnd(),
        DSTINDX: account,
        DEBITAMT: debit,
        CRDTAMNT: credit,
        CURNCYID: customer.CURNCYID!.trimEnd(),
      }),
    );
  });
  const vendors = db
    .prepare('SELECT VENDORID, CURNCYID, PYMTRMID, PMAPINDX, PMPRCHIX FROM PM00200 WHERE VENDSTTS = 1 ORDER BY VENDORID LIMIT ?')
    .all(UNPOSTED) as (Record<string, string> & { PMAPINDX: number; PMPRCHIX: number })[];
  let voucher = lastOf(db, 'SELECT max(VCHRNMBR) FROM (SELECT VCHRNMBR FROM PM20000 UNION ALL SELECT VCHRNMBR FROM PM30200)');
  vendors.forEach((vendor, i) => {
    voucher = nextDocumentNumber(voucher ?? '00000000000000000');
    const amount = toScaled(`${(i + 1) * 310}.5`);
    writers.PM10000.insert({
      BACHNUMB: 'PMUNPOSTED',
      BCHSOURC: 'PM_Trxent',
      VCHNUMWK: voucher,
      VENDORID: vendor.VENDORID!.trimEnd(),
      DOCNUMBR: `UNP-${i + 1}`,
      DOCTYPE: 1,
      SOURCDOC: 'PMTRX',
      DOCAMNT: amount,
      DOCDATE: day,
      PSTGDATE: day,
      PYMTRMID: vendor.PYMTRMID!.trimEnd(),
      PRCHAMNT: amount,
      CURNCYID: vendor.CURNCYID!.trimEnd(),
      TRXDSCRN: 'Unposted invoice',
      CURTRXAM: amount,
      VCHRNMBR: voucher,
      MODIFDT: day,
      DEX_ROW_TS: stamp,
    });
    // Purchases debited, the payable credited: on the vendor's own accounts where it names them.
    [
      [6, vendor.PMPRCHIX || setupAccount(4, 600), amount, 0n],
      [2, vendor.PMAPINDX || setupAccount(4, 200), 0n, amount],
    ].forEach(([type, account, debit, credit], line) =>
      writers.PM10100.insert({
        VCHRNMBR: voucher!,
        DSTSQNUM: (line + 1) * 16384,
        CRDTAMNT: credit,
        DEBITAMT: debit,
        DSTINDX: account,
        DISTTYPE: type,
        VENDORID: vendor.VENDORID!.trimEnd(),
        INTERID: interid,
        CURNCYID: vendor.CURNCYID!.trimEnd(),
        ICCURRID: vendor.CURNCYID!.trimEnd(),
        XCHGRATE: toScaled('1'),
      }),
    );
  });
  const accounts = db
    .prepare('SELECT a.ACTINDX FROM GL00100 a WHERE a.ACTIVE = 1 AND a.ACCTTYPE = 1 ORDER BY a.ACTINDX LIMIT 2')
    .pluck()
    .all() as number[];
  let entry = Number(lastOf(db, 'SELECT max(JRNENTRY) FROM (SELECT JRNENTRY FROM GL20000 UNION ALL SELECT JRNENTRY FROM GL30000)') ?? 0);
  for (let i = 0; i < UNPOSTED / 2 && accounts.length === 2; i++) {
    entry += 1;
    const amount = toScaled(`${(i + 1) * 1000}`);
    writers.GL10000.insert({
      BACHNUMB: 'GLUNPOSTED',
      BCHSOURC: 'GL_Normal',
      JRNENTRY: entry,
      SOURCDOC: 'GJ',
      REFRENCE: `Unposted accrual ${i + 1}`,
      TRXDATE: day,
      LSTDTEDT: day,
      SERIES: 2,
      OPENYEAR: 2026,
      DOCDATE: day,
      Ledger_ID: 1,
      DEX_ROW_TS: stamp,
    });
    accounts.forEach((account, line) =>
      writers.GL10001.insert({
        BACHNUMB: 'GLUNPOSTED',
        JRNENTRY: entry,
        SQNCLINE: toScaled(String((line + 1) * 16384)),
        ACTINDX: account,
        DSCRIPTN: line === 0 ? 'Accrued expense' : 'Accrued liability',
        ACCTTYPE: 1,
        DEBITAMT: line === 0 ? amount : 0n,
        CRDTAMNT: line === 0 ? 0n : amount,
        ORDBTAMT: line === 0 ? amount : 0n,
        ORCRDAMT: line === 0 ? 0n : amount,
        DEX_ROW_TS: stamp,
      }),
    );
  }
  const total = (table: string, column: string, batch: string) =>
    db
      .prepare(`SELECT coalesce(sum(${column}), 0) FROM ${table} WHERE BACHNUMB = ?`)
      .pluck()
      .safeIntegers(true)
      .get(padChar(batch, 15)) as bigint;
  for (const [source, batch, series, count, table, column] of [
    ['RM_Sales', 'RMUNPOSTED', 3, customers.length, 'RM10301', 'DOCAMNT'],
    ['PM_Trxent', 'PMUNPOSTED', 4, vendors.length, 'PM10000', 'DOCAMNT'],
    ['GL_Normal', 'GLUNPOSTED', 2, UNPOSTED / 2, 'GL10001', 'DEBITAMT'],
  ] as const) {
    writers.SY00500.insert({
      BCHSOURC: source,
      BACHNUMB: batch,
      SERIES: series,
      NUMOFTRX: count,
      BCHTOTAL: total(table, column, batch),
      BACHDATE: day,
      CREATDDT: day,
      MODIFDT: day,
      ORIGIN: 1,
    });
  }
}

function lastOf(db: Database.Database, sql: string): string | null {
  const value = db.prepare(sql).pluck().get() as string | number | null;
  return value === null ? null : String(value).trimEnd();
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
  // The type's own next number, which a document type id without one of its own takes (taGetSopNumber).
  const lastOfType = db.prepare(
    'SELECT max(SOPNUMBE) FROM (SELECT SOPNUMBE FROM SOP10100 WHERE SOPTYPE = ? UNION ALL SELECT SOPNUMBE FROM SOP30200 WHERE SOPTYPE = ?)',
  );
  for (const [type, name, abbreviation] of SOP_TYPES) {
    const last = lastOfType.pluck().get(type, type) as string | null;
    writers.SOP40300.insert({
      SOPTYPE: type,
      DOCTYABR: abbreviation,
      DOCTYNAM: name,
      SOPNUMBE: last ? nextDocumentNumber(last) : `${abbreviation}00000001`,
      SETUPKEY: type,
    });
  }
  const lastDocument = db.prepare(
    'SELECT max(DOCNUMBR) FROM (SELECT DOCNUMBR FROM RM20101 WHERE RMDTYPAL = ? UNION ALL SELECT DOCNUMBR FROM RM30101 WHERE RMDTYPAL = ? ' +
      'UNION ALL SELECT DOCNUMBR FROM RM10301 WHERE RMDTYPAL = ?)',
  );
  for (const [type, description, abbreviation] of RM_TYPES) {
    const last = lastDocument.pluck().get(type, type, type) as string | null;
    writers.RM40401.insert({
      RMDTYPAL: type,
      DOCDESCR: description,
      DOCABREV: abbreviation,
      DOCNUMBR: last ? nextDocumentNumber(last) : `${RM_PREFIX[type]}00000001`,
      SETUPKEY: type,
    });
  }
  const lastVoucher = db
    .prepare(
      'SELECT max(VCHRNMBR) FROM (SELECT VCHRNMBR FROM PM20000 UNION ALL SELECT VCHRNMBR FROM PM30200 UNION ALL SELECT VCHRNMBR FROM PM10000)',
    )
    .pluck()
    .get() as string | null;
  writers.PM40100.insert({ UNIQKEY: '1', NTVCHNUM: nextDocumentNumber(lastVoucher ?? '00000000000000000') });
  const lastEntry = db
    .prepare(
      'SELECT max(JRNENTRY) FROM (SELECT JRNENTRY FROM GL20000 UNION ALL SELECT JRNENTRY FROM GL30000 UNION ALL SELECT JRNENTRY FROM GL10000)',
    )
    .pluck()
    .get() as number | null;
  writers.GL40000.insert({ UNIQKEY: '1', NJRNLENT: (lastEntry ?? 0) + 1, DEX_ROW_TS: rowTimestamp(DEMO_TIMELINE_END_MS) });
}
