import { AR_DOCUMENT_TYPES, type EventObjectName } from '@gp-gateway/protocol';
import type { SqlType } from '../sql/model.ts';

/** A column of a tracked table, with the GP type its values are bound as. */
export interface TrackedColumn {
  column: string;
  type: SqlType;
}

/** One GP table holding records of an object (several for documents: work, open, history). */
export interface TrackedSource {
  table: string;
  /** The table's primary key, in order: key ranges walk it. */
  key: readonly TrackedColumn[];
  /** The columns the record's API id is made of, and how. */
  idColumns: readonly TrackedColumn[];
  idOf(values: readonly unknown[]): string;
  /** Only the rows of this object where others share the table (receivables documents by type). */
  only?: { column: string; values: readonly number[] };
}

/** An object whose changes the agent detects (docs/decisions.md#change-feed). */
export interface TrackedObject {
  object: EventObjectName;
  sources: readonly TrackedSource[];
}

const char = (column: string, length: number): TrackedColumn => ({ column, type: { kind: 'char', length } });
const int = (column: string): TrackedColumn => ({ column, type: { kind: 'int' } });

/** A master record of one table, keyed by the char column that is its id. */
function master(object: EventObjectName, table: string, key: TrackedColumn): TrackedObject {
  return { object, sources: [{ table, key: [key], idColumns: [key], idOf: ([id]) => String(id) }] };
}

const AR_TYPE_NAMES: Readonly<Record<number, string>> = AR_DOCUMENT_TYPES;
/** `invoice:INV00001047`: the document's type name and number (docs/api.md#composite-ids). */
const arId = ([type, number]: readonly unknown[]) => `${AR_TYPE_NAMES[Number(type)] ?? String(type)}:${String(number)}`;
const AR_INVOICE_TYPES = [1, 3, 4, 5, 6, 7, 8];

/**
 * The objects detected so far. Receivables documents live in three tables: unposted in RM10301,
 * open in RM20101, history in RM30101; one document keeps its id as posting moves it from table to
 * table, so the move is one `updated`.
 */
export const TRACKED_OBJECTS: readonly TrackedObject[] = [
  master('customers', 'RM00101', char('CUSTNMBR', 15)),
  master('vendors', 'PM00200', char('VENDORID', 15)),
  master('items', 'IV00101', char('ITEMNMBR', 31)),
  {
    object: 'ar-invoices',
    sources: [
      { table: 'RM10301', key: [int('RMDTYPAL'), char('RMDNUMWK', 17)], idColumns: [int('RMDTYPAL'), char('DOCNUMBR', 21)], idOf: arId },
      ...['RM20101', 'RM30101'].map((table) => ({
        table,
        key: [char('CUSTNMBR', 15), int('RMDTYPAL'), char('DOCNUMBR', 21)],
        idColumns: [int('RMDTYPAL'), char('DOCNUMBR', 21)],
        idOf: arId,
        only: { column: 'RMDTYPAL', values: AR_INVOICE_TYPES },
      })),
    ],
  },
];
