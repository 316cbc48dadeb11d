import { Decimal } from 'decimal.js';
import { GP_TABLES, MC40200, type GpTable } from '@gp-gateway/gp-schema';
import { codeOf, SALES_DOCUMENT_TYPES, type WritableObjectName, type WriteBody } from '@gp-gateway/protocol';
import type { GpWriteValue } from '../fieldColumns.ts';
import { WriteRefusal, type Issue } from '../refusals.ts';

/**
 * What each writable object's body references in GP, described once (docs/decisions.md#writes-on-the-agent):
 * the table and key column a value must name, the message when it names nothing, the columns the
 * writer needs from the row, and the conditions the row must meet (active, takes postings, a batch
 * not being posted). Two runners carry it out: references/sqlite.ts on the embedded database
 * (synchronous, inside the write's transaction) and references/mssql.ts on SQL Server (one
 * parameterised batch, before a number is taken). Every broken reference becomes one issue, in the
 * order below: the header's references, each line's, then the batch.
 */

/** A condition a found row must meet: the first that fails names the issue. */
export interface Rule {
  /** The columns the rule reads (selected with the row). */
  columns: readonly string[];
  /** `expected`: values the check's use requires (a batch's series, from its kind of document). */
  broken(row: Readonly<Record<string, unknown>>, expected: Readonly<Record<string, GpWriteValue>>): boolean;
  message: string;
}

/** How one kind of reference is looked up. */
export interface Lookup {
  /** A GP table (packages/gp-schema): its name and columns are the only identifiers the runners write. */
  table: GpTable;
  /** The column the value is compared with. */
  key: string;
  /** The message when no row matches. */
  message: string;
  /** Columns the writer uses from the row. */
  select: readonly string[];
  /** GP keeps this id in mixed case and compares case-insensitively: the runner answers GP's spelling (`key`). */
  canonical?: boolean;
  /** A second table the row is joined to on a shared column (an account's number → the account). */
  join?: { table: GpTable; on: string };
  /** The row must meet these, in order. */
  rules?: readonly Rule[];
  /** No row is fine (a batch that does not exist yet is created). */
  optional?: boolean;
}

/** GP's batch sources per document kind, and their series (gp-schema.md §0). */
export const BATCHES = {
  sales: { source: 'Sales Entry', series: 3 },
  receivables: { source: 'RM_Sales', series: 3 },
  payables: { source: 'PM_Trxent', series: 4 },
  ledger: { source: 'GL_Normal', series: 2 },
} as const;
export type BatchKind = keyof typeof BATCHES;

const inactive = (column: string, inactiveValue: number, message: string): Rule => ({
  columns: [column],
  broken: (row) => Number(row[column]) === inactiveValue,
  message,
});

