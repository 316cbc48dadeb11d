import type { Dialect } from '../sql/dialect.ts';
import type { ColumnRef, CompiledQuery, Param } from '../sql/model.ts';
import type { TrackedColumn, TrackedSource } from './trackedObjects.ts';

/**
 * The statements of change detection (docs/decisions.md#change-feed), for either dialect. Table and
 * column names come from TRACKED_OBJECTS only; every value is a parameter. Each reads through the
 * table's primary key or scans it once: GP has no index on DEX_ROW_TS.
 */

/** A slice of a table by its key: from `lo` (inclusive) to `hi` (exclusive), each a key's values; null is open-ended. */
export interface KeyRange {
  lo: readonly (string | number)[] | null;
  hi: readonly (string | number)[] | null;
}

/** DEX_ROW_TS as whole seconds since 2000-01-01: an int in both dialects until 2068, summed per range. */
const EPOCH_2000_S = 946_684_800;

const ref = (c: TrackedColumn): ColumnRef => ({ alias: 't', column: c.column, type: c.type });
const DEX_ROW_TS: TrackedColumn = { column: 'DEX_ROW_TS', type: { kind: 'datetime' } };

class Statement {
  readonly params: Param[] = [];
  constructor(readonly dialect: Dialect) {}
  name(c: TrackedColumn): string {
    return `${this.dialect.quote('t')}.${this.dialect.quote(c.column)}`;
  }
  bind(value: string | number, c: TrackedColumn): string {
    this.params.push(this.dialect.encode(value, c.type));
    return this.dialect.placeholder(this.params.length - 1);
  }
  from(company: string, source: TrackedSource): string {
    return `${this.dialect.tableName(company, { database: 'company', table: source.table, alias: 't' })} AS ${this.dialect.quote('t')}`;
  }
  /** The key columns, the id columns, DEX_ROW_TS and DEX_ROW_ID: what every row read of detection selects. */
  selectList(source: TrackedSource, company: string): string {
    return this.selectItems(source, company).join(', ');
  }
  /** The select list's items, one per column. */
  selectItems(source: TrackedSource, company: string): string[] {
    const d = this.dialect;
    const expression = (c: TrackedColumn) => (c.lookup ? this.lookup(c, c.lookup, company) : d.selectExpression(ref(c)));
    return [
      ...[...source.key, ...source.idColumns, DEX_ROW_TS].map(expression),
      this.name({ column: 'DEX_ROW_ID', type: { kind: 'int' } }),
    ];
  }
  /** A column of another table, by its key equal to the same column of the row: one seek per row read. */
  private lookup(c: TrackedColumn, lookup: { table: string; key: string }, company: string): string {
    const d = this.dialect;
    const l = d.quote('l');
    const table = d.tableName(company, { database: 'company', table: lookup.table, alias: 'l' });
    const value = d.selectExpression({ alias: 'l', column: c.column, type: c.type });
    return `(SELECT ${value} FROM ${table} AS ${l} WHERE ${l}.${d.quote(lookup.key)} = ${d.quote('t')}.${d.quote(lookup.key)})`;
  }
  /** The object's rows of a shared table, and the key range. */
  where(source: TrackedSource, range: KeyRange): string[] {
    const terms: string[] = [];
    if (source.only) {
      const column: TrackedColumn = { column: source.only.column, type: { kind: 'int' } };
      // Only filters the rows the key's index gives: an index on the type column would read every row of those types instead of one range.
      terms.push(`${this.dialect.residual(this.name(column))} IN (${source.only.values.map((v) => this.bind(v, column)).join(', ')})`);
    }
    if (range.lo) terms.push(this.compare(source.key, range.lo, '>='));
    if (range.hi) terms.push(this.compare(source.key, range.hi, '<'));
    return terms;
  }
  /**
   * `key >= values` or `key < values` in the key's order, written out column by column (T-SQL has no
   * row-value comparison): plain comparisons, which a seek on the key's index serves.
   */
  private compare(key: readonly TrackedColumn[], values: readonly (string | number)[], op: '>=' | '<'): string {
    const alternatives = key.map((column, i) => {
      const equal = key.slice(0, i).map((c, j) => `${this.name(c)} = ${this.bind(values[j]!, c)}`);
      const strict = op === '>=' ? '>' : '<';
      const last = `${this.name(column)} ${i === key.length - 1 ? op : strict} ${this.bind(values[i]!, column)}`;
      return [...equal, last].join(' AND ');
    });
    return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.map((a) => `(${a})`).join(' OR ')})`;
  }
}

const whereClause = (terms: string[]) => (terms.length ? ` WHERE ${terms.join(' AND ')}` : '');

/** Key, id, DEX_ROW_TS and DEX_ROW_ID of the object's rows stamped at or after `since` (an ISO-8601 UTC time). */
export function changedSinceQuery(dialect: Dialect, company: string, source: TrackedSource, since: string): CompiledQuery {
  const s = new Statement(dialect);
  const terms = s.where(source, { lo: null, hi: null });
  terms.push(`${s.name(DEX_ROW_TS)} >= ${s.bind(since, DEX_ROW_TS)}`);
  return { sql: `SELECT ${s.selectList(source, company)} FROM ${s.from(company, source)}${whereClause(terms)}`, params: s.params };
}

/** The same of the rows of a key range, in key order (the whole table for the first reading). */
export function rangeRowsQuery(dialect: Dialect, company: string, source: TrackedSource, range: KeyRange): CompiledQuery {
  const s = new Statement(dialect);
  const terms = s.where(source, range);
  const order = source.key.map((c) => s.name(c)).join(', ');
  return {
    sql: `SELECT ${s.selectList(source, company)} FROM ${s.from(company, source)}${whereClause(terms)} ORDER BY ${order}`,
    params: s.params,
  };
}

/**
 * One row per key range: how many rows, the sum of their DEX_ROW_IDs (an identity: a row deleted and
 * another inserted change it) and of their DEX_ROW_TS in seconds (an update changes it). A range
 * whose three numbers are what the agent expects has not changed, for the cost of one seek and scan
 * of the range; only a range that differs is read row by row.
 */
export function rangeAggregateQuery(dialect: Dialect, company: string, source: TrackedSource, range: KeyRange): CompiledQuery {
  const s = new Statement(dialect);
  const terms = s.where(source, range);
  const ts = s.name(DEX_ROW_TS);
  const rowId = s.name({ column: 'DEX_ROW_ID', type: { kind: 'int' } });
  const seconds =
    dialect.name === 'mssql'
      ? `CAST(DATEDIFF(second, '20000101', ${ts}) AS bigint)`
      : `CAST(strftime('%s', ${ts}) AS INTEGER) - ${EPOCH_2000_S}`;
  const ids = dialect.name === 'mssql' ? `CAST(${rowId} AS bigint)` : rowId;
  return {
    sql: `SELECT COUNT(*), COALESCE(SUM(${ids}), 0), COALESCE(SUM(${seconds}), 0) FROM ${s.from(company, source)}${whereClause(terms)}`,
    params: s.params,
  };
}

/** What rangeAggregateQuery counts of a DEX_ROW_TS read back (`YYYY-MM-DD HH:MM:SS.SSS`). */
export function tsSeconds(ts: string): number {
  return Math.floor(Date.parse(`${ts.replace(' ', 'T')}Z`) / 1000) - EPOCH_2000_S;
}

/**
 * SQL Server Change Tracking (docs/decisions.md#change-tracking): the table's changes committed
 * after version `since` and at or before `upto`, in commit order, each with its version, operation
 * (I, U, D), creation version, the key's values (from the change table, so a deleted row has them
 * too), and the row as it is now (id columns, DEX_ROW_TS, DEX_ROW_ID; null when it is gone).
 * Reading it needs SELECT and VIEW CHANGE TRACKING on the table.
 */
export function trackedChangesQuery(dialect: Dialect, company: string, source: TrackedSource, since: string, upto: string): CompiledQuery {
  if (dialect.name !== 'mssql') throw new Error('Change Tracking is SQL Server’s');
  const s = new Statement(dialect);
  const c = dialect.quote('c');
  // Versions are bigint; bound as numeric text (an int parameter is 32-bit) into bigint variables,
  // since CHANGETABLE takes a variable or a literal there, not an expression.
  const version: TrackedColumn = { column: 'SYS_CHANGE_VERSION', type: { kind: 'numeric' } };
  const declare = `DECLARE @since bigint = ${s.bind(since, version)}, @upto bigint = ${s.bind(upto, version)}; `;
  const table = dialect.tableName(company, { database: 'company', table: source.table, alias: 't' });
  const keyOfChange = source.key.map((k) => dialect.selectExpression({ alias: 'c', column: k.column, type: k.type }));
  const join = source.key.map((k) => `${s.name(k)} = ${c}.${dialect.quote(k.column)}`).join(' AND ');
  // selectList's key columns come from the row; here they come from the change, the rest from the row.
  const rest = s.selectItems(source, company).slice(source.key.length).join(', ');
  // The object's rows of a shared table: by the change's key where the column is in it, else by the
  // row (a deleted row then passes, and is matched against the rows the agent knew of the object).
  let only = '';
  if (source.only) {
    const column = source.only.column;
    const type: TrackedColumn['type'] = { kind: 'int' };
    const values = source.only.values.map((v) => s.bind(v, { column, type })).join(', ');
    only = source.key.some((k) => k.column === column)
      ? ` AND ${c}.${dialect.quote(column)} IN (${values})`
      : ` AND (${s.name({ column, type })} IN (${values}) OR ${s.name({ column, type })} IS NULL)`;
  }
  return {
    sql:
      `${declare}SELECT ${c}.[SYS_CHANGE_VERSION], ${c}.[SYS_CHANGE_OPERATION], ${c}.[SYS_CHANGE_CREATION_VERSION], ${keyOfChange.join(', ')}, ${rest} ` +
      `FROM CHANGETABLE(CHANGES ${table}, @since) AS ${c} LEFT JOIN ${s.from(company, source)} ON ${join} ` +
      `WHERE ${c}.[SYS_CHANGE_VERSION] <= @upto${only} ORDER BY ${c}.[SYS_CHANGE_VERSION]`,
    params: s.params,
  };
}
