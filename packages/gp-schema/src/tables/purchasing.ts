/**
 * Purchase Order Processing (POP): purchase orders, open (POP10100 headers, POP10110 lines) and
 * history (POP30100, POP30110).
 */
import { char, datetime, int, numeric, smallint, table, tinyint, type GpColumn } from '../gpTable.ts';
import { shipToAddress } from './columns.ts';

/**
 * POP10100 (open) / POP30100 (history) headers: the shared columns plus each table's own (on-order
 * amounts, HOLD, change-order columns and TXENGCLD only on POP10100, TRXSORCE only on POP30100).
 * There is no total column: GP's popCalcFunctionalPOTotal is
 * SUBTOTAL - TRDISAMT + FRTAMNT + MSCCHAMT + TAXAMNT.
 */
function purchaseOrderColumns(history: boolean): GpColumn[] {
  return [
    char('PONUMBER', 17),
    smallint('POSTATUS'),
    smallint('STATGRP'),
    smallint('POTYPE'),
    char('USER2ENT', 15),
    char('CONFIRM1', 21),
    datetime('DOCDATE'),
    datetime('LSTEDTDT'),
    datetime('LSTPRTDT'),
    datetime('PRMDATE'),
    datetime('PRMSHPDTE'),
    datetime('REQDATE'),
    datetime('REQTNDT'),
    char('SHIPMTHD', 15),
    char('TXRGNNUM', 25),
    numeric('REMSUBTO'),
    numeric('SUBTOTAL'),
    numeric('TRDISAMT'),
    numeric('FRTAMNT'),
    numeric('MSCCHAMT'),
    numeric('TAXAMNT'),
    char('VENDORID', 15),
    char('VENDNAME', 65),
    numeric('MINORDER'),
    char('VADCDPAD', 15),
    smallint('CMPANYID'),
    char('PRBTADCD', 15),
    char('PRSTADCD', 15),
    char('CMPNYNAM', 65),
    char('CONTACT', 61),
    ...shipToAddress,
    char('PHONE1', 21),
    char('PHONE2', 21),
    char('PHONE3', 21),
    char('FAX', 21),
    char('PYMTRMID', 21),
    numeric('DSCDLRAM'),
    smallint('DSCPCTAM'),
    numeric('DISAMTAV'),
    datetime('DISCDATE'),
    datetime('DUEDATE'),
    char('CUSTNMBR', 15),
    smallint('TIMESPRT'),
    datetime('CREATDDT'),
    datetime('MODIFDT'),
    ...(history ? [char('TRXSORCE', 13)] : []),
    char('COMMNTID', 15),
    numeric('CANCSUB'),
    char('CURNCYID', 15),
    smallint('CURRNIDX'),
    char('RATETPID', 15),
    char('EXGTBLID', 15),
    datetime('EXCHDATE'),
    smallint('RATECALC'),
    smallint('MCTRXSTT'),
    numeric('OREMSUBT'),
    numeric('ORSUBTOT'),
    numeric('Originating_Canceled_Sub'),
    numeric('ORTDISAM'),
    numeric('ORFRTAMT'),
    numeric('OMISCAMT'),
    numeric('ORTAXAMT'),
    numeric('ORDDLRAT'),
    numeric('ODISAMTAV'),
    char('BUYERID', 15),
    ...(history
      ? []
      : [
          numeric('ONORDAMT'),
          numeric('ORORDAMT'),
          tinyint('HOLD'),
          datetime('ONHOLDDATE'),
          char('ONHOLDBY', 15),
          datetime('HOLDREMOVEDATE'),
          char('HOLDREMOVEBY', 15),
        ]),
    tinyint('ALLOWSOCMTS'),
    smallint('DISGRPER'),
    smallint('DUEGRPER'),
    smallint('Revision_Number'),
    ...(history ? [] : [smallint('Change_Order_Flag'), smallint('PO_Status_Orig')]),
    char('TAXSCHID', 15),
    smallint('TXSCHSRC'),
    ...(history ? [] : [tinyint('TXENGCLD')]),
    tinyint('BSIVCTTL'),
    smallint('Purchase_Freight_Taxable'),
    smallint('Purchase_Misc_Taxable'),
    char('FRTSCHID', 15),
    char('MSCSCHID', 15),
    numeric('FRTTXAMT'),
    numeric('ORFRTTAX'),
    numeric('MSCTXAMT'),
    numeric('ORMSCTAX'),
    numeric('BCKTXAMT'),
    numeric('OBTAXAMT'),
    smallint('Flags'),
    char('POPCONTNUM', 21),
    datetime('CONTENDDTE'),
    smallint('CNTRLBLKTBY'),
    smallint('Workflow_Approval_Status'),
    smallint('Workflow_Priority'),
    smallint('Workflow_Status'),
  ];
}

