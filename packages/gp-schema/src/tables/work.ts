/**
 * The tables a write fills (docs/decisions.md#writes): the unposted work tables eConnect writes
 * documents into, a customer's summary row, and GP's numbering setup, from which documents take
 * their next numbers so that a number the API takes is one GP itself would have given. Columns are
 * GP's (GP 2015 DDL) in GP's order, but of these wide tables only those the API writes, reads or
 * GP's indexes name; the others take GP's bound defaults (blanks, 0, 1900-01-01).
 */
import { char, datetime, int, numeric, smallint, table, tinyint } from '../gpTable.ts';

/** The customer's balance and aging summary; eConnect inserts it with every new customer. Part of its columns. */
export const RM00103 = table({
  name: 'RM00103',
  database: 'company',
  columns: [
    char('CUSTNMBR', 15),
    numeric('CUSTBLNC'),
    numeric('AGPERAMT_1'),
    numeric('AGPERAMT_2'),
    numeric('AGPERAMT_3'),
    numeric('AGPERAMT_4'),
    numeric('AGPERAMT_5'),
    numeric('AGPERAMT_6'),
    numeric('AGPERAMT_7'),
  ],
  primaryKey: ['CUSTNMBR'],
  hasRowTs: false,
});

/** Unposted receivables transactions (taRMTransaction). DOCTYPE is the work type, RMDTYPAL the API's type. */
export const RM10301 = table({
  name: 'RM10301',
  database: 'company',
  columns: [
    smallint('DOCTYPE'),
    smallint('RMDTYPAL'),
    char('RMDNUMWK', 17),
    char('DOCNUMBR', 21),
    char('DOCDESCR', 31),
    datetime('DOCDATE'),
    char('BACHNUMB', 15),
    char('BCHSOURC', 15),
    char('CUSTNMBR', 15),
    char('CUSTNAME', 65),
    char('ADRSCODE', 15),
    char('SLPRSNID', 15),
    char('SALSTERR', 15),
    char('CSTPONBR', 21),
    numeric('SLSAMNT'),
    numeric('FRTAMNT'),
    numeric('MISCAMNT'),
    numeric('TAXAMNT'),
    numeric('DOCAMNT'),
    char('PYMTRMID', 21),
    datetime('DUEDATE'),
    char('CURNCYID', 15),
    datetime('LSTEDTDT'),
    char('LSTUSRED', 15),
    datetime('GLPOSTDT'),
    smallint('PSTGSTUS'),
  ],
  primaryKey: ['RMDTYPAL', 'RMDNUMWK'],
  hasRowTs: true,
});

/** Unposted payables transactions (taPMTransactionInsert). */
export const PM10000 = table({
  name: 'PM10000',
  database: 'company',
  columns: [
    char('BACHNUMB', 15),
    char('BCHSOURC', 15),
    char('VCHNUMWK', 17),
    char('VENDORID', 15),
    char('DOCNUMBR', 21),
    smallint('DOCTYPE'),
    char('SOURCDOC', 11),
    numeric('DOCAMNT'),
    datetime('DOCDATE'),
    datetime('PSTGDATE'),
    char('PYMTRMID', 21),
    datetime('DUEDATE'),
    numeric('PRCHAMNT'),
    char('CURNCYID', 15),
    char('TRXDSCRN', 31),
    numeric('TAXAMNT'),
    numeric('FRTAMNT'),
    // The 1099 amount and what of it is unpaid (taPMTransactionInsert sets both to @I_vTEN99AMNT).
    numeric('TEN99AMNT'),
    numeric('UN1099AM'),
    numeric('MSCCHAMT'),
    numeric('CURTRXAM'),
    char('VCHRNMBR', 21),
    smallint('CNTRLTYP'),
    datetime('MODIFDT'),
    char('MDFUSRID', 15),
  ],
  primaryKey: ['BCHSOURC', 'BACHNUMB', 'VCHNUMWK'],
  hasRowTs: true,
});

