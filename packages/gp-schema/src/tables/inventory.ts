/**
 * Inventory (IV): sites (IV40700), items (IV00101) and their quantities per site (IV00102).
 */
import { char, datetime, int, numeric, smallint, table, tinyint } from '../gpTable.ts';
import { vendorAddress } from './columns.ts';

export const IV40700 = table({
  name: 'IV40700',
  database: 'company',
  columns: [
    char('LOCNCODE', 11),
    char('LOCNDSCR', 31),
    numeric('NOTEINDX'),
    ...vendorAddress,
    char('PHONE1', 21),
    char('PHONE2', 21),
    char('PHONE3', 21),
    char('FAXNUMBR', 21),
    char('Location_Segment', 67),
    char('STAXSCHD', 15),
    char('PCTAXSCH', 15),
    tinyint('INCLDDINPLNNNG'),
    char('PORECEIPTBIN', 15),
    char('PORETRNBIN', 15),
    char('SOFULFILLMENTBIN', 15),
    char('SORETURNBIN', 15),
    tinyint('WMSINT'),
    smallint('PICKTICKETSITEOPT'),
    smallint('BINBREAK'),
    char('CCode', 7),
    char('DECLID', 15),
    tinyint('INACTIVE'),
  ],
  primaryKey: ['LOCNCODE'],
  hasRowTs: false,
});

export const IV00101 = table({
  name: 'IV00101',
  database: 'company',
  // Left out: most of the per-item GL account indexes, user category values 3-6, planning columns.
  columns: [
    char('ITEMNMBR', 31),
    char('ITEMDESC', 101),
    numeric('NOTEINDX'),
    char('ITMSHNAM', 15),
    smallint('ITEMTYPE'),
    char('ITMGEDSC', 11),
    numeric('STNDCOST'),
    numeric('CURRCOST'),
    int('ITEMSHWT'),
    smallint('DECPLQTY'),
    smallint('DECPLCUR'),
    char('ITMTSHID', 15),
    smallint('TAXOPTNS'),
    int('IVIVINDX'),
    int('IVCOGSIX'),
    int('IVSLSIDX'),
    char('ITMCLSCD', 11),
    smallint('ITMTRKOP'),
    char('LOTTYPE', 11),
    tinyint('KPERHIST'),
    tinyint('KPTRXHST'),
    tinyint('KPCALHST'),
    tinyint('KPDSTHST'),
    tinyint('ALWBKORD'),
    smallint('VCTNMTHD'),
    char('UOMSCHDL', 11),
    char('ALTITEM1', 31),
    char('ALTITEM2', 31),
    char('USCATVLS_1', 11),
    char('USCATVLS_2', 11),
    smallint('MSTRCDTY'),
    datetime('MODIFDT'),
    datetime('CREATDDT'),
    smallint('WRNTYDYS'),
    char('PRCLEVEL', 11),
    char('LOCNCODE', 11),
    char('ITEMCODE', 15),
    char('TCC', 31),
    char('PriceGroup', 11),
    smallint('PRICMTHD'),
    char('PRCHSUOM', 9),
    char('SELNGUOM', 9),
    smallint('KTACCTSR'),
    char('LASTGENSN', 21),
    smallint('ABCCODE'),
    tinyint('Revalue_Inventory'),
    int('Tolerance_Percentage'),
    char('Purchase_Item_Tax_Schedu', 15),
    smallint('Purchase_Tax_Options'),
    smallint('ITMPLNNNGTYP'),
    smallint('STTSTCLVLPRCNTG'),
    char('CNTRYORGN', 7),
    tinyint('INACTIVE'),
    smallint('MINSHELF1'),
    smallint('MINSHELF2'),
    tinyint('INCLUDEINDP'),
    tinyint('LOTEXPWARN'),
    smallint('LOTEXPWARNDAYS'),
    char('LASTGENLOT', 21),
    numeric('Lot_Split_Quantity'),
  ],
  primaryKey: ['ITEMNMBR'],
  hasRowTs: true,
});

