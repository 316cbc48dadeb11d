import { codeOf, splitCompositeId, type FilterValues, type Position } from '@gp-gateway/protocol';
import { GP_TABLES, type GpTable } from '@gp-gateway/gp-schema';
import type { Dialect } from '../sql/dialect.ts';
import type { ColumnRef, CompiledQuery, Condition, SelectQuery, SqlType, TableRef } from '../sql/model.ts';
import { decoderFor, jsonValue, jsonWriterFor, type Decoder } from './codecs.ts';
import { sqliteRowJson } from './sqlite/rowJson.ts';
import type { ColumnSource, FilterDef, IdPart, ResourceDef } from './types.ts';

const MAIN = 't';
/** GP's empty date (docs/api.md#value-formats: shown as null). */
const GP_EMPTY_DATE = '1900-01-01';
/** The last date a date filter accepts (packages/protocol/src/filters.ts). */
const LAST_DATE = '9999-12-31';
/** Every GP table has DEX_ROW_ID; keyset paging walks it (decision: position = [source, DEX_ROW_ID]). */
const ROW_ID = 'DEX_ROW_ID';

export class CatalogueError extends Error {}

const sqlTypes = new Map<string, SqlType>();

/** The SQL type of a GP column, looked up once per column: queries ask for it on every request. */
export function sqlTypeOf(table: string, column: string): SqlType {
  const key = `${table}.${column}`;
  let type = sqlTypes.get(key);
  if (!type) {
    type = lookUpSqlType(table, column);
    sqlTypes.set(key, type);
  }
  return type;
}

function lookUpSqlType(table: string, column: string): SqlType {
  const def = (GP_TABLES as Readonly<Record<string, GpTable | undefined>>)[table];
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
 * A resource prepared for one dialect: the select list (every column its fields need, then the row
 * id), and a row encoder that turns one raw row into the API object's JSON text. Built once per
 * resource.
 */
export class PreparedResource {
  readonly def: ResourceDef;
  readonly dialect: Dialect;
  private readonly slots: ColumnSource[] = [];
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
   * its own (such as GL's closing rows left out), so each is read in rowid order from the page's
   * start, and nothing is read and then skipped. callingThreadPlans.test.ts holds the rest: those
   * reads, and the joins, go through keys. Asked on every list request, so worked out once.
   */
  readonly unfilteredListReadsOnlyItsRows: boolean;

  constructor(def: ResourceDef, dialect: Dialect) {
    this.def = def;
    this.dialect = dialect;
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
    slotOf({ column: ROW_ID });
    const column = (source: ColumnSource) => `${dialect.quote(source.join ?? MAIN)}.${dialect.quote(source.column)}`;
    this.jsonRow = dialect.name === 'sqlite' ? sqliteRowJson(def.fields, column) : null;
    this.unfilteredListReadsOnlyItsRows = def.sources.every((source) => !source.where?.length);
    // Fail at start-up, not on a request, when the catalogue names a column GP does not have.
    for (const source of def.sources) this.columns(source.table);
  }

  /** Index of DEX_ROW_ID in a raw row. */
  get rowIdSlot(): number {
    return this.slots.length - 1;
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
    return { alias: source.join ?? MAIN, column: source.column, type: sqlTypeOf(table, source.column) };
  }

  /** The select list for a source table; built once per table, since every request needs it. */
  columns(mainTable: string): ColumnRef[] {
    let columns = this.selectLists.get(mainTable);
    if (!columns) {
      columns = this.slots.map((s) => this.ref(s, mainTable));
      this.selectLists.set(mainTable, columns);
    }
    return columns;
  }

  /** One select per source table that a list with these filters reads, starting at `after`. */
  listQueries(
    company: string | null,
    filters: FilterValues,
    limit: number,
    after: Position | null,
  ): Array<{ source: number; query: SelectQuery }> {
    let sources = this.def.sources.map((_, i) => i);
    for (const [name, value] of Object.entries(filters)) {
      const filter = this.filterDef(name);
      if (filter.kind === 'sources') sources = sources.filter((s) => filter.sources[String(value)]?.includes(s));
    }
    const [afterSource, afterRowId] = after ? [Number(after[0]), Number(after[1])] : [-1, 0];
    return sources
      .filter((s) => s >= afterSource)
      .map((s) => {
        const table = this.def.sources[s]!.table;
        const where = this.baseConditions(s);
        for (const [name, value] of Object.entries(filters)) where.push(...this.conditions(name, value, table));
        const rowId = this.ref({ column: ROW_ID }, table);
        if (s === afterSource) where.push({ op: 'gt', column: rowId, value: afterRowId });
        return { source: s, query: this.select(company, table, where, [rowId], limit) };
      });
  }

  /** One select per source table for the object with this id (its parts already split), in preference order. */
  getQueries(company: string | null, idParts: readonly string[]): SelectQuery[] {
    const parts = this.def.idParts;
    if (!parts || parts.length !== idParts.length) throw new CatalogueError(`${this.def.object} has no get by this id`);
    return this.def.sources.map((source, s) => {
      const where = [...this.baseConditions(s), ...this.idConditions(parts, idParts, source.table)];
      const rowId = this.ref({ column: ROW_ID }, source.table);
      return this.select(company, source.table, where, [rowId], 1);
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