/** Unposted journal entry headers (taGLTransactionHeaderInsert). */
export const GL10000 = table({
  name: 'GL10000',
  database: 'company',
  columns: [
    char('BACHNUMB', 15),
    char('BCHSOURC', 15),
    int('JRNENTRY'),
    char('SOURCDOC', 11),
    char('REFRENCE', 31),
    datetime('TRXDATE'),
    char('LASTUSER', 15),
    datetime('LSTDTEDT'),
    smallint('TRXTYPE'),
    smallint('SERIES'),
    char('CURNCYID', 15),
    smallint('OPENYEAR'),
    datetime('DOCDATE'),
    smallint('Ledger_ID'),
  ],
  primaryKey: ['BCHSOURC', 'BACHNUMB', 'JRNENTRY'],
  hasRowTs: true,
});

/** Unposted journal entry lines (taGLTransactionLineInsert). */
export const GL10001 = table({
  name: 'GL10001',
  database: 'company',
  columns: [
    char('BACHNUMB', 15),
    int('JRNENTRY'),
    numeric('SQNCLINE'),
    int('ACTINDX'),
    char('DSCRIPTN', 31),
    smallint('ACCTTYPE'),
    numeric('DEBITAMT'),
    numeric('CRDTAMNT'),
    char('ORDOCNUM', 21),
    char('ORMSTRID', 31),
    numeric('ORDBTAMT'),
    numeric('ORCRDAMT'),
  ],
  primaryKey: ['JRNENTRY', 'SQNCLINE'],
  hasRowTs: true,
});

/**
 * Sales document ids per type; SOPNUMBE is the next number of the id (taGetSopNumber). An id whose
 * SOPNUMBE is blank and USNXTINV 1 takes the number of the invoice id USDOCID1 names. Part of its columns.
 */
export const SOP40200 = table({
  name: 'SOP40200',
  database: 'company',
  columns: [
    char('DOCID', 15),
    smallint('SOPTYPE'),
    smallint('SETUPKEY'),
    char('DOCTYABR', 3),
    char('SOPNUMBE', 21),
    tinyint('USNXTINV'),
    char('USDOCID1', 15),
    datetime('CREATDDT'),
    datetime('MODIFDT'),
  ],
  primaryKey: ['SOPTYPE', 'DOCID'],
  hasRowTs: false,
});

/** Receivables document types; DOCNUMBR is the type's next document number. */
export const RM40401 = table({
  name: 'RM40401',
  database: 'company',
  columns: [smallint('RMDTYPAL'), char('DOCDESCR', 31), char('DOCABREV', 3), char('DOCNUMBR', 21), smallint('SETUPKEY')],
  primaryKey: ['RMDTYPAL'],
  hasRowTs: false,
});

/** Payables setup, one row; NTVCHNUM is the next voucher number (taGetPMNextVoucherNumber). Part of its columns. */
export const PM40100 = table({
  name: 'PM40100',
  database: 'company',
  columns: [char('UNIQKEY', 1), char('NTVCHNUM', 17), char('PMNPYNBR', 21), char('NXTVNDID', 15)],
  primaryKey: ['UNIQKEY'],
  hasRowTs: false,
});

/** General ledger setup, one row; NJRNLENT is the next journal entry (taGetNextJournalEntry). Part of its columns. */
export const GL40000 = table({
  name: 'GL40000',
  database: 'company',
  columns: [char('UNIQKEY', 1), int('NJRNLENT'), int('RERINDX'), datetime('LSTCLSDT')],
  primaryKey: ['UNIQKEY'],
  hasRowTs: true,
});

/**
 * Receivables distributions of unposted documents: the GL lines taRMTransaction writes with each
 * document (CREATEDIST 1, through taRMDistributionCreate). All of GP 2015's columns.
 */
