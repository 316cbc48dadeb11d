/**
 * GP 2015's own primary keys and indexes of the tables gp-schema declares, column for column, as
 * scripted from a GP 2015 company and system database (the product's reference gp-indexes.md). The
 * demo database and the SQL Server test schema create exactly these and no others, so that every
 * plan the agent gets in tests and benchmarks is one it can get on a real GP install
 * (docs/decisions.md#keyset-paging-on-gps-own-indexes). GP tables are heaps unless an index here is
 * clustered; their primary keys are nonclustered indexes on business keys.
 */
import { accountSegmentNames, DEFAULT_ACCOUNT_FRAMEWORK } from './accountFramework.ts';

export interface GpIndex {
  name: string;
  columns: readonly string[];
  unique: boolean;
  clustered: boolean;
  primaryKey: boolean;
}

const pk = (name: string, clustered: boolean, columns: string[]): GpIndex => ({ name, columns, unique: true, clustered, primaryKey: true });
const ak = (name: string, columns: string[], clustered = false): GpIndex => ({ name, columns, unique: true, clustered, primaryKey: false });
const ix = (name: string, columns: string[], clustered = false): GpIndex => ({
  name,
  columns,
  unique: false,
  clustered,
  primaryKey: false,
});

/**
 * GP's indexes of the account tables in a framework of `segments` segments: those on account numbers
 * end in every segment column (GP 2015's TLECO has 4: AK4GL00100 is ACCTTYPE, ACTNUMBR_1 … ACTNUMBR_4).
 */
export function accountIndexes(segments: number): { GL00100: GpIndex[]; GL00105: GpIndex[] } {
  const number = accountSegmentNames(segments);
  return {
    GL00100: [
      pk('PKGL00100', false, ['ACTINDX']),
      ak('AK5GL00100', ['ACCATNUM', 'MNACSGMT', ...number]),
      ak('AK4GL00100', ['ACCTTYPE', ...number]),
      ak('AK2GL00100', ['ACTALIAS', 'ACTINDX']),
      ak('AK3GL00100', ['ACTDESCR', ...number]),
      ak('AK6GL00100', number),
      ak('AK7GL00100', ['MNACSGMT', ...number]),
    ],
    GL00105: [pk('PKGL00105', false, ['ACTINDX']), ak('AK2GL00105', number), ak('AK3GL00105', ['ACTNUMST'])],
  };
}

