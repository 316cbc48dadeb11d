import { AP_DOCUMENT_TYPES, AR_DOCUMENT_TYPES, SALES_DOCUMENT_TYPES, type EventObjectName } from '@gp-gateway/protocol';
import { GP_INDEXES } from '@gp-gateway/gp-schema';
import { sqlTypeOf } from '../catalogue/compile.ts';
import type { SqlType } from '../sql/model.ts';

/** A column of a tracked table, with the GP type its values are bound as. */
export interface TrackedColumn {
  column: string;
  type: SqlType;
  /**
   * Read from another table by the row's `key` column instead of from the row itself: an account's
   * number lives in GL00105, by ACTINDX. Selected as a scalar subquery through that table's key.
   */
  lookup?: { table: string; key: string };
}

/** One GP table holding records of an object (several for documents: work, open, history). */
export interface TrackedSource {
  table: string;
  /** The table's primary key, in order (GP's own, from gp-schema): key ranges walk it. */
  key: readonly TrackedColumn[];
  /** The columns the record's API id is made of, and how. */
  idColumns: readonly TrackedColumn[];
  idOf(values: readonly unknown[]): string;
  /** Only the rows of this object where others share the table (receivables documents by type). */
  only?: { column: string; values: readonly number[] };
  /**
   * A history table: polled only every `historyEvery`th poll of its object (docs/decisions.md#change-feed),
   * since it is the largest and changes least (what lands in it is found when it is polled, or at
   * once when a document leaves a table polled more often).
   */
  history?: boolean;
}

/** An object whose changes the agent detects (docs/decisions.md#change-feed). */
export interface TrackedObject {
  object: EventObjectName;
  sources: readonly TrackedSource[];
}

export const col = (table: string, column: string): TrackedColumn => ({ column, type: sqlTypeOf(table, column) });

/** The table's primary key as GP declares it: what ranges are cut on and compared by. */
export function primaryKey(table: string): TrackedColumn[] {
  const pk = GP_INDEXES[table]?.find((index) => index.primaryKey);
  if (!pk) throw new Error(`change detection needs GP's primary key of ${table}, which gp-schema does not declare`);
  return pk.columns.map((column) => col(table, column));
}

/** A source whose API id is its columns `idColumns`, as `idOf` joins them. */
function source(
  table: string,
  idColumns: readonly string[],
  idOf: (values: readonly unknown[]) => string,
  extra: Partial<Pick<TrackedSource, 'only' | 'history'>> = {},
): TrackedSource {
  return { table, key: primaryKey(table), idColumns: idColumns.map((c) => col(table, c)), idOf, ...extra };
}

/** A master record of one table, keyed by the char column that is its id. */
function master(object: EventObjectName, table: string, id: string): TrackedObject {
  return { object, sources: [source(table, [id], ([value]) => String(value))] };
}

/** `AARONACA0001:PRIMARY`: a composite id split at its last `:` (docs/api.md#composite-ids). */
const joined = (values: readonly unknown[]) => values.map(String).join(':');

/** `invoice:INV00001047`: a document's type name and number (docs/api.md#composite-ids). */
function typed(names: Readonly<Record<number, string>>) {
  return ([type, number]: readonly unknown[]) => `${names[Number(type)] ?? String(type)}:${String(number)}`;
}
const arId = typed(AR_DOCUMENT_TYPES);
const apId = typed(AP_DOCUMENT_TYPES);
const salesId = typed(SALES_DOCUMENT_TYPES);

/** The receivables documents of `types`: unposted in RM10301, open in RM20101, history in RM30101. */
function receivables(object: 'ar-invoices' | 'ar-payments', types: readonly number[], work: boolean): TrackedObject {
  const only = { column: 'RMDTYPAL', values: types };
  return {
    object,
    sources: [
      ...(work ? [source('RM10301', ['RMDTYPAL', 'DOCNUMBR'], arId)] : []),
      source('RM20101', ['RMDTYPAL', 'DOCNUMBR'], arId, { only }),
      source('RM30101', ['RMDTYPAL', 'DOCNUMBR'], arId, { only, history: true }),
    ],
  };
}

