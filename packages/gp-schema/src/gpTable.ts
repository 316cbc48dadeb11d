/**
 * The vocabulary for declaring GP tables (tables/ declares them; sqliteSchema.ts holds the SQLite contract).
 */
import { GP_INDEXES, type GpIndex } from './gpIndexes.ts';

export type GpColumnType = 'char' | 'int' | 'smallint' | 'tinyint' | 'numeric' | 'datetime';

export interface GpColumn {
  name: string;
  type: GpColumnType;
  /** char(n) only. */
  length?: number;
}

export interface GpTable {
  name: string;
  database: 'system' | 'company';
  /** All columns in GP order; table() appends DEX_ROW_TS (when hasRowTs) and DEX_ROW_ID last. */
  columns: GpColumn[];
  /** GP's primary key; ['DEX_ROW_ID'] where GP keys the table on it. */
  primaryKey: string[];
  hasRowTs: boolean;
  /** GP's own indexes, its primary key first (gpIndexes.ts); table() fills them in. */
  indexes?: readonly GpIndex[];
  /**
   * The parent table whose DEX_ROW_TS this table's inserts, updates and deletes bump; `key` names
   * the columns the two share.
   */
  bumpsParentRowTs?: { table: string; key: string[] };
}

export const DEX_ROW_ID = 'DEX_ROW_ID';
export const DEX_ROW_TS = 'DEX_ROW_TS';

export const char = (name: string, length: number): GpColumn => ({ name, type: 'char', length });
export const int = (name: string): GpColumn => ({ name, type: 'int' });
export const smallint = (name: string): GpColumn => ({ name, type: 'smallint' });
export const tinyint = (name: string): GpColumn => ({ name, type: 'tinyint' });
/** numeric(19,5): money and quantities. */
export const numeric = (name: string): GpColumn => ({ name, type: 'numeric' });
export const datetime = (name: string): GpColumn => ({ name, type: 'datetime' });

/**
 * Appends the DEX_ columns so no entry can forget them, and GP's indexes of the table (`indexes`, or
 * else gpIndexes.ts's), whose primary key must be the one declared and whose columns must all be declared.
 */
export function table(
  definition: Omit<GpTable, 'indexes'>,
  indexes: readonly GpIndex[] | undefined = GP_INDEXES[definition.name],
): GpTable {
  const dexColumns = definition.hasRowTs ? [datetime(DEX_ROW_TS), int(DEX_ROW_ID)] : [int(DEX_ROW_ID)];
  const columns = [...definition.columns, ...dexColumns];
  if (!indexes) throw new Error(`${definition.name}: GP's indexes are not listed in gpIndexes.ts`);
  const primaryKey = indexes.find((index) => index.primaryKey);
  if (primaryKey?.columns.join() !== definition.primaryKey.join()) throw new Error(`${definition.name}: the primary key is not GP's`);
  for (const index of indexes) {
    const missing = index.columns.filter((c) => !columns.some((column) => column.name === c));
    if (missing.length) throw new Error(`${definition.name}: ${index.name} needs the columns ${missing.join(', ')}`);
  }
  return { ...definition, columns, indexes };
}
