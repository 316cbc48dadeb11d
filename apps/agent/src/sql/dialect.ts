import type { ColumnRef, Param, SqlType, TableRef, Value } from './model.ts';

/**
 * What differs between SQL Server and SQLite, and nothing else: quoting, placeholders, table
 * addressing, the paging clause, how values are encoded as parameters and how raw column values
 * come back. One renderer (render.ts) assembles statements from these primitives.
 */
export interface Dialect {
  readonly name: 'sqlite' | 'mssql';
  /** The database of tables of `database: 'system'` (where tableName needs one). */
  readonly systemDatabase: string;
  quote(identifier: string): string;
  placeholder(index: number): string;
  /** A bound value of a page's position (Condition `position`) as its condition compares with it. */
  positionValue(placeholder: string): string;
  tableName(company: string | null, table: TableRef): string;
  /** The select-list expression for a column; may convert so that no value passes through a float. */
  selectExpression(column: ColumnRef): string;
  /** Wraps the select list and the rest of the statement with the row limit. */
  limitSelect(selectList: string, rest: string, limitPlaceholder: string): string;
  /** A column in a condition that only filters the rows an index gives (Condition `residual`). */
  residual(column: string): string;
  /** What follows the main table's name and alias to read it through `index` (SelectQuery.index). */
  indexHint(index: string): string;
  /** What ends a statement whose plan should be made for the values it runs with (SelectQuery.recompile). */
  readonly recompileHint: string;
  encode(value: Value, type: SqlType): Param;
  /** Escapes LIKE wildcards with a backslash; the renderer adds `ESCAPE '\'`. */
  escapeLike(text: string): string;
  /** Raw numeric(19,5) value → plain decimal string. */
  decodeDecimal(raw: unknown): string;
  /** Raw datetime value → `YYYY-MM-DD HH:MM:SS.SSS`. */
  decodeDateTime(raw: unknown): string;
  /** Raw integer value → number. */
  decodeInt(raw: unknown): number;
}

export class DialectError extends Error {}

/** `YYYY-MM-DD` or an ISO UTC timestamp → `YYYY-MM-DD HH:MM:SS.SSS`, the form both dialects compare on. */
export function toSqlDateTime(value: Value): string {
  const text = String(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text} 00:00:00.000`;
  // A datetime as read back (a keyset position in a date-led index).
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/.test(text)) return text;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}\.\d{3})Z$/.exec(text);
  if (!m) throw new DialectError(`not a date or UTC timestamp: ${text}`);
  return `${m[1]} ${m[2]}`;
}
