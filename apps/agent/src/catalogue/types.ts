import type { ObjectName } from '@gp-gateway/protocol';

/**
 * How a resource of the API is read from GP: which tables, which columns feed which fields, and what
 * each filter means in SQL. Identifiers here are the only identifiers that ever reach SQL.
 */

/** How a raw GP value becomes an API value (decision D1). */
export type Codec =
  | 'string' // char(n): right-trimmed, empty → null
  | 'money' // numeric: decimal string, 2 to 5 decimals
  | 'quantity' // numeric: decimal string without trailing zeros
  | 'date' // datetime: YYYY-MM-DD, 1900-01-01 → null
  | 'timestamp' // DEX_ROW_TS: ISO-8601 UTC
  | 'flag' // tinyint: boolean
  | 'int'
  | { enum: Readonly<Record<number, string>> }; // GP code → API string; unknown codes pass through

/** A column of the resource's main table (alias `t`) or of a joined table. */
export interface ColumnSource {
  column: string;
  /** Join alias; omitted for the main table. */
  join?: string;
}

export type FieldDef =
  | (ColumnSource & { codec: Codec })
  /** A value computed from several columns, e.g. a credit limit that depends on its type column. */
  | { columns: readonly (ColumnSource & { codec: Codec })[]; compute: (values: readonly unknown[]) => unknown };

export type FilterDef =
  | (ColumnSource & { kind: 'eq' | 'contains' | 'in' | 'flag' | 'atOrAfter' | 'onOrAfter' | 'onOrBefore' | 'before' })
  /** Chooses which of the resource's source tables are read, e.g. year=open → GL20000. */
  | { kind: 'sources'; sources: Readonly<Record<string, readonly number[]>> };

export interface SourceDef {
  table: string;
  /** Conditions that always apply to this table, e.g. history excludes closing rows. */
  where?: readonly FixedCondition[];
}

export interface FixedCondition {
  column: string;
  op: 'in' | 'notIn';
  values: readonly (string | number)[];
}

export interface JoinDef {
  alias: string;
  table: string;
  /** Column of the joined table … */
  foreignColumn: string;
  /** … equal to this column of the main table. */
  localColumn: string;
}

export interface ResourceDef {
  object: ObjectName;
  database: 'system' | 'company';
  /** Tables read in keyset order; a walk finishes one before it starts the next. */
  sources: readonly SourceDef[];
  joins?: readonly JoinDef[];
  /** API field → where it comes from, in the order of the contract. */
  fields: Readonly<Record<string, FieldDef>>;
  /** API filter → SQL meaning; covers exactly the filters of the object's protocol spec. */
  filters: Readonly<Record<string, FilterDef>>;
  /** Columns that the parts of a get-by-id id are matched against; omitted when there is no get. */
  idColumns?: readonly string[];
}