export const IV00102 = table({
  name: 'IV00102',
  database: 'company',
  // RCRDTYPE 1 is the all-sites row (LOCNCODE blank), 2 a site row. Left out: planning and bin
  // defaults, and the LSTCNTTM/NXTCNTTM time columns.
  columns: [
    char('ITEMNMBR', 31),
    char('LOCNCODE', 11),
    char('BINNMBR', 21),
    smallint('RCRDTYPE'),
    char('PRIMVNDR', 15),
    tinyint('ITMFRFLG'),
    numeric('BGNGQTY'),
    numeric('LSORDQTY'),
    numeric('LRCPTQTY'),
    datetime('LSTORDDT'),
    char('LSORDVND', 15),
    datetime('LSRCPTDT'),
    numeric('QTYRQSTN'),
    numeric('QTYONORD'),
    numeric('QTYBKORD'),
    numeric('QTY_Drop_Shipped'),
    numeric('QTYINUSE'),
    numeric('QTYINSVC'),
    numeric('QTYRTRND'),
    numeric('QTYDMGED'),
    numeric('QTYONHND'),
    numeric('ATYALLOC'),
    numeric('QTYCOMTD'),
    numeric('QTYSOLD'),
    datetime('NXTCNTDT'),
    datetime('LSTCNTDT'),
    smallint('STCKCNTINTRVL'),
    char('BUYERID', 15),
    char('PLANNERID', 15),
    smallint('ORDERPOLICY'),
    numeric('FXDORDRQTY'),
    numeric('ORDRPNTQTY'),
    numeric('ORDRUPTOLVL'),
    numeric('SFTYSTCKQTY'),
    tinyint('INACTIVE'),
  ],
  primaryKey: ['ITEMNMBR', 'RCRDTYPE', 'LOCNCODE'],
  hasRowTs: false,
  bumpsParentRowTs: { table: 'IV00101', key: ['ITEMNMBR'] },
});

/**
 * Unit of measure schedules (IV40201) and their units (IV40202): a sales line's unit must be one of
 * its item's schedule (IV00101.UOMSCHDL; taSopLineIvcInsert error 5313).
 */
export const IV40201 = table({
  name: 'IV40201',
  database: 'company',
  columns: [char('UOMSCHDL', 11), char('UMSCHDSC', 31), numeric('NOTEINDX'), char('BASEUOFM', 9), smallint('UMDPQTYS')],
  primaryKey: ['UOMSCHDL'],
  hasRowTs: true,
});

export const IV40202 = table({
  name: 'IV40202',
  database: 'company',
  columns: [
    char('UOMSCHDL', 11),
    char('UOFM', 9),
    int('SEQNUMBR'),
    char('EQUIVUOM', 9),
    numeric('EQUOMQTY'),
    numeric('QTYBSUOM'),
    char('UOFMLONGDESC', 255),
  ],
  primaryKey: ['UOMSCHDL', 'SEQNUMBR'],
  hasRowTs: true,
  // GP's zDT_IV40202C/D/U triggers stamp the schedule's IV40201 row when its units change.
  bumpsParentRowTs: { table: 'IV40201', key: ['UOMSCHDL'] },
});

/** Price levels (IV40800): a sales line's price level must be one (taSopLineIvcInsert error 928). */
export const IV40800 = table({
  name: 'IV40800',
  database: 'company',
  columns: [char('PRCLEVEL', 11), char('DSCRIPTN', 31), numeric('NOTEINDX'), datetime('CREATDDT'), datetime('MODIFDT')],
  primaryKey: ['PRCLEVEL'],
  hasRowTs: true,
});

/**
 * Item prices per price level, currency ('' for every currency), unit and quantity band (IV00108):
 * a sales line's price level needs a price of its item in its unit (taSopLineIvcInsert error 9177).
 *
 */
export const IV00108 = table({
  name: 'IV00108',
  database: 'company',
  columns: [
    char('ITEMNMBR', 31),
    char('CURNCYID', 15),
    char('PRCLEVEL', 11),
    char('UOFM', 9),
    numeric('TOQTY'),
    numeric('FROMQTY'),
    numeric('UOMPRICE'),
    numeric('QTYBSUOM'),
  ],
  primaryKey: ['ITEMNMBR', 'CURNCYID', 'PRCLEVEL', 'UOFM', 'TOQTY'],
  hasRowTs: true,
});
