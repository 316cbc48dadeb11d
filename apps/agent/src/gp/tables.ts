/**
 * GP table shapes, declared once. The SQLite schema (sqliteSchema.ts), the demo generator and the
 * agent's SQLite reader all derive from these entries, so adding a GP table means adding an entry
 * here. Names, types and lengths are GP's own (GP 2015 DDL, see shared/reference/gp-schema.md).
 *
 * SQLite encoding contract (other code relies on it; helpers live in sqliteValues.ts):
 *
 * - DEX_ROW_ID is `INTEGER PRIMARY KEY AUTOINCREMENT`: a rowid alias, so keyset paging on it is an
 *   index seek, and AUTOINCREMENT so ids are never reused, like GP's IDENTITY(1,1). GP's own primary
 *   key becomes a UNIQUE index named PK<table> (none when GP's key is DEX_ROW_ID, as in GL20000).
 * - char(n) is `TEXT NOT NULL COLLATE NOCASE`, always exactly n characters, right-padded with spaces
 *   the way SQL Server stores char(n); empty is n spaces. As in SQL Server, a longer value is an
 *   error (CHECK) and a shorter one is padded on write (zPAD_<table>I/U triggers), so the invariant
 *   holds for rows anyone inserts. NOCASE stands in for GP's case-insensitive collation (ASCII
 *   only). SQLite, unlike SQL Server, does not ignore trailing blanks in `=` or IN, so a reader
 *   must padChar() every bound key or literal it compares with (SOURCDOC IN ('BBF', 'P/L') matches
 *   nothing; padded values do); sorting padded values gives SQL Server's blank-padded order.
 * - numeric(19,5) is `INTEGER NOT NULL` holding the exact value times 100000 (1250.5 is 125050000).
 *   No money value may pass through a JS float: write BigInt from toScaled(), read with
 *   better-sqlite3's safeIntegers() and scaledToDecimalString(). A CHECK rejects non-integers.
 *   The int64 range caps values at ±92,233,720,368,547.75807, below numeric(19,5)'s own limit.
 * - int, smallint and tinyint are `INTEGER NOT NULL`. Flags are 0/1; percents are hundredths.
 * - datetime is TEXT 'YYYY-MM-DD HH:MM:SS.SSS' (a CHECK enforces the shape). Date-only columns have
 *   time 00:00:00.000 and an empty date is '1900-01-01 00:00:00.000' (GP_EMPTY_DATE).
 * - Every column is NOT NULL with GP's bound default (GPS_CHAR blanks, 0, 1900-01-01), so a test may
 *   insert a row naming only the columns it cares about.
 * - DEX_ROW_TS, where GP has it, is UTC with real milliseconds, defaults to the current UTC time,
 *   and an AFTER UPDATE trigger (GP's zDT_<table>U) sets it to now unless the UPDATE itself set a
 *   different value (padding a short char value counts as a change, so write padded values when
 *   setting DEX_ROW_TS explicitly). Tables with `bumpsParentRowTs` also bump the parent's
 *   DEX_ROW_TS on insert, update and delete, as GP's RM00102 triggers bump RM00101.
 */

import { DEX_ROW_ID, char, datetime, int, numeric, smallint, table, tinyint } from './gpTable.ts';
import type { GpColumn, GpTable } from './gpTable.ts';

export type { GpColumn, GpColumnType, GpTable } from './gpTable.ts';
export { DEX_ROW_ID, DEX_ROW_TS } from './gpTable.ts';
export { sqliteDdl } from './sqliteSchema.ts';

const addressLines = [char('ADDRESS1', 61), char('ADDRESS2', 61), char('ADDRESS3', 61)];
/** Customer tables spell these ZIP/PHONE1/FAX (vendor and site tables use ZIPCODE/PHNUMBR1/FAXNUMBR). */
const customerContact = [
  ...addressLines,
  char('COUNTRY', 61),
  char('CITY', 35),
  char('STATE', 29),
  char('ZIP', 11),
  char('PHONE1', 21),
  char('PHONE2', 21),
  char('PHONE3', 21),
  char('FAX', 21),
];
/** The account framework: 4 segment columns as in the TLE sample (char 5/5/3/3). */
const accountSegments = [char('ACTNUMBR_1', 5), char('ACTNUMBR_2', 5), char('ACTNUMBR_3', 3), char('ACTNUMBR_4', 3)];

/** GL20000 and GL30000 differ only in the year column. */
function glTransactionColumns(yearColumn: 'OPENYEAR' | 'HSTYEAR'): GpColumn[] {
  return [
    smallint(yearColumn),
    int('JRNENTRY'),
    numeric('RCTRXSEQ'),
    char('SOURCDOC', 11),
    char('REFRENCE', 31),
    char('DSCRIPTN', 31),
    datetime('TRXDATE'),
    char('TRXSORCE', 13),
    int('ACTINDX'),
    char('LASTUSER', 15),
    datetime('LSTDTEDT'),
    char('USWHPSTD', 15),
    char('ORGNTSRC', 15),
    char('ORTRXSRC', 13),
    smallint('OrigDTASeries'),
    smallint('SERIES'),
    smallint('ORTRXTYP'),
    char('ORCTRNUM', 21),
    char('ORMSTRID', 31),
    char('ORMSTRNM', 65),
    char('ORDOCNUM', 21),
    datetime('ORPSTDDT'),
    int('SEQNUMBR'),
    smallint('PERIODID'),
    numeric('DEBITAMT'),
    numeric('CRDTAMNT'),
    numeric('ORDBTAMT'),
    numeric('ORCRDAMT'),
    char('CURNCYID', 15),
    smallint('CURRNIDX'),
    tinyint('VOIDED'),
  ];
}