export const LOOKUPS = {
  customer: { table: GP_TABLES.RM00101, key: 'CUSTNMBR', message: 'no customer with this id', select: [] },
  activeCustomer: {
    table: GP_TABLES.RM00101,
    key: 'CUSTNMBR',
    message: 'no customer with this id',
    select: ['CUSTNAME', 'CURNCYID', 'PYMTRMID'],
    rules: [inactive('INACTIVE', 1, 'the customer is inactive')],
  },
  vendor: { table: GP_TABLES.PM00200, key: 'VENDORID', message: 'no vendor with this id', select: [] },
  activeVendor: {
    table: GP_TABLES.PM00200,
    key: 'VENDORID',
    message: 'no vendor with this id',
    select: ['CURNCYID', 'PYMTRMID'],
    // VENDSTTS: 1 active, 2 inactive, 3 temporary.
    rules: [inactive('VENDSTTS', 2, 'the vendor is inactive')],
  },
  /**
   * The vendor of a 1099 amount: taPMTransactionInsert refuses one above zero for a vendor whose
   * TEN99TYPE is below 2 (1 is "not a 1099 vendor"): "if (@I_vTEN99AMNT > 0) begin if (exists(select 1
   * from PM00200 (nolock) where VENDORID = @I_vVENDORID and TEN99TYPE < 2)) … 713". A missing vendor
   * is the vendor id's own issue.
   */
  ten99Vendor: {
    table: GP_TABLES.PM00200,
    key: 'VENDORID',
    message: 'no vendor with this id',
    select: [],
    optional: true,
    rules: [
      {
        columns: ['TEN99TYPE'],
        broken: (row) => Number(row.TEN99TYPE) < 2,
        message: 'the vendor is not a 1099 vendor (its ten99Type is none): GP refuses a 1099 amount for it (error 713)',
      },
    ],
  },
  item: { table: GP_TABLES.IV00101, key: 'ITEMNMBR', message: 'no item with this id', select: ['ITEMDESC'] },
  /** taSopLineIvcInsert: "if (@I_vPRCLEVEL <> '') begin if (not exists(select 1 from IV40800 (nolock) where PRCLEVEL = @I_vPRCLEVEL)) … 928". */
  priceLevel: { table: GP_TABLES.IV40800, key: 'PRCLEVEL', message: 'no price level with this id (GP error 928)', select: [] },
  site: { table: GP_TABLES.IV40700, key: 'LOCNCODE', message: 'no site with this id', select: [] },
  paymentTerms: { table: GP_TABLES.SY03300, key: 'PYMTRMID', message: 'no payment terms with this id', select: [], canonical: true },
  salesperson: { table: GP_TABLES.RM00301, key: 'SLPRSNID', message: 'no salesperson with this id', select: [], canonical: true },
  /** On SQL Server; the embedded database has no currency table and keeps a stand-in rule (references/sqlite.ts). */
  currency: { table: MC40200, key: 'CURNCYID', message: 'no currency with this id', select: [] },
  /** An account by its number: it must exist, be active, and take postings (GL00100.ACCTTYPE 1; 2 is a unit account). */
  account: {
    table: GP_TABLES.GL00105,
    key: 'ACTNUMST',
    message: 'no account with this number',
    select: ['ACTINDX', 'ACCTTYPE'],
    join: { table: GP_TABLES.GL00100, on: 'ACTINDX' },
    rules: [
      inactive('ACTIVE', 0, 'the account is inactive'),
      {
        columns: ['ACCTTYPE'],
        broken: (row) => Number(row.ACCTTYPE) !== 1,
        message: 'the account takes no postings (a unit or allocation account)',
      },
    ],
  },
  salesDocType: { table: GP_TABLES.SOP40200, key: 'DOCID', message: 'no document type id with this id', select: ['SOPNUMBE'] },
  /**
   * GP keys a batch by source and id (PKSY00500), so only the batch of this document's source
   * matters: another kind's batch of the same id is another batch. One that does not exist yet is created.
   */
  batch: {
    table: GP_TABLES.SY00500,
    key: 'BACHNUMB',
    message: 'no batch with this id',
    select: [],
    optional: true,
    rules: [
      { columns: ['SERIES'], broken: (row, expected) => Number(row.SERIES) !== expected.SERIES, message: 'the batch is of another series' },
      {
        columns: ['BCHSTTUS', 'MKDTOPST'],
        broken: (row) => Number(row.BCHSTTUS) !== 0 || Number(row.MKDTOPST) !== 0,
        message: 'the batch is being posted or is marked to post; use another batch id',
      },
    ],
  },
} as const satisfies Record<string, Lookup>;
export type LookupName = keyof typeof LOOKUPS;

/** One reference of a body: the field (`customerId`, or `itemId` on a line), its lookup, and any further key columns. */
export interface Reference {
  field: string;
  lookup: LookupName;
  /** The value looked up when it is not the field's own (a 1099 amount is checked on its vendor). */
  key?: (body: WriteBody) => unknown;
  /** Whether the reference applies to this body, the field being present. */
  when?: (body: WriteBody) => boolean;
  /** Key columns the lookup also matches, from the body (a document type id is per sales document type). */
  also?: (body: WriteBody) => Record<string, GpWriteValue>;
  /** The message when no row matches, when the lookup's own is not specific enough. */
  message?: (body: WriteBody) => string;
}