/**
 * POP10110 (open) / POP30110 (history) lines: POP30110 has no CURNCYID (only CURRNIDX), and has the
 * item tracking columns (ITMTRKOP, VCTNMTHD) last.
 */
function purchaseOrderLineColumns(history: boolean): GpColumn[] {
  const tracking = [smallint('ITMTRKOP'), smallint('VCTNMTHD')];
  return [
    char('PONUMBER', 17),
    int('ORD'),
    smallint('POLNESTA'),
    smallint('POTYPE'),
    char('ITEMNMBR', 31),
    char('ITEMDESC', 101),
    char('VENDORID', 15),
    char('VNDITNUM', 31),
    char('VNDITDSC', 101),
    smallint('NONINVEN'),
    char('LOCNCODE', 11),
    char('UOFM', 9),
    numeric('UMQTYINB'),
    numeric('QTYORDER'),
    numeric('QTYCANCE'),
    numeric('UNITCOST'),
    numeric('EXTDCOST'),
    int('INVINDX'),
    datetime('REQDATE'),
    datetime('PRMDATE'),
    datetime('PRMSHPDTE'),
    char('REQSTDBY', 21),
    char('COMMNTID', 15),
    smallint('DOCTYPE'),
    smallint('DECPLCUR'),
    smallint('DECPLQTY'),
    ...(history ? [] : tracking),
    smallint('BRKFLD1'),
    char('JOBNUMBR', 17),
    // GP indexes these (AK8POP10110, AK9POP10110, AK6POP30110); the API does not read them.
    ...(history ? [] : [numeric('QTYUNCMTBASE')]),
    smallint('Product_Indicator'),
    char('COSTCODE', 27),
    ...(history ? [] : [char('CURNCYID', 15)]),
    smallint('CURRNIDX'),
    numeric('ORUNTCST'),
    numeric('OREXTCST'),
    smallint('LINEORIGIN'),
    smallint('FREEONBOARD'),
    smallint('ODECPLCU'),
    numeric('TAXAMNT'),
    numeric('ORTAXAMT'),
    char('SHIPMTHD', 15),
    smallint('LineNumber'),
    datetime('ORIGPRMDATE'),
    datetime('FSTRCPTDT'),
    datetime('LSTRCPTDT'),
    smallint('RELEASE'),
    char('ADRSCODE', 15),
    // The line's ship-to address copy (CMPNYNAM .. FAX) is left out, as on SOP lines.
    smallint('ADDRSOURCE'),
    smallint('Flags'),
    ...(history ? tracking : []),
  ];
}

export const POP10100 = table({
  name: 'POP10100',
  database: 'company',
  columns: purchaseOrderColumns(false),
  primaryKey: ['PONUMBER'],
  hasRowTs: true,
});

export const POP10110 = table({
  name: 'POP10110',
  database: 'company',
  columns: purchaseOrderLineColumns(false),
  primaryKey: ['PONUMBER', 'ORD', 'BRKFLD1'],
  hasRowTs: true,
});

export const POP30100 = table({
  name: 'POP30100',
  database: 'company',
  columns: purchaseOrderColumns(true),
  primaryKey: ['PONUMBER'],
  hasRowTs: true,
});

export const POP30110 = table({
  name: 'POP30110',
  database: 'company',
  columns: purchaseOrderLineColumns(true),
  primaryKey: ['PONUMBER', 'ORD', 'BRKFLD1'],
  hasRowTs: true,
});
