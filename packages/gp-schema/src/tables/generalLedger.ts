/**
 * General Ledger (GL): accounts (GL00100, with their formatted numbers in GL00105) and journal
 * lines, open years (GL20000) and history years (GL30000).
 */
import { DEX_ROW_ID, char, datetime, int, numeric, smallint, table, tinyint, type GpColumn } from '../gpTable.ts';

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
    int('Back_Out_JE'),
    // 1 is the base ledger; GP 2013 and later also post reporting ledgers (IFRS, tax) here.
    smallint('Ledger_ID'),
    // GP indexes it (AK4GL20000, AK4GL30000).
    smallint('QKOFSET'),
  ];
}

export const GL00100 = table({
  name: 'GL00100',
  database: 'company',
  columns: [
    int('ACTINDX'),
    ...accountSegments,
    char('ACTALIAS', 21),
    char('MNACSGMT', 67),
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
});

export const GL00105 = table({
  name: 'GL00105',
  database: 'company',
  columns: [int('ACTINDX'), ...accountSegments, char('ACTNUMST', 129)],
  primaryKey: ['ACTINDX'],
  hasRowTs: false,
});

export const GL20000 = table({
  name: 'GL20000',
  database: 'company',
  columns: glTransactionColumns('OPENYEAR'),
  primaryKey: [DEX_ROW_ID],
  hasRowTs: true,
});

export const GL30000 = table({
  name: 'GL30000',
  database: 'company',
  columns: glTransactionColumns('HSTYEAR'),
  primaryKey: [DEX_ROW_ID],
  hasRowTs: true,
});
