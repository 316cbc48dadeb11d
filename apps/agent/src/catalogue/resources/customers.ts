import type { ResourceDef } from '../types.ts';

/** GP credit limit types (CRLMTTYP): 0 No Credit, 1 Unlimited, 2 Amount. */
const CREDIT_LIMIT_NONE = 0;
const CREDIT_LIMIT_UNLIMITED = 1;

export const customers: ResourceDef = {
  object: 'customers',
  database: 'company',
  sources: [{ table: 'RM00101' }],
  fields: {
    id: { column: 'CUSTNMBR', codec: 'string' },
    name: { column: 'CUSTNAME', codec: 'string' },
    statementName: { column: 'STMTNAME', codec: 'string' },
    shortName: { column: 'SHRTNAME', codec: 'string' },
    classId: { column: 'CUSTCLAS', codec: 'string' },
    contactPerson: { column: 'CNTCPRSN', codec: 'string' },
    primaryAddressCode: { column: 'ADRSCODE', codec: 'string' },
    paymentTermsId: { column: 'PYMTRMID', codec: 'string' },
    salespersonId: { column: 'SLPRSNID', codec: 'string' },
    salesTerritoryId: { column: 'SALSTERR', codec: 'string' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
    // CRLMTAMT alone is misleading: it is 0 for both "no credit" and "unlimited". The API says
    // "0.00" for no credit, null for unlimited, and the amount otherwise.
    creditLimit: {
      columns: [
        { column: 'CRLMTTYP', codec: 'int' },
        { column: 'CRLMTAMT', codec: 'money' },
      ],
      compute: ([type, amount]) => (type === CREDIT_LIMIT_NONE ? '0.00' : type === CREDIT_LIMIT_UNLIMITED ? null : amount),
      sqlite: ([type, amount]) =>
        `CASE ${type} WHEN ${CREDIT_LIMIT_NONE} THEN '0.00' WHEN ${CREDIT_LIMIT_UNLIMITED} THEN NULL ELSE ${amount} END`,
    },
    phone: { column: 'PHONE1', codec: 'string' },
    taxScheduleId: { column: 'TAXSCHID', codec: 'string' },
    inactive: { column: 'INACTIVE', codec: 'flag' },
    hold: { column: 'HOLD', codec: 'flag' },
    createdAt: { column: 'CREATDDT', codec: 'date' },
    modifiedAt: { column: 'DEX_ROW_TS', codec: 'timestamp' },
  },
  filters: {
    q: { kind: 'contains', column: 'CUSTNAME' },
    id: { kind: 'in', column: 'CUSTNMBR' },
    classId: { kind: 'eq', column: 'CUSTCLAS' },
    inactive: { kind: 'flag', column: 'INACTIVE' },
    hold: { kind: 'flag', column: 'HOLD' },
    paymentTermsId: { kind: 'eq', column: 'PYMTRMID' },
    salespersonId: { kind: 'eq', column: 'SLPRSNID' },
    salesTerritoryId: { kind: 'eq', column: 'SALSTERR' },
    currencyId: { kind: 'eq', column: 'CURNCYID' },
    taxScheduleId: { kind: 'eq', column: 'TAXSCHID' },
    updatedSince: { kind: 'atOrAfter', column: 'DEX_ROW_TS' },
  },
  keys: {
    default: { name: 'customer', indexes: { RM00101: 'PKRM00101' } },
    byFilter: [
      { name: 'class', filters: ['classId'], indexes: { RM00101: 'AK3RM00101' } },
      { name: 'salesperson', filters: ['salespersonId'], indexes: { RM00101: 'AK5RM00101' } },
      { name: 'territory', filters: ['salesTerritoryId'], indexes: { RM00101: 'AK6RM00101' } },
    ],
  },
  idParts: [{ column: 'CUSTNMBR' }],
};
