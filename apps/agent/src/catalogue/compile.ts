import { codeOf, splitCompositeId, type FilterValues, type Position } from '@gp-gateway/protocol';
import { GP_TABLES, isRowIdKey, type GpTable } from '@gp-gateway/gp-schema';
import type { Dialect } from '../sql/dialect.ts';
import type { ColumnRef, CompiledQuery, Condition, SelectQuery, SqlType, TableRef } from '../sql/model.ts';
import { decoderFor, jsonValue, jsonWriterFor, type Decoder } from './codecs.ts';
import { sqliteRowJson } from './sqlite/rowJson.ts';
import { checkKeys, keyFor, tableKey, type GpTables, type TableKey } from './pagingKeys.ts';
import type { ColumnSource, FilterDef, IdPart, ResourceDef } from './types.ts';

const MAIN = 't';
/** GP's empty date (docs/api.md#value-formats: shown as null). */
const GP_EMPTY_DATE = '1900-01-01';
/** The last date a date filter accepts (packages/protocol/src/filters.ts). */
const LAST_DATE = '9999-12-31';
/** Filters over a range of values: where no key serves one, the best plan depends on the range. */
const RANGE_KINDS = new Set<FilterDef['kind']>(['atOrAfter', 'onOrAfter', 'onOrBefore', 'before']);

/** One select of a list page: which source table, on which key, walking which columns. */
export interface ListQuery {
  source: number;
  /** The key's name (KeyDef.name), the first part of a position. */
  key: string;
  /** The key columns the list walks, in order; a position holds a value for each. */
  walk: readonly ColumnRef[];
  query: SelectQuery;
}

/** A key column's value as a position holds it: text as read (trimmed), integers as numbers. */
export function keyValue(column: ColumnRef, raw: unknown): string | number {
  return column.type.kind === 'int' ? Number(raw) : String(raw);
}

class CatalogueError extends Error {}

const sqlTypes = new WeakMap<GpTables, Map<string, SqlType>>();

/**
 * The SQL type of a GP column as `tables` has it (the account tables' segment columns depend on the
 * install's account framework), looked up once per column: queries ask for it on every request.
 */
export function sqlTypeOf(table: string, column: string, tables: GpTables = GP_TABLES): SqlType {
  let types = sqlTypes.get(tables);
  if (!types) sqlTypes.set(tables, (types = new Map()));
  const key = `${table}.${column}`;
  let type = types.get(key);
  if (!type) {
    type = lookUpSqlType(table, column, tables);
    types.set(key, type);
  }
  return type;
}

function lookUpSqlType(table: string, column: string, tables: GpTables): SqlType {
  const def = (tables as Readonly<Record<string, GpTable | undefined>>)[table];
  const col = def?.columns.find((c) => c.name === column);
  if (!def || !col) throw new CatalogueError(`the catalogue refers to ${table}.${column}, which is not a known GP column`);
  switch (col.type) {
    case 'char':
      return { kind: 'char', length: col.length ?? 1 };
    case 'numeric':
      return { kind: 'numeric' };
    case 'datetime':
      return { kind: 'datetime' };
    default:
      return { kind: 'int' };
  }
}

/**
 * A resource prepared for one dialect and one GP install's tables (GP_TABLES unless the install's
 * account framework gives the account tables other segment columns: gpTablesFor): the select list
 * (every column its fields need, then the row id), and a row encoder that turns one raw row into the
 * API object's JSON text. Built once per resource.
 */
export class PreparedResource {
  readonly def: ResourceDef;
  readonly dialect: Dialect;
  readonly tables: GpTables;
  private readonly slots: ColumnSource[] = [];
  /** Per source table, the key columns no field reads, selected after the fields' (`slots`). */
  private readonly keyColumns = new Map<string, string[]>();
  private readonly selectLists = new Map<string, ColumnRef[]>();
  /** Per field: its JSON key with the separator before it (`{"id":`, `,"name":`), and its value's JSON writer. */
  private readonly fields: Array<readonly [string, (raw: readonly unknown[]) => string]> = [];
  /**
   * On the embedded database, the row's JSON written by SQLite (catalogue/sqlite/rowJson.ts), for list
   * pages; null for SQL Server, and for a resource with a computed field that has no SQLite twin.
   */
  readonly jsonRow: CompiledQuery | null;
  /**
   * Whether a list without filters reads only the rows it returns: no source table has a condition of
   * its own (such as GL's closing rows left out), so each is read in its key's index order from the page's
   * start, and nothing is read and then skipped. callingThreadPlans.test.ts holds the rest: those
   * reads, and the joins, go through keys. Asked on every list request, so worked out once.
   */
  readonly unfilteredListReadsOnlyItsRows: boolean;