export interface ObjectReferences {
  header: readonly Reference[];
  /** Each line's references (`lines.N.field`), after the header's. */
  lines?: readonly Reference[];
  /** The batch the document goes into, last. */
  batch?: BatchKind;
}

/** The references of every writable object's body. */
export const REFERENCES: Record<WritableObjectName, ObjectReferences> = {
  customers: {
    header: [
      { field: 'paymentTermsId', lookup: 'paymentTerms' },
      { field: 'salespersonId', lookup: 'salesperson' },
      { field: 'currencyId', lookup: 'currency' },
    ],
  },
  'customer-addresses': { header: [{ field: 'customerId', lookup: 'customer' }] },
  vendors: {
    header: [
      { field: 'paymentTermsId', lookup: 'paymentTerms' },
      { field: 'currencyId', lookup: 'currency' },
    ],
  },
  'vendor-addresses': { header: [{ field: 'vendorId', lookup: 'vendor' }] },
  'sales-orders': {
    header: [
      { field: 'customerId', lookup: 'activeCustomer' },
      {
        field: 'docTypeId',
        lookup: 'salesDocType',
        also: (body) => ({ SOPTYPE: codeOf(SALES_DOCUMENT_TYPES, String(body.type ?? 'order'))! }),
        message: (body) => `no ${String(body.type ?? 'order')} document type id with this id`,
      },
      { field: 'siteId', lookup: 'site' },
    ],
    lines: [
      { field: 'siteId', lookup: 'site' },
      { field: 'itemId', lookup: 'item' },
      { field: 'priceLevel', lookup: 'priceLevel' },
    ],
    batch: 'sales',
  },
  'ar-invoices': {
    header: [
      { field: 'customerId', lookup: 'activeCustomer' },
      { field: 'currencyId', lookup: 'currency' },
    ],
    // A distribution's account: GP's taPMDistribution refuses an unknown (769) or inactive (9001) one;
    // taRMDistribution an unknown one (1340); an inactive or unit account cannot be posted to in either.
    lines: [{ field: 'accountNumber', lookup: 'account' }],
    batch: 'receivables',
  },
  'ap-invoices': {
    header: [
      { field: 'vendorId', lookup: 'activeVendor' },
      { field: 'currencyId', lookup: 'currency' },
      {
        field: 'ten99Amount',
        lookup: 'ten99Vendor',
        key: (body) => body.vendorId,
        when: (body) => new Decimal(String(body.ten99Amount)).greaterThan(0),
      },
    ],
    lines: [{ field: 'accountNumber', lookup: 'account' }],
    batch: 'payables',
  },
  'gl-entries': { header: [], lines: [{ field: 'accountNumber', lookup: 'account' }], batch: 'ledger' },
};

/** One lookup to run: a body path, the value it holds, and every key column it is matched on. */
export interface Check {
  path: string;
  lookup: Lookup;
  name: LookupName;
  /** The key column first, then the further ones; values as GP stores them before encoding. */
  where: Record<string, GpWriteValue>;
  message: string;
  /** Values the rules compare the row with. */
  expected: Record<string, GpWriteValue>;
  /** The value cannot fit its column, so it names nothing: no query is needed. */
  oversized: boolean;
  /** Every column the runner selects: the lookup's, and those its rules read. */
  columns: string[];
}

function columnOf(lookup: Lookup, name: string): { table: GpTable; length?: number } {
  for (const table of [lookup.table, ...(lookup.join ? [lookup.join.table] : [])]) {
    const column = table.columns.find((c) => c.name === name);
    if (column) return { table, length: column.length };
  }
  throw new Error(`${lookup.table.name} has no column ${name}`);
}