export const RM10101 = table({
  name: 'RM10101',
  database: 'company',
  columns: [
    char('TRXSORCE', 13),
    tinyint('POSTED'),
    datetime('POSTEDDT'),
    smallint('PSTGSTUS'),
    tinyint('CHANGED'),
    char('DOCNUMBR', 21),
    smallint('DCSTATUS'),
    smallint('DISTTYPE'),
    smallint('RMDTYPAL'),
    int('SEQNUMBR'),
    char('CUSTNMBR', 15),
    int('DSTINDX'),
    numeric('DEBITAMT'),
    numeric('CRDTAMNT'),
    char('PROJCTID', 15),
    char('USERID', 15),
    smallint('CATEGUSD'),
    char('CURNCYID', 15),
    smallint('CURRNIDX'),
    numeric('ORCRDAMT'),
    numeric('ORDBTAMT'),
    char('DistRef', 31),
  ],
  primaryKey: ['USERID', 'PSTGSTUS', 'RMDTYPAL', 'DOCNUMBR', 'SEQNUMBR'],
  hasRowTs: false,
});

/**
 * Payables distributions of unposted vouchers: the GL lines taPMTransactionInsert writes with each
 * document (CREATEDIST 1, through taPMDistributionCreate). All of GP 2015's columns; XCHGRATE and
 * DENXRATE are numeric(19,7) in GP, declared with the vocabulary's numeric(19,5) (the API never
 * writes a rate other than GP's default).
 */
export const PM10100 = table({
  name: 'PM10100',
  database: 'company',
  columns: [
    char('VCHRNMBR', 21),
    int('DSTSQNUM'),
    smallint('CNTRLTYP'),
    numeric('CRDTAMNT'),
    numeric('DEBITAMT'),
    int('DSTINDX'),
    smallint('DISTTYPE'),
    tinyint('CHANGED'),
    char('USERID', 15),
    smallint('PSTGSTUS'),
    char('VENDORID', 15),
    char('TRXSORCE', 13),
    datetime('PSTGDATE'),
    char('INTERID', 5),
    char('CURNCYID', 15),
    smallint('CURRNIDX'),
    numeric('ORCRDAMT'),
    numeric('ORDBTAMT'),
    char('APTVCHNM', 21),
    smallint('APTODCTY'),
    smallint('SPCLDIST'),
    char('DistRef', 31),
    char('RATETPID', 15),
    char('EXGTBLID', 15),
    numeric('XCHGRATE'),
    datetime('EXCHDATE'),
    datetime('TIME1'),
    smallint('RTCLCMTD'),
    smallint('DECPLACS'),
    datetime('EXPNDATE'),
    char('ICCURRID', 15),
    smallint('ICCURRIX'),
    numeric('DENXRATE'),
    smallint('MCTRXSTT'),
    char('CorrespondingUnit', 5),
  ],
  primaryKey: ['VCHRNMBR', 'CNTRLTYP', 'APTVCHNM', 'SPCLDIST', 'DSTSQNUM'],
  hasRowTs: false,
});

/**
 * Posting accounts setup: the account GP posts each kind of amount of a series to (SERIES 3 sales,
 * 4 purchasing; SEQNUMBR names the kind, e.g. 100 Accounts Receivable, 1100 Sales, 200 Accounts
 * Payable, 600 Purchases), used when the customer or vendor names no account of its own.
 */
export const SY01100 = table({
  name: 'SY01100',
  database: 'company',
  columns: [smallint('SERIES'), int('SEQNUMBR'), int('ACTINDX'), char('PTGACDSC', 31)],
  primaryKey: ['SERIES', 'SEQNUMBR'],
  hasRowTs: false,
});

/**
 * Sales document setup per type: SOPNUMBE is the type's next number, which taGetSopNumber takes
 * when the document id's own SOP40200.SOPNUMBE is blank.
 */
export const SOP40300 = table({
  name: 'SOP40300',
  database: 'company',
  columns: [
    smallint('SOPTYPE'),
    char('DOCTYABR', 3),
    char('DOCTYNAM', 21),
    char('SOPNUMBE', 21),
    smallint('DOCUFORM'),
    smallint('SETUPKEY'),
  ],
  primaryKey: ['SOPTYPE'],
  hasRowTs: false,
});
