/**
 * The vocabulary for declaring GP tables (tables/ declares them; sqliteSchema.ts holds the SQLite contract).
 */

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
  /** Extra non-unique indexes (a DEX_ROW_TS index is added automatically where hasRowTs). */
  indexes?: string[][];
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

/** Appends the DEX_ columns so no entry can forget them. */
export function table(definition: GpTable): GpTable {
  const dexColumns = definition.hasRowTs ? [datetime(DEX_ROW_TS), int(DEX_ROW_ID)] : [int(DEX_ROW_ID)];
  return { ...definition, columns: [...definition.columns, ...dexColumns] };
}