  constructor(def: ResourceDef, dialect: Dialect, tables: GpTables = GP_TABLES) {
    this.def = def;
    this.dialect = dialect;
    this.tables = tables;
    const slotOf = (source: ColumnSource) => {
      const found = this.slots.findIndex((s) => s.column === source.column && s.join === source.join);
      if (found !== -1) return found;
      this.slots.push({ column: source.column, ...(source.join ? { join: source.join } : {}) });
      return this.slots.length - 1;
    };
    for (const [name, field] of Object.entries(def.fields)) {
      const key = `${this.fields.length === 0 ? '{' : ','}${JSON.stringify(name)}:`;
      if ('codec' in field) {
        const slot = slotOf(field);
        const write = jsonWriterFor(field.codec, dialect);
        this.fields.push([key, (raw) => write(raw[slot])]);
      } else {
        const parts: Array<[number, Decoder]> = field.columns.map((c) => [slotOf(c), decoderFor(c.codec, dialect)]);
        this.fields.push([key, (raw) => jsonValue(field.compute(parts.map(([slot, decode]) => decode(raw[slot]))))]);
      }
    }
    // Every key column of a table is selected from it (after the fields' columns), so that a page's
    // last row gives its position; tables of one list may have different keys (GL's year columns).
    checkKeys(def, tables);
    for (const source of def.sources) {
      const extra: string[] = [];
      for (const key of [def.keys.default, ...(def.keys.byFilter ?? [])]) {
        for (const column of tableKey(key, source.table, tables)?.columns ?? []) {
          if (!extra.includes(column) && !this.slots.some((s) => s.column === column && !s.join)) extra.push(column);
        }
      }
      this.keyColumns.set(source.table, extra);
    }
    const column = (source: ColumnSource) => `${dialect.quote(source.join ?? MAIN)}.${dialect.quote(source.column)}`;
    this.jsonRow = dialect.name === 'sqlite' ? sqliteRowJson(def.fields, column) : null;
    this.unfilteredListReadsOnlyItsRows = def.sources.every((source) => !source.where?.length);
    // Fail at start-up, not on a request, when the catalogue names a column GP does not have.
    for (const source of def.sources) this.columns(source.table);
  }

  /**
   * One raw row as the API object's JSON text, the same text JSON.stringify would write for the
   * decoded object, written field by field: no object is built only to be serialised.
   */
  encode(raw: readonly unknown[]): string {
    let json = '';
    for (const [key, write] of this.fields) json += key + write(raw);
    return json === '' ? '{}' : `${json}}`;
  }

  private tableOf(source: ColumnSource, mainTable: string): string {
    if (!source.join) return mainTable;
    const join = this.def.joins?.find((j) => j.alias === source.join);
    if (!join) throw new CatalogueError(`${this.def.object}: unknown join ${source.join}`);
    return join.table;
  }

  ref(source: ColumnSource, mainTable: string): ColumnRef {
    const table = this.tableOf(source, mainTable);
    return { alias: source.join ?? MAIN, column: source.column, type: sqlTypeOf(table, source.column, this.tables) };
  }

  /** The select list for a source table; built once per table, since every request needs it. */
  columns(mainTable: string): ColumnRef[] {
    let columns = this.selectLists.get(mainTable);
    if (!columns) {
      const keyColumns = this.keyColumns.get(mainTable) ?? [];
      columns = [...this.slots.map((s) => this.ref(s, mainTable)), ...keyColumns.map((column) => this.ref({ column }, mainTable))];
      this.selectLists.set(mainTable, columns);
    }
    return columns;
  }

