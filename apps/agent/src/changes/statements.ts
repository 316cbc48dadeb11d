import type { Dialect } from '../sql/dialect.ts';
import type { ColumnRef, CompiledQuery, Param } from '../sql/model.ts';
import type { TrackedSource } from './trackedObjects.ts';

/**
 * The statements of change detection (docs/decisions.md#change-feed), for either dialect. Table and
 * column names come from TRACKED_OBJECTS only; every value is a parameter. All read through the
 * table's primary key or scan it once: GP has no index on DEX_ROW_TS.
 */

/** A slice of a table by its key: from `lo` (inclusive) to `hi` (exclusive); null is open-ended. */
export interface KeyRange {
  lo: string | null;
  hi: string | null;
}

/** DEX_ROW_TS as whole seconds since 2000-01-01: an int in both dialects until 2068, summed per range. */
const EPOCH_2000_S = 946_684_800;

const column = (name: string, type: ColumnRef['type']): ColumnRef => ({ alias: 't', column: name, type });
const DEX_ROW_TS = column('DEX_ROW_TS', { kind: 'datetime' });

function parts(dialect: Dialect, company: string, source: TrackedSource) {
  const key = column(source.key.column, { kind: 'char', length: source.key.length });
  const from = `${dialect.tableName(company, { database: 'company', table: source.table, alias: 't' })} AS ${dialect.quote('t')}`;
  const ref = (c: ColumnRef) => `${dialect.quote('t')}.${dialect.quote(c.column)}`;
  const rowId = ref(column('DEX_ROW_ID', { kind: 'int' }));
  return { key, from, ref, rowId };
}

/** `key >= lo AND key < hi` for the bounds given; `1 = 1` for the whole table. */
function rangeCondition(dialect: Dialect, source: TrackedSource, range: KeyRange, params: Param[]): string {
  const key = column(source.key.column, { kind: 'char', length: source.key.length });
  const terms: string[] = [];
  const name = `${dialect.quote('t')}.${dialect.quote(key.column)}`;
  if (range.lo !== null) {
    params.push(dialect.encode(range.lo, key.type));
    terms.push(`${name} >= ${dialect.placeholder(params.length - 1)}`);
  }
  if (range.hi !== null) {
    params.push(dialect.encode(range.hi, key.type));
    terms.push(`${name} < ${dialect.placeholder(params.length - 1)}`);
  }
  return terms.length ? terms.join(' AND ') : '1 = 1';
}

/** Key, DEX_ROW_TS and DEX_ROW_ID of the rows stamped at or after `since` (an ISO-8601 UTC time). */
export function changedSinceQuery(dialect: Dialect, company: string, source: TrackedSource, since: string): CompiledQuery {
  const { key, from, ref, rowId } = parts(dialect, company, source);
  const params = [dialect.encode(since, DEX_ROW_TS.type)];
  const sql =
    `SELECT ${dialect.selectExpression(key)}, ${dialect.selectExpression(DEX_ROW_TS)}, ${rowId} FROM ${from} ` +
    `WHERE ${ref(DEX_ROW_TS)} >= ${dialect.placeholder(0)}`;
  return { sql, params };
}

/** Key, DEX_ROW_TS and DEX_ROW_ID of the rows of a key range, in key order (the whole table for the first reading). */
export function rangeRowsQuery(dialect: Dialect, company: string, source: TrackedSource, range: KeyRange): CompiledQuery {
  const { key, from, ref, rowId } = parts(dialect, company, source);
  const params: Param[] = [];
  const where = rangeCondition(dialect, source, range, params);
  const sql =
    `SELECT ${dialect.selectExpression(key)}, ${dialect.selectExpression(DEX_ROW_TS)}, ${rowId} FROM ${from} ` +
    `WHERE ${where} ORDER BY ${ref(key)}`;
  return { sql, params };
}

/**
 * One row per key range: how many rows, the sum of their DEX_ROW_IDs (an identity: a row deleted and
 * another inserted change it) and of their DEX_ROW_TS in seconds (an update changes it). A range
 * whose three numbers are what the agent expects has not changed, for the cost of one seek and scan
 * of the range; only a range that differs is read row by row.
 */
export function rangeAggregateQuery(dialect: Dialect, company: string, source: TrackedSource, range: KeyRange): CompiledQuery {
  const { from, ref, rowId } = parts(dialect, company, source);
  const params: Param[] = [];
  const where = rangeCondition(dialect, source, range, params);
  const ts = ref(DEX_ROW_TS);
  const seconds =
    dialect.name === 'mssql'
      ? `CAST(DATEDIFF(second, '20000101', ${ts}) AS bigint)`
      : `CAST(strftime('%s', ${ts}) AS INTEGER) - ${EPOCH_2000_S}`;
  const ids = dialect.name === 'mssql' ? `CAST(${rowId} AS bigint)` : rowId;
  const sql = `SELECT COUNT(*), COALESCE(SUM(${ids}), 0), COALESCE(SUM(${seconds}), 0) FROM ${from} WHERE ${where}`;
  return { sql, params };
}

/** What rangeAggregateQuery counts of a DEX_ROW_TS read back (`YYYY-MM-DD HH:MM:SS.SSS`). */
export function tsSeconds(ts: string): number {
  return Math.floor(Date.parse(`${ts.replace(' ', 'T')}Z`) / 1000) - EPOCH_2000_S;
}
