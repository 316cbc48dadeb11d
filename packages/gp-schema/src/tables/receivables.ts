/**
 * Receivables Management (RM): customers (RM00101) and their addresses (RM00102), salespeople
 * (RM00301), and posted documents, open (RM20101) and history (RM30101).
 */
import { char, datetime, numeric, smallint, table, tinyint, type GpColumn } from '../gpTable.ts';
import { addressLines } from './columns.ts';

/**
 * Customer tables spell these ZIP/PHONE1/FAX and put COUNTRY before CITY (vendor tables use
 * ZIPCODE/PHNUMBR1/FAXNUMBR and site tables ZIPCODE/PHONE1/FAXNUMBR, both with COUNTRY after ZIPCODE).
 */
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

/**
 * RM20101 (open) and RM30101 (history) hold the same documents in slightly different columns: only
 * RM20101 has the checkbook ids, AGNGBUKT and DISAVTKN, only RM30101 BALFWDNM, and CSHRCTYP, the
 * schedule ids and the backout amounts come in a different order.
 */
function receivablesColumns(history: boolean): GpColumn[] {
  const checkbooks = history ? [] : [char('CBKIDCRD', 15), char('CBKIDCSH', 15), char('CBKIDCHK', 15)];
  const receiptTypeOpen = history ? [] : [smallint('CSHRCTYP')];
  const schedulesOpen = history
    ? []
    : [
        smallint('AGNGBUKT'),
        smallint('VOIDSTTS'),
        datetime('VOIDDATE'),
        char('TAXSCHID', 15),
        char('CURNCYID', 15),
        char('PYMTRMID', 21),
        char('SHIPMTHD', 15),
        numeric('TRDISAMT'),
        char('SLSCHDID', 15),
        char('FRTSCHID', 15),
        char('MSCSCHID', 15),
        numeric('NOTEINDX'),
      ];
  const schedulesHistory = history
    ? [
        char('TAXSCHID', 15),
        char('SLSCHDID', 15),
        char('FRTSCHID', 15),
        char('MSCSCHID', 15),
        char('CURNCYID', 15),
        char('SHIPMTHD', 15),
        char('PYMTRMID', 21),
        numeric('TRDISAMT'),
        numeric('NOTEINDX'),
        smallint('VOIDSTTS'),
        datetime('VOIDDATE'),
        char('BALFWDNM', 21),
        smallint('CSHRCTYP'),
      ]
    : [];
  return [
    char('CUSTNMBR', 15),
    char('CPRCSTNM', 15),
    char('DOCNUMBR', 21),
    char('CHEKNMBR', 21),
    char('BACHNUMB', 15),
    char('BCHSOURC', 15),
    char('TRXSORCE', 13),
    smallint('RMDTYPAL'),
    ...receiptTypeOpen,
    ...checkbooks,
    datetime('DUEDATE'),
    datetime('DOCDATE'),
    datetime('POSTDATE'),
    char('PSTUSRID', 15),
    datetime('GLPOSTDT'),
    datetime('LSTEDTDT'),
    char('LSTUSRED', 15),
    numeric('ORTRXAMT'),
    numeric('CURTRXAM'),
    numeric('SLSAMNT'),
    numeric('COSTAMNT'),
    numeric('FRTAMNT'),
    numeric('MISCAMNT'),
    numeric('TAXAMNT'),
    numeric('COMDLRAM'),
    numeric('CASHAMNT'),
    numeric('DISTKNAM'),
    numeric('DISAVAMT'),
    ...(history ? [] : [numeric('DISAVTKN')]),
    numeric('DISCRTND'),
    datetime('DISCDATE'),
    numeric('DSCDLRAM'),
    smallint('DSCPCTAM'),
    numeric('WROFAMNT'),
    char('TRXDSCRN', 31),
    char('CSPORNBR', 21),
    char('SLPRSNID', 15),
    char('SLSTERCD', 15),
    datetime('DINVPDOF'),
    numeric('PPSAMDED'),
    numeric('GSTDSAMT'),
    tinyint('DELETE1'),
    ...schedulesOpen,
    ...schedulesHistory,
    datetime('Tax_Date'),
    tinyint('APLYWITH'),
    datetime('SALEDATE'),
    tinyint('CORRCTN'),
    tinyint('SIMPLIFD'),
    tinyint('Electronic'),
    tinyint('ECTRX'),
    numeric('BKTSLSAM'),
    ...(history
      ? [numeric('BackoutTradeDisc'), numeric('BKTFRTAM'), numeric('BKTMSCAM')]
      : [numeric('BKTFRTAM'), numeric('BKTMSCAM'), numeric('BackoutTradeDisc')]),
    tinyint('Factoring'),
    tinyint('DIRECTDEBIT'),
    char('ADRSCODE', 15),
    tinyint('EFTFLAG'),
  ];
}

export const RM00101 = table({
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
    // Columns GP indexes (AK8RM00101, AK4RM00101); the API does not read them.
    char('TXRGNNUM', 25),
    char('USERDEF1', 21),
  ],
  primaryKey: ['CUSTNMBR'],
  hasRowTs: true,
});

export const RM00102 = table({
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
  bumpsParentRowTs: { table: 'RM00101', key: ['CUSTNMBR'] },
});

export const RM00301 = table({
  name: 'RM00301',
  database: 'company',
  columns: [
    char('SLPRSNID', 15),
    char('EMPLOYID', 15),
    char('VENDORID', 15),
    char('SLPRSNFN', 15),
    char('SPRSNSMN', 15),
    char('SPRSNSLN', 21),
    ...addressLines,
    char('CITY', 35),
    char('STATE', 29),
    char('ZIP', 11),
    char('COUNTRY', 61),
    char('PHONE1', 21),
    char('PHONE2', 21),
    char('PHONE3', 21),
    char('FAX', 21),
    tinyint('INACTIVE'),
    char('SALSTERR', 15),
    char('COMMCODE', 15),
    smallint('COMPRCNT'),
    smallint('STDCPRCT'),
    smallint('COMAPPTO'),
    numeric('COSTTODT'),
    numeric('CSTLSTYR'),
    numeric('TTLCOMTD'),
    numeric('TTLCOMLY'),
    numeric('COMSLTDT'),
    numeric('COMSLLYR'),
    numeric('NCOMSLTD'),
    numeric('NCOMSLYR'),
    tinyint('KPCALHST'),
    tinyint('KPERHIST'),
    numeric('NOTEINDX'),
    datetime('MODIFDT'),
    datetime('CREATDDT'),
    smallint('COMMDEST'),
  ],
  primaryKey: ['SLPRSNID'],
  hasRowTs: true,
});

export const RM20101 = table({
  name: 'RM20101',
  database: 'company',
  columns: receivablesColumns(false),
  primaryKey: ['CUSTNMBR', 'RMDTYPAL', 'DOCNUMBR'],
  hasRowTs: true,
  // (RMDTYPAL, DOCNUMBR) is GP's AK4: the API's ids are <type>:<documentNumber>, without the customer.
});

export const RM30101 = table({
  name: 'RM30101',
  database: 'company',
  columns: receivablesColumns(true),
  primaryKey: ['CUSTNMBR', 'RMDTYPAL', 'DOCNUMBR'],
  hasRowTs: true,
  // (RMDTYPAL, DOCNUMBR) is GP's AK4: the API's ids are <type>:<documentNumber>, without the customer.
});