  /**
   * The selects a page of a list with these filters reads, in order, starting after `after`: per
   * source table, on the key keyFor gives it (docs/decisions.md#keyset-paging-on-gps-own-indexes).
   * From a position, a table's walk is split into parts that each seek: on a key (k1, k2, k3) after
   * (a, b, c), `k1 = a AND k2 = b AND k3 > c`, then `k1 = a AND k2 > b`, then `k1 > a`. One statement
   * `(k1, k2, k3) > (a, b, c)`, or the same with ORs, reads the index from the first key column only:
   * the deeper the page, the more of the index it reads and throws away. Key columns the conditions
   * pin to one value (a filter's, a table's own) are neither walked nor in the position.
   */
  listQueries(company: string | null, filters: FilterValues, limit: number, after: Position | null): ListQuery[] {
    let sources = this.def.sources.map((_, i) => i);
    for (const [name, value] of Object.entries(filters)) {
      const filter = this.filterDef(name);
      if (filter.kind === 'sources') sources = sources.filter((s) => filter.sources[String(value)]?.includes(s));
    }
    const afterSource = after ? Number(after[1]) : -1;
    const queries: ListQuery[] = [];
    for (const s of sources) {
      if (s < afterSource) continue;
      const table = this.def.sources[s]!.table;
      const where = this.baseConditions(s);
      for (const [name, value] of Object.entries(filters)) where.push(...this.conditions(name, value, table));
      const key = keyFor(this.def, table, Object.keys(filters), this.tables);
      const walk = this.walkOf(key, where, table);
      const recompile = Object.keys(filters).some((name) => RANGE_KINDS.has(this.filterDef(name).kind) && !key.serves.includes(name));
      // Ordered by every key column, pinned ones too: then the order is the index's own, plainly.
      const orderBy = key.columns.map((column) => this.ref({ column }, table));
      const index = isRowIdKey(this.tables[table]!) && key.index.startsWith('PK') ? 'rowid' : key.index;
      const select = (conditions: Condition[]): ListQuery => ({
        source: s,
        key: key.name,
        walk,
        query: {
          ...this.select(company, table, settled([...where, ...conditions], key.columns), orderBy, limit),
          index,
          ...(recompile ? { recompile } : {}),
        },
      });
      if (s !== afterSource) {
        queries.push(select([]));
        continue;
      }
      const values = after!.slice(2);
      for (let i = walk.length - 1; i >= 0; i--) {
        const position: Condition[] = walk.slice(0, i).map((column, j) => ({ op: 'eq', column, value: values[j]!, position: true }));
        queries.push(select([...position, { op: 'gt', column: walk[i]!, value: values[i]!, position: true }]));
      }
    }
    return queries;
  }

  /**
   * Whether `position` is one that a page of this list with these filters can have ended on: its
   * key's name, a source table the filters read, and a value of the right kind per walked column.
   */
  isPosition(filters: FilterValues, position: Position): boolean {
    const [name, source, ...values] = position;
    if (typeof name !== 'string' || typeof source !== 'number' || !Number.isInteger(source)) return false;
    const def = this.def.sources[source];
    if (!def) return false;
    const query = this.listQueries(null, filters, 1, null).find((q) => q.source === source);
    if (!query || query.key !== name || query.walk.length !== values.length) return false;
    return query.walk.every((column, i) => {
      const value = values[i];
      return column.type.kind === 'int' ? Number.isSafeInteger(value) : typeof value === 'string';
    });
  }

  /** The position a page ends on when `raw`, a row of `query`'s select list, is its last row. */
  positionOf(query: ListQuery, raw: readonly unknown[]): Position {
    const table = query.query.from.table;
    return [query.key, query.source, ...query.walk.map((column) => keyValue(column, raw[this.slotOf(column.column, table)]))];
  }

  /** The walked columns of a key: those the conditions do not pin to one value. */
  private walkOf(key: TableKey, where: readonly Condition[], table: string): ColumnRef[] {
    const pinned = new Set(
      where
        .filter((c) => (c.op === 'eq' || c.op === 'eqLookup') && c.column.alias === MAIN)
        .map((c) => (c as { column: ColumnRef }).column.column),
    );
    return key.columns.filter((column) => !pinned.has(column)).map((column) => this.ref({ column }, table));
  }

