import { padChar, scaledTextToDecimalString, scaledToDecimalString, toScaled } from '@gp-gateway/gp-schema';
import { DialectError, toSqlDateTime, type Dialect } from './dialect.ts';
import type { ColumnRef, Param, SqlType, TableRef, Value } from './model.ts';

/**
 * The embedded GP-shaped database (see gp-schema's sqliteSchema.ts for its encoding): char(n) stored padded and
 * compared NOCASE, numeric(19,5) as integers scaled by 100000, datetimes as text. Each company is its
 * own database file, so table names are unqualified.
 */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  // Each database is its own file: the system database is DYNAMICS.sqlite (db/sqliteDatabases.ts).
  systemDatabase: 'DYNAMICS',
  quote: (identifier) => `"${identifier.replaceAll('"', '""')}"`,
  placeholder: () => '?',
  // `+?` for a position's values: with STAT4, SQLite notes each parameter compared with an indexed
  // column and prepares the statement again whenever one is bound anew, so every page from a
  // position compiled its statement again (~0.1 ms for a list page of 100, more than reading its
  // rows; a first page has no position and did not). The unary plus hides the value from the
  // planner, as `LIMIT +?` does; the index is still searched with it. A position's columns are
  // those of the key's index, which indexHint fixes, so no plan depended on the value. Filters'
  // values stay visible: the planner uses them (docs/performance.md#sqlite-statements).
  positionValue: (placeholder) => `+${placeholder}`,
  tableName(_company: string | null, table: TableRef) {
    return this.quote(table.table);
  },
  selectExpression(column: ColumnRef) {
    const name = `${this.quote(column.alias)}.${this.quote(column.column)}`;
    switch (column.type.kind) {
      // Scaled money as exact text: the reader then needs no BigInt per amount (see decodeDecimal).
      case 'numeric':
        return `CAST(${name} AS TEXT)`;
      // Padding is never shown (docs/api.md#value-formats); trimming in SQLite spares building long blank-padded JS strings.
      case 'char':
        return `rtrim(${name})`;
      default:
        return name;
    }
  },
  // `+?`, not `?`: SQLite's planner reads a bare LIMIT parameter's value, which makes every new
  // binding of it expire the statement, so each run compiled it again (30-200 µs, most of a one-row
  // read). The unary plus hides the value from the planner; the keyset plans never depend on it.
  limitSelect: (selectList, rest, limit) => `SELECT ${selectList} ${rest} LIMIT +${limit}`,
  // SQLite plans each statement when it is prepared; the keyset plans do not depend on values.
  recompileHint: '',
  // The key's index, always: on the demo's small tables SQLite's cost model would often rather read
  // a filter's index and sort, a plan that grows with the table (docs/decisions.md#keyset-paging-on-gps-own-indexes).
  // Unary plus: SQLite then neither seeks on the term nor counts it in planning the ORDER BY.
  residual: (column) => `+${column}`,
  indexHint(index) {
    return index === 'rowid' ? ' NOT INDEXED' : ` INDEXED BY ${this.quote(index)}`;
  },
  encode(value: Value, type: SqlType): Param {
    switch (type.kind) {
      // Padding makes `=` behave as SQL Server's char comparison, which ignores trailing blanks.
      case 'char':
        return { value: padChar(String(value), type.length), type };
      case 'varchar':
        return { value: String(value), type };
      case 'int':
        return { value: Number(value), type };
      case 'numeric':
        return { value: toScaled(String(value)), type };
      case 'datetime':
        return { value: toSqlDateTime(value), type };
    }
  },
  escapeLike: (text) => text.replace(/[\\%_]/g, '\\$&'),
  decodeDecimal(raw) {
    if (typeof raw === 'string') return scaledTextToDecimalString(raw);
    if (typeof raw !== 'bigint' && typeof raw !== 'number') throw new DialectError('numeric column is not an integer');
    return scaledToDecimalString(raw);
  },
  decodeDateTime(raw) {
    return String(raw);
  },
  decodeInt(raw) {
    return Number(raw);
  },
};
