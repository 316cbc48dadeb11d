/**
 * General Ledger (GL): accounts (GL00100, with their formatted numbers in GL00105) and journal
 * lines, open years (GL20000) and history years (GL30000).
 */
import { DEFAULT_ACCOUNT_FRAMEWORK, checkedAccountFramework, type AccountFramework } from '../accountFramework.ts';
import { accountIndexes } from '../gpIndexes.ts';
import { DEX_ROW_ID, char, datetime, int, numeric, smallint, table, tinyint, type GpColumn, type GpTable } from '../gpTable.ts';

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

/**
 * GL00100 and GL00105 as a GP install with this account framework has them: one segment column per
 * segment, char(SGMNTLTH), and GP's indexes on account numbers ending in all of them.
 */
export function accountTables(framework: AccountFramework): { GL00100: GpTable; GL00105: GpTable } {
  const segments = checkedAccountFramework(framework).segmentLengths.map((length, i) => char(`ACTNUMBR_${i + 1}`, length));
  const indexes = accountIndexes(segments.length);
  return {
    GL00100: table(
      {
        name: 'GL00100',
        database: 'company',
        columns: [
          int('ACTINDX'),
          ...segments,
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
      },
      indexes.GL00100,
    ),
    GL00105: table(
      {
        name: 'GL00105',
        database: 'company',
        columns: [int('ACTINDX'), ...segments, char('ACTNUMST', 129)],
        primaryKey: ['ACTINDX'],
        hasRowTs: false,
      },
      indexes.GL00105,
    ),
  };
}

/** The account tables of the GP 2015 sample the schema was scripted from (4 segments, char 5/5/3/3). */
export const { GL00100, GL00105 } = accountTables(DEFAULT_ACCOUNT_FRAMEWORK);

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
