import type { ResourceDef } from '../types.ts';

/** Sites (IV40700). */
export const sites: ResourceDef = {
  object: 'sites',
  database: 'company',
  sources: [{ table: 'IV40700' }],
  fields: {
    id: { column: 'LOCNCODE', codec: 'string' },
    name: { column: 'LOCNDSCR', codec: 'string' },
    line1: { column: 'ADDRESS1', codec: 'string' },
    line2: { column: 'ADDRESS2', codec: 'string' },
    city: { column: 'CITY', codec: 'string' },
    state: { column: 'STATE', codec: 'string' },
    postalCode: { column: 'ZIPCODE', codec: 'string' },
    country: { column: 'COUNTRY', codec: 'string' },
  },
  filters: {
    q: { kind: 'contains', column: 'LOCNDSCR' },
    id: { kind: 'in', column: 'LOCNCODE' },
    inactive: { kind: 'flag', column: 'INACTIVE' },
  },
  keys: { default: { name: 'site', indexes: { IV40700: 'PKIV40700' } } },
  idParts: [{ column: 'LOCNCODE' }],
};

/** Checkbooks (CM00100); the cash account number comes from GL00105 on ACTINDX. */
export const checkbooks: ResourceDef = {
  object: 'checkbooks',
  database: 'company',
  sources: [{ table: 'CM00100' }],
  joins: [{ alias: 'a', table: 'GL00105', foreignColumn: 'ACTINDX', localColumn: 'ACTINDX' }],
  fields: {
    id: { column: 'CHEKBKID', codec: 'string' },
    name: { column: 'DSCRIPTN', codec: 'string' },
    cashAccountNumber: { join: 'a', column: 'ACTNUMST', codec: 'string' },
    currencyId: { column: 'CURNCYID', codec: 'string' },
    currentBalance: { column: 'CURRBLNC', codec: 'money' },
    inactive: { column: 'INACTIVE', codec: 'flag' },
  },
  filters: {
    q: { kind: 'contains', column: 'DSCRIPTN' },
    id: { kind: 'in', column: 'CHEKBKID' },
    inactive: { kind: 'flag', column: 'INACTIVE' },
    currencyId: { kind: 'eq', column: 'CURNCYID' },
  },
  keys: { default: { name: 'checkbook', indexes: { CM00100: 'PKCM00100' } } },
  idParts: [{ column: 'CHEKBKID' }],
};

/** Payment terms (SY03300). The discount percent is stored in hundredths. */
export const paymentTerms: ResourceDef = {
  object: 'payment-terms',
  database: 'company',
  sources: [{ table: 'SY03300' }],
  fields: {
    id: { column: 'PYMTRMID', codec: 'string' },
    dueType: { column: 'DUETYPE', codec: 'int' },
    dueDays: { column: 'DUEDTDS', codec: 'int' },
    discountPercent: { column: 'DSCPCTAM', codec: 'percent' },
  },
  filters: {
    q: { kind: 'contains', column: 'PYMTRMID' },
    id: { kind: 'in', column: 'PYMTRMID' },
  },
  keys: { default: { name: 'terms', indexes: { SY03300: 'PKSY03300' } } },
  idParts: [{ column: 'PYMTRMID' }],
};

/** Salespeople (RM00301); `q` searches the last and the first name. */
export const salespeople: ResourceDef = {
  object: 'salespeople',
  database: 'company',
  sources: [{ table: 'RM00301' }],
  fields: {
    id: { column: 'SLPRSNID', codec: 'string' },
    firstName: { column: 'SLPRSNFN', codec: 'string' },
    lastName: { column: 'SPRSNSLN', codec: 'string' },
    employeeId: { column: 'EMPLOYID', codec: 'string' },
    inactive: { column: 'INACTIVE', codec: 'flag' },
  },
  filters: {
    q: { kind: 'containsAny', columns: [{ column: 'SPRSNSLN' }, { column: 'SLPRSNFN' }] },
    id: { kind: 'in', column: 'SLPRSNID' },
    inactive: { kind: 'flag', column: 'INACTIVE' },
    employeeId: { kind: 'eq', column: 'EMPLOYID' },
  },
  keys: { default: { name: 'salesperson', indexes: { RM00301: 'PKRM00301' } } },
  idParts: [{ column: 'SLPRSNID' }],
};

/** The Financial series, whose closing decides `closed`; PSERIES_n flags are series n+1. */
const FINANCIAL_SERIES = 2;

/**
 * Fiscal periods from SY40100's period-level rows (FORIGIN 1, SERIES 0), one per year and period;
 * PERIODID 0 is GP's year-start row, not a period (docs/api.md#which-rows-each-list-holds).
 */
export const fiscalPeriods: ResourceDef = {
  object: 'fiscal-periods',
  database: 'company',
  sources: [
    {
      table: 'SY40100',
      where: [
        { column: 'FORIGIN', op: 'eq', value: 1 },
        { column: 'SERIES', op: 'eq', value: 0 },
        { column: 'PERIODID', op: 'gt', value: 0 },
      ],
    },
  ],
  fields: {
    year: { column: 'YEAR1', codec: 'int' },
    period: { column: 'PERIODID', codec: 'int' },
    startDate: { column: 'PERIODDT', codec: 'date' },
    endDate: { column: 'PERDENDT', codec: 'date' },
    series: { columns: [], compute: () => FINANCIAL_SERIES },
    closed: { column: 'PSERIES_1', codec: 'flag' },
  },
  filters: { year: { kind: 'eq', column: 'YEAR1' } },
  // The rows' own conditions pin FORIGIN and SERIES; year pins YEAR1.
  keys: { default: { name: 'period', indexes: { SY40100: 'PKSY40100' } } },
};

/**
 * Posting batches (SY00500). GP keys a batch by source and number; the API id is the number, so a
 * number used under two sources is served from the first.
 */
export const batches: ResourceDef = {
  object: 'batches',
  database: 'company',
  sources: [{ table: 'SY00500' }],
  fields: {
    id: { column: 'BACHNUMB', codec: 'string' },
    source: { column: 'BCHSOURC', codec: 'string' },
    series: { column: 'SERIES', codec: 'int' },
    transactionCount: { column: 'NUMOFTRX', codec: 'int' },
    total: { column: 'BCHTOTAL', codec: 'money' },
    markedToPost: { column: 'MKDTOPST', codec: 'flag' },
    postingDate: { column: 'GLPOSTDT', codec: 'date' },
  },
  filters: {
    id: { kind: 'in', column: 'BACHNUMB' },
    source: { kind: 'eq', column: 'BCHSOURC' },
    series: { kind: 'eq', column: 'SERIES' },
    markedToPost: { kind: 'flag', column: 'MKDTOPST' },
  },
  // source pins the default key's first column.
  keys: {
    default: { name: 'batch', indexes: { SY00500: 'PKSY00500' } },
    byFilter: [
      { name: 'series', filters: ['series'], indexes: { SY00500: 'AK7SY00500' } },
      { name: 'number', filters: ['id'], indexes: { SY00500: 'AK2SY00500' } },
    ],
  },
  idParts: [{ column: 'BACHNUMB' }],
};