  /** Where a column of the main table is in its select list (columns()). */
  private slotOf(column: string, table: string): number {
    const slot = this.slots.findIndex((s) => s.column === column && !s.join);
    if (slot !== -1) return slot;
    const extra = this.keyColumns.get(table)?.indexOf(column) ?? -1;
    if (extra === -1) throw new CatalogueError(`${this.def.object}: key column ${column} is not selected`);
    return this.slots.length + extra;
  }

  /** One select per source table for the object with this id (its parts already split), in preference order. */
  getQueries(company: string | null, idParts: readonly string[]): SelectQuery[] {
    const parts = this.def.idParts;
    if (!parts || parts.length !== idParts.length) throw new CatalogueError(`${this.def.object} has no get by this id`);
    return this.def.sources.map((source, s) => {
      const where = [...this.baseConditions(s), ...this.idConditions(parts, idParts, source.table)];
      // Any unique order: the id picks one row. The default key's, which GP indexes.
      const key = keyFor(this.def, source.table, [], this.tables).columns.map((column) => this.ref({ column }, source.table));
      return this.select(company, source.table, where, key, 1);
    });
  }

  /** Id parts matched column by column; an enum part takes the API name (or an unlisted code's number). */
  private idConditions(parts: readonly IdPart[], values: readonly string[], table: string): Condition[] {
    return parts.map((part, i) => {
      const column = this.ref(part, table);
      const value = values[i]!;
      if (!part.enum) return equals(column, value);
      const code = codeOf(part.enum, value);
      return code === null ? NOTHING(column) : { op: 'eq', column, value: code };
    });
  }

  private filterDef(name: string): FilterDef {
    const filter = this.def.filters[name];
    if (!filter) throw new CatalogueError(`${this.def.object} has no filter ${name}`);
    return filter;
  }

  private baseConditions(source: number): Condition[] {
    const def = this.def.sources[source]!;
    return (def.where ?? []).map((c): Condition => {
      const column = this.ref({ column: c.column }, def.table);
      if ('values' in c) return { op: c.op, column, values: c.values };
      return { op: c.op, column, value: c.value };
    });
  }

  private conditions(name: string, value: FilterValues[string], table: string): Condition[] {
    const filter = this.filterDef(name);
    switch (filter.kind) {
      case 'sources':
        return [];
      case 'containsAny':
        return [{ op: 'containsAny', columns: filter.columns.map((c) => this.ref(c, table)), text: String(value) }];
      case 'eqLookup':
      case 'inLookup': {
        const { lookup } = filter;
        const alias = 'l';
        const match: ColumnRef = { alias, column: lookup.column, type: sqlTypeOf(lookup.table, lookup.column, this.tables) };
        const column = this.ref({ column: filter.column }, table);
        const from = { database: this.def.database, table: lookup.table, alias };
        const key: ColumnRef = { alias, column: lookup.key, type: sqlTypeOf(lookup.table, lookup.key, this.tables) };
        if (filter.kind === 'inLookup') {
          return [{ op: 'inLookup', column, table: from, key, match, values: (value as string[]).filter((v) => fits(match, v)) }];
        }
        return fits(match, String(value)) ? [{ op: 'eqLookup', column, table: from, key, match, value: String(value) }] : [NOTHING(column)];
      }
      case 'document': {
        const id = String(value);
        const values = filter.splitAt ? splitCompositeId(id, filter.splitAt) : [id];
        return values ? this.idConditions(filter.parts, values, table) : [NOTHING(this.ref(filter.parts[0]!, table))];
      }
    }
    const column = this.ref(filter, table);
    switch (filter.kind) {
      case 'eq': {
        if (!filter.enum) return [equals(column, value as string | number)];
        const code = codeOf(filter.enum, String(value));
        return [code === null ? NOTHING(column) : { op: 'eq', column, value: code }];
      }
      case 'contains':
        return [{ op: 'contains', column, text: String(value) }];
      case 'in':
        return [{ op: 'in', column, values: (value as string[]).filter((v) => fits(column, v)) }];
      case 'flag':
        return [{ op: 'eq', column, value: value ? 1 : 0 }];
      case 'atOrAfter':
      case 'onOrAfter':
        return [{ op: 'gte', column, value: value as string }];
      // GP's empty date is 1900-01-01, which the API shows as null: "before" never matches it.
      case 'before':
        return [
          { op: 'lt', column, value: value as string },
          { op: 'gt', column, value: GP_EMPTY_DATE },
        ];
      case 'onOrBefore':
        // GP dates carry no time, but "before the next day" stays right even if one does. The last
        // date there is has no next day, and every date is on or before it.
        return [
          ...(value === LAST_DATE ? [] : [{ op: 'lt' as const, column, value: nextDay(value as string) }]),
          { op: 'gt', column, value: GP_EMPTY_DATE },
        ];
    }
  }

