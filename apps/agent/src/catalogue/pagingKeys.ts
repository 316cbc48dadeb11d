import { GP_TABLES, type GpTable } from '@gp-gateway/gp-schema';
import type { FilterKeyDef, KeyDef, ResourceDef } from './types.ts';

/** A key as one source table has it: the GP index and the columns, in order, that the list walks. */
export interface TableKey {
  /** The key's name, recorded in the cursor. */
  name: string;
  index: string;
  columns: readonly string[];
  /** The filters this key serves; a range filter not among them is a residual predicate. */
  serves: readonly string[];
}

class KeyError extends Error {}

/**
 * GP's tables as the agent's database has them, by name: GP_TABLES, or gp-schema's gpTablesFor(the
 * install's account framework), whose account tables have that framework's segment columns and indexes.
 */
export type GpTables = Readonly<Record<string, GpTable>>;

/** `key` as `table` has it, or null when it has no index of the table. */
export function tableKey(key: KeyDef | FilterKeyDef, table: string, tables: GpTables = GP_TABLES): TableKey | null {
  const serves = 'filters' in key ? key.filters : [];
  const entry = key.indexes[table];
  if (entry === undefined) return null;
  const { index, columns } = typeof entry === 'string' ? { index: entry, columns: undefined } : entry;
  const gp = tables[table]?.indexes?.find((i) => i.name === index);
  if (!gp) throw new KeyError(`key ${key.name}: ${index} is not one of GP's indexes of ${table}`);
  if (!gp.unique) throw new KeyError(`key ${key.name}: ${index} is not unique`);
  if (columns !== undefined && (columns < 1 || columns > gp.columns.length))
    throw new KeyError(`key ${key.name}: ${index} has no ${columns} columns`);
  return { name: key.name, index, columns: gp.columns.slice(0, columns ?? gp.columns.length), serves };
}

/**
 * The key a list of `def` pages on in `table` with these filters: the first key of `byFilter` that
 * serves one of them and has an index of the table, or the default key.
 */
export function keyFor(def: ResourceDef, table: string, filters: readonly string[], tables: GpTables = GP_TABLES): TableKey {
  for (const key of def.keys.byFilter ?? []) {
    if (!key.filters.some((f) => filters.includes(f))) continue;
    const found = tableKey(key, table, tables);
    if (found) return found;
  }
  const found = tableKey(def.keys.default, table, tables);
  if (!found) throw new KeyError(`${def.object}: the default key has no index of ${table}`);
  return found;
}

/** Every key of `def` checked against GP's indexes, for start-up: a wrong key fails there, not on a request. */
export function checkKeys(def: ResourceDef, tables: GpTables = GP_TABLES): void {
  for (const source of def.sources) {
    keyFor(def, source.table, [], tables);
    for (const key of def.keys.byFilter ?? []) {
      for (const filter of key.filters)
        if (!def.filters[filter]) throw new KeyError(`${def.object}: key ${key.name} serves no filter ${filter}`);
      tableKey(key, source.table, tables);
    }
  }
}
