import type { CodeNames, ObjectName } from '@gp-gateway/protocol';

/**
 * How a resource of the API is read from GP: which tables, which columns feed which fields, and what
 * each filter means in SQL. Identifiers here are the only identifiers that ever reach SQL.
 */

/** How a raw GP value becomes an API value (docs/api.md#value-formats). */
export type Codec =
  | 'string' // char(n): right-trimmed, empty → null
  | 'money' // numeric: decimal string, 2 to 5 decimals
  | 'quantity' // numeric: decimal string without trailing zeros
  | 'percent' // smallint in hundredths: percent units as a decimal string (250 → "2.5")
  | 'date' // datetime: YYYY-MM-DD, 1900-01-01 → null
  | 'timestamp' // DEX_ROW_TS: ISO-8601 UTC
  | 'flag' // tinyint: boolean
  | 'int'
  | { enum: CodeNames }; // GP code → API string; unknown codes pass through

/** A column of the resource's main table (alias `t`) or of a joined table. */
export interface ColumnSource {
  column: string;
  /** Join alias; omitted for the main table. */
  join?: string;
}

export type FieldDef =
  | (ColumnSource & { codec: Codec })
  /** A value computed from several columns, e.g. a credit limit that depends on its type column. */
  | {
      columns: readonly (ColumnSource & { codec: Codec })[];
      compute: (values: readonly unknown[]) => unknown;
      /**
       * The same computation as a SQLite expression over the columns' decoded values (each given as
       * the expression catalogue/sqlite/rowJson.ts writes for its codec), so that SQLite can write list
       * pages of this resource; without it, its pages are written by JavaScript. sqliteJson.test.ts
       * holds the two equal over every demo row.
       */
      sqlite?: (values: readonly string[]) => string;
    };

/** One part of a composite id, or of a document id given to a lines list; enum parts take API names. */
export type IdPart = ColumnSource & { enum?: CodeNames };

export type FilterDef =
  | (ColumnSource & { kind: 'contains' | 'in' | 'flag' | 'atOrAfter' | 'onOrAfter' | 'onOrBefore' | 'before' })
  /** Exact match; with `enum`, the API name is matched as its GP code. */
  | (ColumnSource & { kind: 'eq'; enum?: CodeNames })
  /**
   * Exact match of a value looked up first (inLookup: of any of several values): `column` equals `lookup.key` of the row of `lookup.table`
   * (same database, unique on `lookup.column`) whose `lookup.column` is the value; e.g. an account
   * number resolved to its ACTINDX, so that GL's indexes on ACTINDX serve the filter.
   */
  | { kind: 'eqLookup' | 'inLookup'; column: string; lookup: { table: string; column: string; key: string } }
  /** Substring of any of several columns, e.g. a salesperson's last or first name. */
  | { kind: 'containsAny'; columns: readonly ColumnSource[] }
  /** The lines of one document: the id (split like the parent's id) matched part by part. */
  | { kind: 'document'; parts: readonly IdPart[]; splitAt: 'first' | 'last' | null }
  /** Chooses which of the resource's source tables are read, e.g. year=open → GL20000. */
  | { kind: 'sources'; sources: Readonly<Record<string, readonly number[]>> };

export interface SourceDef {
  table: string;
  /** Conditions that always apply to this table, e.g. history excludes closing rows. */
  where?: readonly FixedCondition[];
}

export type FixedCondition =
  | { column: string; op: 'in' | 'notIn'; values: readonly (string | number)[] }
  | { column: string; op: 'eq' | 'gt'; value: string | number };

export interface JoinDef {
  alias: string;
  table: string;
  /** Column of the joined table … */
  foreignColumn: string;
  /** … equal to this column of the main table. */
  localColumn: string;
}

/**
 * A key a list pages on (docs/decisions.md#keyset-paging-on-gps-own-indexes): per source table, one of
 * GP's own indexes (gp-schema's GP_INDEXES), unique over the table, whose columns order the list.
 * `columns` takes only the index's leading columns when they are already unique (SOP30300's AK2 ends
 * in break fields). The name goes into the cursor, which continues only on the key it started on.
 */
export interface KeyDef {
  name: string;
  indexes: Readonly<Record<string, string | { index: string; columns: number }>>;
}

/** A key that serves filters: each pins the index's leading column(s) or ranges over the first. */
export interface FilterKeyDef extends KeyDef {
  filters: readonly string[];
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
  /**
   * What lists page on: `default` for every source table, unless one of `byFilter` (in order of
   * preference) has a filter of the request and an index of the table. A filter with no key here
   * walks the key it gets with a residual predicate (docs/decisions.md#keyset-paging-on-gps-own-indexes).
   */
  keys: { default: KeyDef; byFilter?: readonly FilterKeyDef[] };
  /** What the parts of a get-by-id id are matched against; omitted when there is no get. */
  idParts?: readonly IdPart[];
}