export const GP_INDEXES: Readonly<Record<string, readonly GpIndex[]>> = {
  SY01500: [pk('PKSY01500', true, ['CMPANYID']), ak('AK2SY01500', ['CMPNYNAM']), ak('AK3SY01500', ['INTERID'])],
  // The account framework (DYNAMICS/Tables/dbo.SY003001.sql, dbo.SY00302.sql).
  SY003001: [pk('PKSY003001', false, ['MXLACNUM'])],
  SY00302: [pk('PKSY00302', false, ['SGMTNUMB'])],
  RM00101: [
    pk('PKRM00101', false, ['CUSTNMBR']),
    ak('AK7RM00101', ['CPRCSTNM', 'CUSTNMBR']),
    ak('AK3RM00101', ['CUSTCLAS', 'CUSTNMBR']),
    ak('AK2RM00101', ['CUSTNAME', 'DEX_ROW_ID']),
    ak('AK6RM00101', ['SALSTERR', 'CUSTNMBR']),
    ak('AK5RM00101', ['SLPRSNID', 'CUSTNMBR']),
    ak('AK8RM00101', ['TXRGNNUM', 'CUSTNMBR']),
    ak('AK4RM00101', ['USERDEF1', 'CUSTNMBR']),
  ],
  RM00102: [
    pk('PKRM00102', false, ['CUSTNMBR', 'ADRSCODE']),
    ak('AK2RM00102', ['CUSTNMBR', 'CITY', 'DEX_ROW_ID']),
    ak('AK6RM00102', ['CUSTNMBR', 'SALSTERR', 'DEX_ROW_ID']),
    ak('AK5RM00102', ['CUSTNMBR', 'SLPRSNID', 'DEX_ROW_ID']),
    ak('AK3RM00102', ['CUSTNMBR', 'STATE', 'DEX_ROW_ID']),
    ak('AK4RM00102', ['CUSTNMBR', 'ZIP', 'DEX_ROW_ID']),
  ],
  ...accountIndexes(DEFAULT_ACCOUNT_FRAMEWORK.segmentLengths.length),
  GL20000: [
    pk('PKGL20000', false, ['DEX_ROW_ID']),
    ak('AK2GL20000', ['ACTINDX', 'OPENYEAR', 'SOURCDOC', 'DEX_ROW_ID']),
    ak('AK7GL20000', ['ACTINDX', 'TRXDATE', 'OPENYEAR', 'Ledger_ID', 'DEBITAMT', 'CRDTAMNT', 'DEX_ROW_ID']),
    ak('AK9GL20000', ['Back_Out_JE', 'OPENYEAR', 'DEX_ROW_ID']),
    ix('CL8GL20000', ['JRNENTRY'], true),
    ak('AK8GL20000', ['JRNENTRY', 'DEX_ROW_ID']),
    ak('AK10GL20000', ['JRNENTRY', 'OPENYEAR', 'TRXDATE', 'RCTRXSEQ', 'DEX_ROW_ID']),
    ak('AK4GL20000', ['JRNENTRY', 'QKOFSET', 'ACTINDX', 'DEX_ROW_ID']),
    ak('AK1GL20000', ['JRNENTRY', 'RCTRXSEQ', 'ACTINDX', 'TRXDATE', 'PERIODID', 'DEX_ROW_ID']),
    ak('AK6GL20000', ['OPENYEAR', 'ACTINDX', 'CURNCYID', 'TRXDATE', 'DEX_ROW_ID']),
    ak('AK5GL20000', ['OPENYEAR', 'ACTINDX', 'TRXDATE', 'PERIODID', 'DEX_ROW_ID']),
    ak('AK3GL20000', ['OPENYEAR', 'TRXDATE', 'ACTINDX', 'DEX_ROW_ID']),
  ],
  GL30000: [
    pk('PKGL30000', false, ['DEX_ROW_ID']),
    ak('AK3GL30000', ['ACTINDX', 'HSTYEAR', 'DEX_ROW_ID']),
    ak('AK8GL30000', ['ACTINDX', 'TRXDATE', 'HSTYEAR', 'Ledger_ID', 'DEBITAMT', 'CRDTAMNT', 'DEX_ROW_ID']),
    ak('AK9GL30000', ['Back_Out_JE', 'HSTYEAR', 'DEX_ROW_ID']),
    ak('AK7GL30000', ['CURNCYID', 'DEX_ROW_ID']),
    ak('AK6GL30000', ['HSTYEAR', 'ACTINDX', 'CURNCYID', 'TRXDATE', 'DEX_ROW_ID']),
    ak('AK5GL30000', ['HSTYEAR', 'ACTINDX', 'TRXDATE', 'PERIODID', 'DEX_ROW_ID']),
    ak('AK1GL30000', ['HSTYEAR', 'JRNENTRY', 'RCTRXSEQ', 'PERIODID', 'DEX_ROW_ID']),
    ak('AK2GL30000', ['HSTYEAR', 'TRXDATE', 'ACTINDX', 'DEX_ROW_ID']),
    ak('AK10GL30000', ['JRNENTRY', 'HSTYEAR', 'TRXDATE', 'RCTRXSEQ', 'DEX_ROW_ID']),
    ak('AK4GL30000', ['JRNENTRY', 'QKOFSET', 'ACTINDX', 'DEX_ROW_ID']),
  ],
  SY40101: [pk('PKSY40101', false, ['YEAR1']), ak('AK2SY40101', ['FSTFSCDY']), ak('AK3SY40101', ['HISTORYR', 'YEAR1'])],
  SY40100: [
    pk('PKSY40100', false, ['FORIGIN', 'YEAR1', 'PERIODID', 'SERIES', 'ODESCTN']),
    ak('AK5SY40100', ['FORIGIN', 'PERIODDT', 'DEX_ROW_ID']),
    ak('AK7SY40100', ['FORIGIN', 'SERIES', 'ODESCTN', 'PERIODDT', 'DEX_ROW_ID']),
    ak('AK3SY40100', ['FORIGIN', 'YEAR1', 'ODESCTN', 'PERIODID', 'SERIES']),
    ak('AK6SY40100', ['FORIGIN', 'YEAR1', 'PERNAME', 'PERIODID', 'DEX_ROW_ID']),
    ak('AK2SY40100', ['FORIGIN', 'YEAR1', 'SERIES', 'ODESCTN', 'PERIODID']),
    ak('AK4SY40100', ['FORIGIN', 'YEAR1', 'SERIES', 'PERIODID', 'ODESCTN']),
    ak('AK8SY40100', ['PERIODID', 'YEAR1', 'DEX_ROW_ID']),
  ],
  SY03300: [pk('PKSY03300', false, ['PYMTRMID'])],
  RM00301: [
    pk('PKRM00301', false, ['SLPRSNID']),
    ak('AK3RM00301', ['SALSTERR', 'SLPRSNID']),
    ak('AK2RM00301', ['SPRSNSLN', 'SLPRSNFN', 'SPRSNSMN', 'DEX_ROW_ID']),
  ],
  CM00100: [
    pk('PKCM00100', false, ['CHEKBKID']),
    ak('AK3CM00100', ['CMUSRDF1', 'CHEKBKID', 'DEX_ROW_ID']),
    ak('AK2CM00100', ['DSCRIPTN', 'CHEKBKID', 'DEX_ROW_ID']),
  ],
  IV40700: [pk('PKIV40700', false, ['LOCNCODE']), ak('AK2IV40700', ['LOCNDSCR', 'DEX_ROW_ID'])],
  SY00500: [
    pk('PKSY00500', false, ['BCHSOURC', 'BACHNUMB']),
    ak('AK3SY00500', ['BACHFREQ', 'DEX_ROW_ID']),
    ak('AK2SY00500', ['BACHNUMB', 'DEX_ROW_ID']),
    ak('AK6SY00500', ['SERIES', 'BACHFREQ', 'DEX_ROW_ID']),
    ak('AK5SY00500', ['SERIES', 'BACHNUMB', 'DEX_ROW_ID']),
    ak('AK7SY00500', ['SERIES', 'BCHSOURC', 'BACHNUMB']),
    ak('AK4SY00500', ['SERIES', 'BCHSOURC', 'DEX_ROW_ID']),
  ],
  PM00200: [
    pk('PKPM00200', false, ['VENDORID']),
    ak('AK5PM00200', ['PYMNTPRI', 'VENDORID']),
    ak('AK6PM00200', ['TXRGNNUM', 'VENDORID']),
    ak('AK4PM00200', ['USERDEF1', 'VENDORID']),
    ak('AK2PM00200', ['VENDNAME', 'VENDORID']),
    ak('AK3PM00200', ['VNDCLSID', 'VENDORID']),
  ],
  PM00300: [
    pk('PKPM00300', false, ['VENDORID', 'ADRSCODE']),
    ak('AK2PM00300', ['VENDORID', 'CITY', 'DEX_ROW_ID']),
    ak('AK5PM00300', ['VENDORID', 'DEX_ROW_ID']),
    ak('AK3PM00300', ['VENDORID', 'STATE', 'DEX_ROW_ID']),
    ak('AK4PM00300', ['VENDORID', 'ZIPCODE', 'DEX_ROW_ID']),
  ],
  // Units of measure and price lists (TLECO/Tables/dbo.IV40201.sql, IV40202, IV40800, IV00108).
  IV40201: [pk('PKIV40201', false, ['UOMSCHDL'])],
  IV40202: [
    pk('PKIV40202', true, ['UOMSCHDL', 'SEQNUMBR']),
    ak('AK3IV40202', ['UOMSCHDL', 'EQUIVUOM', 'DEX_ROW_ID']),
    ak('AK4IV40202', ['UOMSCHDL', 'QTYBSUOM', 'UOFM', 'EQUIVUOM']),
    ak('AK2IV40202', ['UOMSCHDL', 'UOFM', 'EQUIVUOM']),
  ],
  IV40800: [pk('PKIV40800', false, ['PRCLEVEL']), ak('AK2IV40800', ['DSCRIPTN', 'PRCLEVEL', 'DEX_ROW_ID'])],
  IV00108: [
    pk('PKIV00108', false, ['ITEMNMBR', 'CURNCYID', 'PRCLEVEL', 'UOFM', 'TOQTY']),
    ak('AK2IV00108', ['ITEMNMBR', 'CURNCYID', 'PRCLEVEL', 'QTYBSUOM', 'UOFM', 'TOQTY']),
  ],
  IV00101: [
    pk('PKIV00101', false, ['ITEMNMBR']),
    ak('AK7IV00101', ['ITEMCODE', 'DEX_ROW_ID']),
    ak('AK2IV00101', ['ITEMDESC', 'ITEMNMBR']),
    ak('AK3IV00101', ['ITMCLSCD', 'ITEMNMBR']),
    ak('AK5IV00101', ['ITMGEDSC', 'ITEMNMBR']),
    ak('AK4IV00101', ['ITMSHNAM', 'ITEMNMBR']),
    ak('AK6IV00101', ['UOMSCHDL', 'DEX_ROW_ID']),
  ],
  IV00102: [
    pk('PKIV00102', false, ['ITEMNMBR', 'RCRDTYPE', 'LOCNCODE']),
    ak('AK4IV00102', ['ITEMNMBR', 'RCRDTYPE', 'DEX_ROW_ID']),
    ak('AK2IV00102', ['LOCNCODE', 'ITEMNMBR']),
    ak('AK3IV00102', ['PRIMVNDR', 'ITEMNMBR', 'LOCNCODE']),
  ],
  RM20101: [
    pk('PKRM20101', false, ['CUSTNMBR', 'RMDTYPAL', 'DOCNUMBR']),
    ak('AK6RM20101', ['CPRCSTNM', 'RMDTYPAL', 'DOCNUMBR']),
    ak('AK3RM20101', ['CPRCSTNM', 'RMDTYPAL', 'DUEDATE', 'DEX_ROW_ID']),
    ak('AK7RM20101', ['CUSTNMBR', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK2RM20101', ['CUSTNMBR', 'RMDTYPAL', 'DUEDATE', 'DEX_ROW_ID']),
    ak('AK4RM20101', ['RMDTYPAL', 'DOCNUMBR']),
    ak('AK5RM20101', ['TRXSORCE', 'RMDTYPAL', 'DOCNUMBR']),
  ],
  RM30101: [
    pk('PKRM30101', false, ['CUSTNMBR', 'RMDTYPAL', 'DOCNUMBR']),
    ak('AK6RM30101', ['CUSTNMBR', 'BALFWDNM', 'DEX_ROW_ID']),
    ak('AK2RM30101', ['CUSTNMBR', 'RMDTYPAL', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK5RM30101', ['DOCDATE', 'DEX_ROW_ID']),
    ak('AK4RM30101', ['RMDTYPAL', 'DOCNUMBR']),
    ak('AK7RM30101', ['RMDTYPAL', 'VOIDSTTS', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK3RM30101', ['TRXSORCE', 'RMDTYPAL', 'DOCNUMBR']),
  ],
  PM20000: [
    pk('PKPM20000', false, ['DOCTYPE', 'VCHRNMBR']),
    ak('AK7PM20000', ['DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK8PM20000', ['TRXSORCE', 'DEX_ROW_ID']),
    ak('AK6PM20000', ['VCHRNMBR', 'DEX_ROW_ID']),
    ak('AK5PM20000', ['VENDORID', 'DOCDATE', 'VCHRNMBR', 'DOCTYPE']),
    ak('AK1PM20000', ['VENDORID', 'DOCTYPE', 'DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK9PM20000', ['VENDORID', 'DOCTYPE', 'DOCNUMBR', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK3PM20000', ['VENDORID', 'DOCTYPE', 'VCHRNMBR']),
    ak('AK4PM20000', ['VENDORID', 'DUEDATE', 'VCHRNMBR', 'DOCTYPE']),
  ],
  PM30200: [
    pk('PKPM30200', false, ['DOCTYPE', 'VCHRNMBR']),
    ak('AK4PM30200', ['DOCDATE', 'DEX_ROW_ID']),
    ak('AK3PM30200', ['DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK7PM30200', ['DOCTYPE', 'DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK9PM30200', ['DOCTYPE', 'VOIDED', 'DOCDATE', 'PRCHAMNT', 'DEX_ROW_ID']),
    ak('AK5PM30200', ['TRXSORCE', 'VCHRNMBR', 'DEX_ROW_ID']),
    ak('AK6PM30200', ['VCHRNMBR', 'DEX_ROW_ID']),
    ak('AK1PM30200', ['VENDORID', 'DEX_ROW_ID']),
    ak('AK8PM30200', ['VENDORID', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK10PM30200', ['VENDORID', 'DOCTYPE', 'DOCNUMBR', 'DOCDATE', 'DEX_ROW_ID']),
  ],
  SOP10100: [
    pk('PKSOP10100', false, ['SOPNUMBE', 'SOPTYPE']),
    ak('AK4SOP10100', ['BCHSOURC', 'BACHNUMB', 'SOPTYPE', 'SOPNUMBE']),
    ak('AK2SOP10100', ['CUSTNMBR', 'CSTPONBR', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK3SOP10100', ['DOCDATE', 'DEX_ROW_ID']),
    ak('AK6SOP10100', ['MSTRNUMB', 'DEX_ROW_ID']),
    ak('AK5SOP10100', ['SOPTYPE', 'DOCID', 'DEX_ROW_ID']),
  ],
  SOP10200: [
    pk('PKSOP10200', false, ['SOPNUMBE', 'SOPTYPE', 'CMPNTSEQ', 'LNITMSEQ']),
    ak('AK3SOP10200', ['LOCNCODE', 'DEX_ROW_ID']),
    ak('AK5SOP10200', ['PURCHSTAT', 'ITEMNMBR', 'SOPTYPE', 'SOPNUMBE', 'DEX_ROW_ID']),
    ak('AK7SOP10200', ['ReqShipDate', 'ACTLSHIP', 'SOPTYPE', 'DEX_ROW_ID']),
    ak('AK6SOP10200', ['SOPNUMBE', 'SOPTYPE', 'LNITMSEQ', 'CMPNTSEQ'], true),
    ak('AK2SOP10200', ['SOPTYPE', 'SOPNUMBE', 'LNITMSEQ', 'CMPNTSEQ', 'BRKFLD1', 'BRKFLD2', 'BRKFLD3']),
    ak('AK4SOP10200', ['TRXSORCE', 'ITEMNMBR', 'LOCNCODE', 'DEX_ROW_ID']),
  ],
  SOP30200: [
    pk('PKSOP30200', false, ['SOPNUMBE', 'SOPTYPE']),
    ak('AK2SOP30200', ['CUSTNMBR', 'CSTPONBR', 'DOCDATE', 'DEX_ROW_ID']),
    ak('AK3SOP30200', ['DOCDATE', 'DEX_ROW_ID']),
    ak('AK6SOP30200', ['MSTRNUMB', 'DEX_ROW_ID']),
    ak('AK5SOP30200', ['SOPTYPE', 'DOCID', 'DEX_ROW_ID']),
    ak('AK7SOP30200', ['SOPTYPE', 'VOIDSTTS', 'SOPNUMBE']),
    ak('AK4SOP30200', ['TRXSORCE', 'DEX_ROW_ID']),
  ],
  SOP30300: [
    pk('PKSOP30300', false, ['SOPNUMBE', 'SOPTYPE', 'CMPNTSEQ', 'LNITMSEQ']),
    ak('AK5SOP30300', ['DOCNCORR', 'ORGSEQNM', 'SOPTYPE', 'SOPNUMBE', 'DEX_ROW_ID']),
    ak('AK3SOP30300', ['ITEMNMBR', 'DEX_ROW_ID']),
    ak('AK8SOP30300', ['SOPTYPE', 'QTYTOINV', 'SOPNUMBE', 'ITEMNMBR', 'QTYBSUOM', 'DECPLQTY', 'DEX_ROW_ID']),
    ak('AK7SOP30300', ['SOPTYPE', 'REMPRICE', 'SOPNUMBE', 'ITEMNMBR', 'DEX_ROW_ID']),
    ak('AK6SOP30300', ['SOPTYPE', 'ReqShipDate', 'ACTLSHIP', 'SOPNUMBE', 'DEX_ROW_ID']),
    ak('AK2SOP30300', ['SOPTYPE', 'SOPNUMBE', 'LNITMSEQ', 'CMPNTSEQ', 'BRKFLD1', 'BRKFLD2', 'BRKFLD3']),
    ak('AK4SOP30300', ['TRXSORCE', 'ITEMNMBR', 'DEX_ROW_ID']),
  ],
  POP10100: [
    pk('PKPOP10100', false, ['PONUMBER']),
    ak('AK3POP10100', ['DOCDATE', 'PONUMBER']),
    ak('AK6POP10100', ['STATGRP', 'DOCDATE', 'PONUMBER']),
    ak('AK4POP10100', ['STATGRP', 'PONUMBER']),
    ak('AK5POP10100', ['STATGRP', 'VENDORID', 'PONUMBER']),
    ak('AK2POP10100', ['VENDORID', 'PONUMBER']),
  ],
  POP10110: [
    pk('PKPOP10110', false, ['PONUMBER', 'ORD', 'BRKFLD1']),
    ak('AK2POP10110', ['ITEMNMBR', 'PONUMBER', 'ORD']),
    ak('AK8POP10110', ['ITEMNMBR', 'QTYUNCMTBASE', 'LOCNCODE', 'DEX_ROW_ID']),
    ak('AK7POP10110', ['ITEMNMBR', 'REQDATE', 'DEX_ROW_ID']),
    ak('AK4POP10110', ['POLNESTA', 'PONUMBER', 'ORD', 'DEX_ROW_ID']),
    ak('AK5POP10110', ['PONUMBER', 'ITEMNMBR', 'ORD']),
    ak('AK6POP10110', ['PONUMBER', 'VNDITNUM', 'ORD']),
    ak('AK9POP10110', ['Product_Indicator', 'JOBNUMBR', 'COSTCODE', 'PONUMBER', 'ORD']),
    ak('AK3POP10110', ['VNDITNUM', 'PONUMBER', 'ORD']),
  ],
  POP30100: [
    pk('PKPOP30100', false, ['PONUMBER']),
    ak('AK3POP30100', ['DOCDATE', 'PONUMBER']),
    ak('AK5POP30100', ['POTYPE', 'PONUMBER']),
    ak('AK4POP30100', ['TRXSORCE', 'PONUMBER']),
    ak('AK2POP30100', ['VENDORID', 'PONUMBER']),
  ],
  POP30110: [
    pk('PKPOP30110', false, ['PONUMBER', 'ORD', 'BRKFLD1']),
    ak('AK2POP30110', ['ITEMNMBR', 'PONUMBER', 'ORD']),
    ak('AK5POP30110', ['ITEMNMBR', 'REQDATE', 'DEX_ROW_ID']),
    ak('AK4POP30110', ['POLNESTA', 'PONUMBER', 'ORD', 'DEX_ROW_ID']),
    ak('AK6POP30110', ['Product_Indicator', 'JOBNUMBR', 'COSTCODE', 'PONUMBER', 'ORD']),
    ak('AK3POP30110', ['VNDITNUM', 'PONUMBER', 'ORD']),
  ],
  RM00103: [pk('PKRM00103', false, ['CUSTNMBR'])],
  RM10301: [
    pk('PKRM10301', false, ['RMDTYPAL', 'RMDNUMWK']),
    ix('CL5RM10301', ['BACHNUMB', 'DOCNUMBR'], true),
    ak('AK5RM10301', ['BACHNUMB', 'DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK4RM10301', ['BCHSOURC', 'BACHNUMB', 'RMDTYPAL', 'RMDNUMWK']),
    ak('AK2RM10301', ['CUSTNMBR', 'RMDNUMWK', 'DEX_ROW_ID']),
    ak('AK3RM10301', ['DOCDATE', 'DEX_ROW_ID']),
  ],
  PM10000: [
    pk('PKPM10000', false, ['BCHSOURC', 'BACHNUMB', 'VCHNUMWK']),
    ix('CL5PM10000', ['BACHNUMB', 'VCHRNMBR'], true),
    ak('AK5PM10000', ['BACHNUMB', 'VCHRNMBR', 'DEX_ROW_ID']),
    ak('AK4PM10000', ['DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK2PM10000', ['VCHNUMWK']),
    ak('AK3PM10000', ['VENDORID', 'DOCNUMBR', 'DEX_ROW_ID']),
  ],
  GL10000: [
    pk('PKGL10000', false, ['BCHSOURC', 'BACHNUMB', 'JRNENTRY']),
    ak('AK3GL10000', ['BCHSOURC', 'CURNCYID', 'JRNENTRY']),
    ak('AK4GL10000', ['BCHSOURC', 'JRNENTRY']),
    ak('AK2GL10000', ['JRNENTRY']),
  ],
  GL10001: [
    pk('PKGL10001', false, ['JRNENTRY', 'SQNCLINE']),
    ak('AK2GL10001', ['ACTINDX', 'DEX_ROW_ID']),
    ak('AK3GL10001', ['JRNENTRY', 'ACTINDX', 'DEX_ROW_ID']),
    ak('AK4GL10001', ['JRNENTRY', 'DEX_ROW_ID']),
  ],
  SOP40200: [pk('PKSOP40200', false, ['SOPTYPE', 'DOCID'])],
  RM40401: [pk('PKRM40401', false, ['RMDTYPAL']), ak('AK2RM40401', ['SETUPKEY', 'DEX_ROW_ID'])],
  PM40100: [pk('PKPM40100', false, ['UNIQKEY'])],
  GL40000: [pk('PKGL40000', false, ['UNIQKEY'])],
  RM10101: [
    pk('PKRM10101', false, ['USERID', 'PSTGSTUS', 'RMDTYPAL', 'DOCNUMBR', 'SEQNUMBR']),
    ix('CL5RM10101', ['DOCNUMBR', 'SEQNUMBR'], true),
    ak('AK5RM10101', ['DOCNUMBR', 'SEQNUMBR', 'DEX_ROW_ID']),
    ak('AK4RM10101', ['RMDTYPAL', 'DOCNUMBR', 'DISTTYPE', 'SEQNUMBR', 'DEX_ROW_ID']),
    ak('AK3RM10101', ['TRXSORCE', 'DSTINDX', 'RMDTYPAL', 'DOCNUMBR', 'DEX_ROW_ID']),
    ak('AK2RM10101', ['USERID', 'PSTGSTUS', 'RMDTYPAL', 'DOCNUMBR', 'DSTINDX', 'DISTTYPE', 'DEX_ROW_ID']),
  ],
  PM10100: [
    pk('PKPM10100', false, ['VCHRNMBR', 'CNTRLTYP', 'APTVCHNM', 'SPCLDIST', 'DSTSQNUM']),
    ak('AK4PM10100', ['TRXSORCE', 'DSTINDX', 'DEX_ROW_ID']),
    ak('AK3PM10100', ['USERID', 'PSTGSTUS', 'VCHRNMBR', 'CNTRLTYP', 'DSTINDX', 'DISTTYPE', 'DEX_ROW_ID']),
    ix('CL5PM10100', ['VCHRNMBR'], true),
    ak('AK2PM10100', ['VCHRNMBR', 'CNTRLTYP', 'APTVCHNM', 'DISTTYPE', 'DSTINDX', 'DEX_ROW_ID']),
    ak('AK5PM10100', ['VCHRNMBR', 'DEX_ROW_ID']),
  ],
  // Not in gp-indexes.md: TLECO/Tables/dbo.SY01100.sql of the same scripted database.
  SY01100: [pk('PKSY01100', false, ['SERIES', 'SEQNUMBR'])],
  SOP40300: [pk('PKSOP40300', false, ['SOPTYPE']), ak('AK2SOP40300', ['SETUPKEY', 'DEX_ROW_ID'])],
};