function checkOf(path: string, name: LookupName, value: unknown, body: WriteBody, reference: Reference | null): Check {
  const lookup: Lookup = LOOKUPS[name];
  const key = String(value);
  const where: Record<string, GpWriteValue> = { [lookup.key]: key, ...reference?.also?.(body) };
  const length = columnOf(lookup, lookup.key).length;
  const columns = [...new Set([...lookup.select, ...(lookup.rules ?? []).flatMap((rule) => rule.columns)])];
  for (const column of columns) columnOf(lookup, column);
  return {
    path,
    lookup,
    name,
    where,
    expected: {},
    message: reference?.message?.(body) ?? lookup.message,
    oversized: length !== undefined && key.trimEnd().length > length,
    columns,
  };
}

/** The lookups a body needs, in the order their issues are named; absent optional fields need none. */
export function checksOf(object: WritableObjectName, body: WriteBody): Check[] {
  const spec = REFERENCES[object];
  const checks: Check[] = [];
  for (const reference of spec.header)
    if (body[reference.field] !== undefined && (reference.when?.(body) ?? true))
      checks.push(checkOf(reference.field, reference.lookup, reference.key ? reference.key(body) : body[reference.field], body, reference));
  (body.lines ?? []).forEach((line, i) => {
    for (const reference of spec.lines ?? [])
      if (line[reference.field] !== undefined)
        checks.push(checkOf(`lines.${i}.${reference.field}`, reference.lookup, line[reference.field], body, reference));
  });
  if (spec.batch && body.batchId !== undefined) {
    const check = checkOf('batchId', 'batch', body.batchId, body, null);
    check.where.BCHSOURC = BATCHES[spec.batch].source;
    check.expected.SERIES = BATCHES[spec.batch].series;
    checks.push(check);
  }
  return checks;
}

/** The issue a check's row (or its absence) makes, or null. */
function issueOf(check: Check, row: Readonly<Record<string, unknown>> | undefined): string | null {
  if (!row) return check.lookup.optional ? null : check.message;
  return check.lookup.rules?.find((rule) => rule.broken(row, check.expected))?.message ?? null;
}

/** The rows a write's references named, by body path (`lines.1.itemId`), once every check passed. */
export class Resolved {
  constructor(private readonly rows: ReadonlyMap<string, Readonly<Record<string, unknown>>>) {}

  /** The row the value at `path` names (its selected columns as the database returns them), or undefined when absent. */
  row(path: string): Readonly<Record<string, unknown>> | undefined {
    return this.rows.get(path);
  }

  /**
   * GP's own spelling of the id at `path` (ids are upper-cased on the way in, but GP keeps setup ids
   * such as payment terms in mixed case and compares them case-insensitively), or undefined when absent.
   */
  spelling(path: string): string | undefined {
    const key = this.rows.get(path)?.key;
    return key === undefined || key === null ? undefined : String(key);
  }
}

/** Every check's issue, or the rows by path: a write with any broken reference is refused, each one named. */
export function settle(checks: readonly Check[], rows: readonly (Readonly<Record<string, unknown>> | undefined)[]): Resolved {
  const issues: Issue[] = [];
  const found = new Map<string, Readonly<Record<string, unknown>>>();
  checks.forEach((check, i) => {
    const row = rows[i];
    const message = issueOf(check, row);
    if (message) issues.push({ path: check.path, message });
    if (row) found.set(check.path, row);
  });
  if (issues.length) throw new WriteRefusal(issues);
  return new Resolved(found);
}

/**
 * Body fields that name GP records but are not checked here, and why: GP's eConnect checks them
 * itself on SQL Server (its refusal answers details.gp), and the embedded database has no table for
 * them. references.test.ts holds every id-like field of every body to REFERENCES or this list.
 */
export const UNCHECKED: Readonly<Record<string, string>> = {
  classId: 'customer and vendor classes (RM00201, PM00100) are not among the tables the agent knows',
  salesTerritoryId: 'sales territories (RM00303) are not among the tables the agent knows',
  taxScheduleId: 'tax schedules (TX00101) are not among the tables the agent knows',
  shippingMethodId: 'shipping methods (SY03000) are not among the tables the agent knows',
  taxId: "a vendor's tax registration number, not a reference",
};
