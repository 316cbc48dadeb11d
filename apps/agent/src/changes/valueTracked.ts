import type { EventObjectName } from '@gp-gateway/protocol';
import type { TrackedColumn } from './trackedObjects.ts';
import { col, primaryKey } from './trackedObjects.ts';

/**
 * An object whose table has no DEX_ROW_TS in GP (docs/decisions.md#change-detection-without-dex_row_ts):
 * its rows are compared by value with what the agent knows, and a change's version comes from
 * elsewhere (the parent's stamp, or the values themselves).
 */
export interface ValueTrackedObject {
  object: EventObjectName;
  kind: 'values';
  table: string;
  /** GP's primary key of the table: rows are read in its order and known by it. */
  key: readonly TrackedColumn[];
  idColumns: readonly TrackedColumn[];
  idOf(values: readonly unknown[]): string;
  /** Only the object's rows (item quantities: the site rows, record type 2). */
  only?: { column: string; values: readonly number[] };
  /** The columns compared: a row whose values are what the agent knows is no change. */
  values: readonly TrackedColumn[];
  /**
   * GP's trigger stamps this row of another table (by the column `key`, the leading column of this
   * table's key) whenever a row of this table is inserted, updated or deleted: IV00102 stamps its
   * item in IV00101. The parent's stamp finds the rows to compare and is the version of what
   * changed. Without one, the whole table is read on every poll.
   */
  parent?: { table: string; key: string };
}

const columns = (table: string, names: readonly string[]) => names.map((name) => col(table, name));

/**
 * Item quantities (IV00102, site rows) and batches (SY00500). Quantities: found through their
 * item's DEX_ROW_TS, which GP's IV00102 triggers stamp, with the whole table swept every
 * historyEvery-th poll for items deleted with their rows and for commits later than the overlap.
 * Batches: SY00500 holds the batches not yet posted and the recurring ones (GP deletes a
 * single-use batch when it posts it), a small table read whole on every poll.
 */
export const VALUE_TRACKED_OBJECTS: readonly ValueTrackedObject[] = [
  {
    object: 'item-quantities',
    kind: 'values',
    table: 'IV00102',
    key: primaryKey('IV00102'),
    idColumns: columns('IV00102', ['ITEMNMBR', 'LOCNCODE']),
    idOf: (values) => values.map(String).join(':'),
    only: { column: 'RCRDTYPE', values: [2] },
    values: columns('IV00102', ['QTYONHND', 'ATYALLOC', 'QTYONORD', 'QTYBKORD']),
    parent: { table: 'IV00101', key: 'ITEMNMBR' },
  },
  {
    object: 'batches',
    kind: 'values',
    table: 'SY00500',
    key: primaryKey('SY00500'),
    idColumns: columns('SY00500', ['BACHNUMB']),
    idOf: ([number]) => String(number),
    // What the batch's record serves, and MODIFDT, which GP sets on each change of the batch: the
    // same values on another day are another change.
    values: columns('SY00500', ['BCHSOURC', 'SERIES', 'NUMOFTRX', 'BCHTOTAL', 'MKDTOPST', 'GLPOSTDT', 'MODIFDT']),
  },
];