  private select(company: string | null, table: string, where: Condition[], orderBy: ColumnRef[], limit: number): SelectQuery {
    const from: TableRef = { database: this.def.database, table, alias: MAIN };
    const joins = (this.def.joins ?? []).map((j) => ({
      database: this.def.database,
      table: j.table,
      alias: j.alias,
      foreignColumn: j.foreignColumn,
      on: this.ref({ column: j.localColumn }, table),
    }));
    return { company, from, joins, columns: this.columns(table), where, orderBy, limit };
  }
}

/**
 * The conditions as the key's index can best serve them. A column fixed by `=` needs no IN as well
 * (the IN of a table's own condition, RMDTYPAL IN (invoice types), with RMDTYPAL = the position's):
 * the IN makes SQLite read several values and sort them back into order. And `=` on a key column
 * after the first one the index cannot seek on is residual (Condition `residual`): SQLite would
 * otherwise take it as a reason to sort the rest of the ORDER BY.
 */
function settled(where: Condition[], keyColumns: readonly string[]): Condition[] {
  const fixed = new Map<string, { value: string | number }>();
  for (const c of where) if (c.op === 'eq' && c.column.alias === MAIN) fixed.set(c.column.column, c);
  // An integer column's IN list and a position past one of its values (RMDTYPAL > 3): the values
  // past it, one seek each; with both, SQLite seeks each value of the list and reads all its rows.
  const after = new Map<string, number>();
  for (const c of where)
    if (c.op === 'gt' && c.column.alias === MAIN && c.column.type.kind === 'int') after.set(c.column.column, Number(c.value));
  const inLists = new Set(
    where.filter((c) => c.op === 'in' && c.column.alias === MAIN).map((c) => (c as { column: ColumnRef }).column.column),
  );
  const out = where.flatMap((c): Condition[] => {
    if (!('column' in c) || c.column.alias !== MAIN) return [c];
    if (c.op === 'gt' && inLists.has(c.column.column) && after.has(c.column.column)) return [];
    if (c.op !== 'in') return [c];
    const eq = fixed.get(c.column.column);
    if (eq) {
      const same = (v: string | number) => String(v).replace(/ +$/, '').toUpperCase() === String(eq.value).replace(/ +$/, '').toUpperCase();
      return c.values.some(same) ? [] : [NOTHING(c.column)];
    }
    const past = after.get(c.column.column);
    return past === undefined ? [c] : [{ ...c, values: c.values.filter((v) => Number(v) > past) }];
  });
  const pinned = new Set(
    where.filter((c) => c.op === 'eqLookup' && c.column.alias === MAIN).map((c) => (c as { column: ColumnRef }).column.column),
  );
  const seekable = keyColumns.findIndex((column) => !fixed.has(column) && !pinned.has(column));
  const residual = new Set(seekable === -1 ? [] : keyColumns.slice(seekable + 1));
  return out.map((c) => (c.op === 'eq' && c.column.alias === MAIN && residual.has(c.column.column) ? { ...c, residual: true } : c));
}

/** A value longer than its char(n) column can never equal a value of it. */
function fits(column: ColumnRef, value: string | number): boolean {
  return column.type.kind !== 'char' || String(value).replace(/ +$/, '').length <= column.type.length;
}

/** A condition that matches no row (rendered `1 = 0`). */
const NOTHING = (column: ColumnRef): Condition => ({ op: 'in', column, values: [] });

/** Equality, or a condition that matches nothing when the value cannot fit the column. */
function equals(column: ColumnRef, value: string | number): Condition {
  return fits(column, value) ? { op: 'eq', column, value } : NOTHING(column);
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