/**
 * Payables documents of `types`: unposted in PM10000 (id by the work voucher number, which posting
 * keeps as the voucher number), open in PM20000, history in PM30200.
 */
function payables(object: 'ap-invoices' | 'ap-payments', types: readonly number[], work: boolean): TrackedObject {
  const only = { column: 'DOCTYPE', values: types };
  return {
    object,
    sources: [
      ...(work ? [source('PM10000', ['DOCTYPE', 'VCHNUMWK'], apId, { only })] : []),
      source('PM20000', ['DOCTYPE', 'VCHRNMBR'], apId, { only }),
      source('PM30200', ['DOCTYPE', 'VCHRNMBR'], apId, { only, history: true }),
    ],
  };
}

/** A line's id: its document's id and its line number (LNITMSEQ, ORD), the last two id columns. */
function line(documentId: (values: readonly unknown[]) => string) {
  return (values: readonly unknown[]) => `${documentId(values.slice(0, -1))}:${String(values.at(-1))}`;
}

/**
 * The objects detected. A document keeps its id as posting moves it from table to table, so the move
 * is one `updated`; so does a line, whose id is its document's and its line number. Item quantities
 * (IV00102) and batches (SY00500) have no DEX_ROW_TS in GP: they are compared by value
 * (valueTracked.ts).
 */
export const TRACKED_OBJECTS: readonly TrackedObject[] = [
  master('customers', 'RM00101', 'CUSTNMBR'),
  { object: 'customer-addresses', sources: [source('RM00102', ['CUSTNMBR', 'ADRSCODE'], joined)] },
  master('vendors', 'PM00200', 'VENDORID'),
  { object: 'vendor-addresses', sources: [source('PM00300', ['VENDORID', 'ADRSCODE'], joined)] },
  master('items', 'IV00101', 'ITEMNMBR'),
  {
    object: 'accounts',
    sources: [
      {
        table: 'GL00100',
        key: primaryKey('GL00100'),
        idColumns: [{ ...col('GL00105', 'ACTNUMST'), lookup: { table: 'GL00105', key: 'ACTINDX' } }],
        idOf: ([number]) => String(number),
      },
    ],
  },
  receivables('ar-invoices', [1, 3, 4, 5, 6, 7, 8], true),
  receivables('ar-payments', [9], false),
  payables('ap-invoices', [1, 2, 3, 4, 5], true),
  payables('ap-payments', [6], false),
  {
    object: 'sales-orders',
    sources: [
      source('SOP10100', ['SOPTYPE', 'SOPNUMBE'], salesId),
      source('SOP30200', ['SOPTYPE', 'SOPNUMBE'], salesId, { history: true }),
    ],
  },
  {
    object: 'sales-order-lines',
    // Top-level lines only, as the API lists them: kit components (CMPNTSEQ > 0) belong to their kit line.
    sources: [
      source('SOP10200', ['SOPTYPE', 'SOPNUMBE', 'LNITMSEQ'], line(salesId), { only: { column: 'CMPNTSEQ', values: [0] } }),
      source('SOP30300', ['SOPTYPE', 'SOPNUMBE', 'LNITMSEQ'], line(salesId), { only: { column: 'CMPNTSEQ', values: [0] }, history: true }),
    ],
  },
  {
    object: 'purchase-orders',
    sources: [
      source('POP10100', ['PONUMBER'], ([n]) => String(n)),
      source('POP30100', ['PONUMBER'], ([n]) => String(n), { history: true }),
    ],
  },
  {
    object: 'purchase-order-lines',
    sources: [
      source(
        'POP10110',
        ['PONUMBER', 'ORD'],
        line(([n]) => String(n)),
      ),
      source(
        'POP30110',
        ['PONUMBER', 'ORD'],
        line(([n]) => String(n)),
        { history: true },
      ),
    ],
  },
];
