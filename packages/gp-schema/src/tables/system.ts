/**
 * System tables (SY): the company list and the account framework in the system database (SY01500,
 * SY003001, SY00302; DYNAMICS unless GP was installed with a named one, the agent's
 * GP_SYSTEM_DATABASE), and in each company database the
 * fiscal calendar (SY40101 years, SY40100 periods), payment terms (SY03300) and batches (SY00500).
 */
import { char, datetime, int, numeric, smallint, table, tinyint, type GpTable } from '../gpTable.ts';
import { addressLines } from './columns.ts';

export const SY01500 = table({
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
});

/** The account framework's size: the longest account number and the number of segments (one row). */
export const SY003001 = table({
  name: 'SY003001',
  database: 'system',
  columns: [smallint('MXLACNUM'), smallint('MXNUMSEG')],
  primaryKey: ['MXLACNUM'],
  hasRowTs: false,
});

/** The account framework's segments, one row each: its number, name and length. */
export const SY00302 = table({
  name: 'SY00302',
  database: 'system',
  columns: [smallint('SGMTNUMB'), char('SGMTNAME', 15), smallint('SGMNTLTH'), smallint('USDFSGKY')],
  primaryKey: ['SGMTNUMB'],
  hasRowTs: false,
});

export const SY40101 = table({
  name: 'SY40101',
  database: 'company',
  columns: [smallint('YEAR1'), datetime('FSTFSCDY'), datetime('LSTFSCDY'), smallint('NUMOFPER'), tinyint('HISTORYR')],
  primaryKey: ['YEAR1'],
  hasRowTs: true,
});

export const SY40100 = table({
  name: 'SY40100',
  database: 'company',
  columns: [
    tinyint('CLOSED'),
    smallint('SERIES'),
    char('ODESCTN', 51),
    tinyint('FORIGIN'),
    smallint('PERIODID'),
    datetime('PERIODDT'),
    char('PERNAME', 21),
    tinyint('PSERIES_1'),
    tinyint('PSERIES_2'),
    tinyint('PSERIES_3'),
    tinyint('PSERIES_4'),
    tinyint('PSERIES_5'),
    tinyint('PSERIES_6'),
    smallint('YEAR1'),
    datetime('PERDENDT'),
  ],
  primaryKey: ['FORIGIN', 'YEAR1', 'PERIODID', 'SERIES', 'ODESCTN'],
  hasRowTs: true,
});

export const SY03300 = table({
  name: 'SY03300',
  database: 'company',
  columns: [
    char('PYMTRMID', 21),
    smallint('DUETYPE'),
    smallint('DUEDTDS'),
    smallint('DISCTYPE'),
    smallint('DISCDTDS'),
    smallint('DSCLCTYP'),
    numeric('DSCDLRAM'),
    smallint('DSCPCTAM'),
    tinyint('SALPURCH'),
    tinyint('DISCNTCB'),
    tinyint('FREIGHT'),
    tinyint('MISC'),
    tinyint('TAX'),
    numeric('NOTEINDX'),
    tinyint('CBUVATMD'),
    char('LSTUSRED', 15),
    datetime('MODIFDT'),
    datetime('CREATDDT'),
    tinyint('USEGRPER'),
    smallint('CalculateDateFrom'),
    smallint('CalculateDateFromDays'),
    smallint('DueMonth'),
    smallint('DiscountMonth'),
  ],
  primaryKey: ['PYMTRMID'],
  hasRowTs: false,
});

export const SY00500 = table({
  name: 'SY00500',
  database: 'company',
  // Left out: the binary(4) error/validation masks (BCHEMSG1/2, GLBCHVAL) and the TIME1 time column.
  columns: [
    datetime('GLPOSTDT'),
    char('BCHSOURC', 15),
    char('BACHNUMB', 15),
    smallint('SERIES'),
    tinyint('MKDTOPST'),
    int('NUMOFTRX'),
    smallint('RECPSTGS'),
    tinyint('DELBACH'),
    smallint('MSCBDINC'),
    smallint('BACHFREQ'),
    datetime('RCLPSTDT'),
    smallint('NOFPSTGS'),
    char('BCHCOMNT', 61),
    tinyint('BRKDNALL'),
    tinyint('CHKSPRTD'),
    tinyint('RVRSBACH'),
    char('USERID', 15),
    char('CHEKBKID', 15),
    numeric('BCHTOTAL'),
    datetime('BACHDATE'),
    char('BCHSTRG1', 21),
    char('BCHSTRG2', 21),
    tinyint('POSTTOGL'),
    datetime('MODIFDT'),
    datetime('CREATDDT'),
    numeric('NOTEINDX'),
    char('CURNCYID', 15),
    smallint('BCHSTTUS'),
    int('CNTRLTRX'),
    numeric('CNTRLTOT'),
    smallint('PETRXCNT'),
    tinyint('APPROVL'),
    datetime('APPRVLDT'),
    char('APRVLUSERID', 15),
    smallint('ORIGIN'),
    int('ERRSTATE'),
    datetime('Computer_Check_Doc_Date'),
    smallint('Sort_Checks_By'),
    tinyint('SEPRMTNC'),
    smallint('REPRNTED'),
    smallint('CHKFRMTS'),
    char('TRXSORCE', 13),
    smallint('PmtMethod'),
    smallint('EFTFileFormat'),
    smallint('Workflow_Approval_Status'),
    smallint('Workflow_Priority'),
    smallint('Workflow_Status'),
    tinyint('ClearRecAmts'),
    tinyint('PurchasingPrepaymentBch'),
    char('CARDNAME', 15),
  ],
  primaryKey: ['BCHSOURC', 'BACHNUMB'],
  hasRowTs: false,
});

/**
 * The currency list, in the system database (gp-schema.md "Lookup joins"). Not in GP_TABLES: the
 * demo does not store it (the embedded writer has a stand-in rule for currencies); the writer reads
 * it on SQL Server to check a body's currency id before writing. Only the columns the agent names.
 */
export const MC40200: GpTable = {
  name: 'MC40200',
  database: 'system',
  columns: [char('CURNCYID', 15), smallint('CURRNIDX'), char('CRNCYDSC', 31), char('ISOCURRC', 3), smallint('DECPLCUR')],
  primaryKey: ['CURNCYID'],
  hasRowTs: true,
};
