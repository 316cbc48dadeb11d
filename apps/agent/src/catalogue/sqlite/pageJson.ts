import type { Dialect } from '../../sql/dialect.ts';
import type { ColumnRef, CompiledQuery, SelectQuery } from '../../sql/model.ts';
import { renderSelectWith, type StatementWriter } from '../../sql/render.ts';

/**
 * A list page as one row, for the embedded database (rowJson.ts writes each row's JSON): the page's
 * rows as JSON objects joined by commas, in UTF-8 bytes (a BLOB, or NULL for no rows), how many rows,
 * then the last row's key: its order value, then one value per ORDER BY column.
 *
 * The last row is the one whose key orders last, found by max() over one value per row that sorts
 * as the key does (keyOrder), and SQLite documents that the other columns of an aggregate with one
 * max() come from the row that has the max: the position is exact whatever order the rows reach
 * the aggregate in. The JSON text's order is the subquery's, which SQLite feeds to the aggregate as
 * it reads it; its documentation leaves the order of group_concat open, and `ORDER BY` inside it
 * would say so, but at the price of sorting every page again (16% of the statement).
 * readService.test.ts walks GL in order at several page sizes, so a SQLite that changed this would
 * fail there, and could lose no row: only the position matters.
 *
 * With `rowJson` null, only where the page ends: NULL, the count and the last key, read from the
 * keys alone (ReadService.listEnd).
 */
export function renderJsonPage(query: SelectQuery, dialect: Dialect, rowJson: CompiledQuery | null): CompiledQuery {
  const keys = query.orderBy;
  return renderSelectWith(
    query,
    dialect,
    (statement) => {
      const keyColumns = [`${keyOrder(keys, statement)} AS "o"`, ...keys.map((k, i) => `${keyValue(k, statement)} AS "k${i}"`)].join(', ');
      if (!rowJson) return keyColumns;
      for (const param of rowJson.params) statement.bind(param);
      return `${rowJson.sql} AS "j", ${keyColumns}`;
    },
    (statement) =>
      `SELECT ${rowJson ? `CAST(group_concat("j", ',') AS BLOB)` : 'NULL'}, count(*), max("o"), ${keys.map((_, i) => `"k${i}"`).join(', ')} FROM (${statement})`,
  );
}

/** A key column's value as positions hold it: char without its padding (as the select list has it). */
function keyValue(column: ColumnRef, statement: StatementWriter): string {
  return column.type.kind === 'char' ? `rtrim(${statement.column(column)})` : statement.column(column);
}

/**
 * One value per row that sorts as the key does, for max(). One column is itself. Several become one
 * text in which each part has a fixed width, so that text order is key order: char(n) is stored
 * padded to n (gp-schema's sqliteSchema.ts) and compared NOCASE, which folds ASCII to lower case as
 * lower() does; datetimes are text of one width; integers (GP's int and smallint, 32 bits) are
 * offset to be non-negative and zero-padded.
 */
function keyOrder(keys: readonly ColumnRef[], statement: StatementWriter): string {
  if (keys.length === 1) return statement.column(keys[0]!);
  return keys
    .map((key) => {
      const column = statement.column(key);
      switch (key.type.kind) {
        case 'char':
          return `lower(${column})`;
        case 'int':
          return `printf('%010d', ${column} + 2147483648)`;
        case 'datetime':
          return column;
        default:
          throw new Error(`a key of ${key.type.kind} columns has no text order`);
      }
    })
    .join(' || ');
}
