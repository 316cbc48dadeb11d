/**
 * The dialect-neutral query model. The catalogue compiles typed API operations into these values;
 * a dialect renders them to `{ sql, params }`. Identifiers in the model come only from the catalogue
 * (never from a request) and every value is a parameter.
 */

/** GP's storage types, which decide how a parameter is encoded and bound. */
export type SqlType =
  | { kind: 'char'; length: number }
  /** Text that is not compared with a char column as a whole, such as a LIKE pattern. */
  | { kind: 'varchar'; length: number }
  | { kind: 'int' }
  | { kind: 'numeric' }
  | { kind: 'datetime' };

/** A column of a table in the query, addressed through the table's alias. */
export interface ColumnRef {
  alias: string;
  column: string;
  type: SqlType;
}

/** A value as the API gave it (dates as YYYY-MM-DD, timestamps as ISO UTC); the dialect encodes it. */
export type Value = string | number;

export type Condition =
  /**
   * `residual`: not for seeking; the index the statement walks cannot use it (Dialect.residual).
   * `position`: a part of the position a page starts after (Dialect.positionValue).
   */
  | { op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte'; column: ColumnRef; value: Value; residual?: boolean; position?: boolean }
  | { op: 'in' | 'notIn'; column: ColumnRef; values: readonly Value[] }
  /** Case-insensitive substring match (LIKE with the pattern escaped). */
  | { op: 'contains'; column: ColumnRef; text: string }
  /** Substring of any of the columns (LIKE … OR LIKE …). */
  | { op: 'containsAny'; columns: readonly ColumnRef[]; text: string }
  /** Equal to a value looked up in another table: `column = (SELECT key FROM table WHERE match = value)`. */
  | { op: 'eqLookup'; column: ColumnRef; table: TableRef; key: ColumnRef; match: ColumnRef; value: Value }
  /** Any of values looked up in another table: `column IN (SELECT key FROM table WHERE match IN (values))`. */
  | { op: 'inLookup'; column: ColumnRef; table: TableRef; key: ColumnRef; match: ColumnRef; values: readonly Value[] };

export interface TableRef {
  database: 'system' | 'company';
  table: string;
  alias: string;
}

export interface Join extends TableRef {
  /** LEFT JOIN … ON <alias>.<foreign> = <on.alias>.<on.column> */
  foreignColumn: string;
  on: ColumnRef;
}

export interface SelectQuery {
  /** Company database (INTERID) for company tables; validated against SY01500 before it gets here. */
  company: string | null;
  from: TableRef;
  joins: readonly Join[];
  columns: readonly ColumnRef[];
  where: readonly Condition[];
  /** Must be unique over the result: keyset paging depends on it. */
  orderBy: readonly ColumnRef[];
  limit: number;
  /**
   * The index of the main table that serves the ORDER BY, by name (`rowid` where the key is the
   * table's rowid): the key's GP index. SQLite is held to it (sqliteDialect.indexHint).
   */
  index?: string;
  /**
   * Whether the best plan depends on the values bound (a range no index serves, whose width decides
   * between walking the key and reading the range): SQL Server then plans each run for its values.
   */
  recompile?: boolean;
}

/** A bound parameter: the encoded value and the GP type it is bound as. */
export interface Param {
  value: string | number | bigint;
  type: SqlType;
}

export interface CompiledQuery {
  sql: string;
  params: Param[];
}