export const GP_TABLES = {
  SY01500: table({
    name: 'SY01500',
    database: 'system',
    columns: [
      smallint('CMPANYID'),
      char('CMPNYNAM', 65),
      char('INTERID', 5),
      ...addressLines,
      char('CITY', 35),
      char('STATE', 29),
      char('ZIPCODE', 11),
      char('CMPCNTRY', 61),
      char('PHONE1', 21),
      char('PHONE2', 21),
      char('PHONE3', 21),
      char('FAXNUMBR', 21),
      char('TAXREGTN', 25),
      char('ACSEGSEP', 1),
    ],
    primaryKey: ['CMPANYID'],
    hasRowTs: false,
    indexes: [['INTERID']],
  }),

  RM00101: table({
    name: 'RM00101',
    database: 'company',
    columns: [
      char('CUSTNMBR', 15),
      char('CUSTNAME', 65),
      char('CUSTCLAS', 15),
      char('CPRCSTNM', 15),
      char('CNTCPRSN', 61),
      char('STMTNAME', 65),
      char('SHRTNAME', 15),
      char('ADRSCODE', 15),
      char('UPSZONE', 3),
      char('SHIPMTHD', 15),
      char('TAXSCHID', 15),
      ...customerContact,
      char('CCode', 7),
      char('PRBTADCD', 15),
      char('PRSTADCD', 15),
      char('STADDRCD', 15),
      char('SLPRSNID', 15),
      char('CHEKBKID', 15),
      char('PYMTRMID', 21),
      smallint('CRLMTTYP'),
      numeric('CRLMTAMT'),
      char('CURNCYID', 15),
      char('PRCLEVEL', 11),
      smallint('CUSTDISC'),
      char('SALSTERR', 15),
      tinyint('INACTIVE'),
      tinyint('HOLD'),
      datetime('CREATDDT'),
      datetime('MODIFDT'),
    ],
    primaryKey: ['CUSTNMBR'],
    hasRowTs: true,
    indexes: [['CUSTCLAS']],
  }),

  RM00102: table({
    name: 'RM00102',
    database: 'company',
    columns: [
      char('CUSTNMBR', 15),
      char('ADRSCODE', 15),
      char('SLPRSNID', 15),
      char('UPSZONE', 3),
      char('SHIPMTHD', 15),
      char('TAXSCHID', 15),
      char('CNTCPRSN', 61),
      ...customerContact,
      char('CCode', 7),
      char('LOCNCODE', 11),
      char('SALSTERR', 15),
      char('ShipToName', 65),
      datetime('CREATDDT'),
      datetime('MODIFDT'),
    ],
    primaryKey: ['CUSTNMBR', 'ADRSCODE'],
    hasRowTs: true,
    // The unique (CUSTNMBR, ADRSCODE) index cannot serve "a customer's addresses by DEX_ROW_ID";
    // this one can, because SQLite appends the rowid to every index entry.
    indexes: [['CUSTNMBR']],
    bumpsParentRowTs: { table: 'RM00101', key: ['CUSTNMBR'] },
  }),

  GL00100: table({
    name: 'GL00100',
    database: 'company',
    columns: [
      int('ACTINDX'),
      ...accountSegments,
      char('ACTALIAS', 21),
      smallint('ACCTTYPE'),
      char('ACTDESCR', 51),
      smallint('PSTNGTYP'),
      smallint('ACCATNUM'),
      tinyint('ACTIVE'),
      smallint('TPCLBLNC'),
      datetime('CREATDDT'),
      datetime('MODIFDT'),
    ],
    primaryKey: ['ACTINDX'],
    hasRowTs: true,
  }),

  GL00105: table({
    name: 'GL00105',
    database: 'company',
    columns: [int('ACTINDX'), ...accountSegments, char('ACTNUMST', 129)],
    primaryKey: ['ACTINDX'],
    hasRowTs: false,
    indexes: [['ACTNUMST']],
  }),

  GL20000: table({
    name: 'GL20000',
    database: 'company',
    columns: glTransactionColumns('OPENYEAR'),
    primaryKey: [DEX_ROW_ID],
    hasRowTs: true,
    indexes: [['ACTINDX'], ['JRNENTRY'], ['TRXDATE']],
  }),

  GL30000: table({
    name: 'GL30000',
    database: 'company',
    columns: glTransactionColumns('HSTYEAR'),
    primaryKey: [DEX_ROW_ID],
    hasRowTs: true,
    indexes: [['ACTINDX'], ['JRNENTRY'], ['TRXDATE']],
  }),

  SY40101: table({
    name: 'SY40101',
    database: 'company',
    columns: [smallint('YEAR1'), datetime('FSTFSCDY'), datetime('LSTFSCDY'), smallint('NUMOFPER'), tinyint('HISTORYR')],
    primaryKey: ['YEAR1'],
    hasRowTs: true,
  }),
} satisfies Record<string, GpTable>;

export type GpTableName = keyof typeof GP_TABLES;

/** The tables of one kind of database, in declaration order. */
export function gpTablesOf(database: GpTable['database']): GpTable[] {
  return Object.values(GP_TABLES).filter((t) => t.database === database);
}
