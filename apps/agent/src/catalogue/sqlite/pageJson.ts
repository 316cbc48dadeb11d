import { DialectError, type Dialect } from '../../sql/dialect.ts';
import type { CompiledQuery, SelectQuery } from '../../sql/model.ts';
import { renderSelectWith } from '../../sql/render.ts';

/**
 * A list page as one row, for the embedded database (rowJson.ts writes each row's JSON): the page's
 * rows as JSON objects joined by commas, in UTF-8 bytes (a BLOB, or NULL for no rows), then how many
 * rows and the last row's key. The query's single ORDER BY column is that key and ascends, so the
 * last row's is the largest: the cursor is exact whatever the order of the text. That order is the
 * subquery's, which SQLite feeds to the aggregate as it reads it; its documentation leaves the order
 * of group_concat open, and `ORDER BY "k"` inside it would say so, but at the price of sorting every
 * page again (16% of the statement). readService.test.ts walks GL in order at several page sizes,
 * so a SQLite that changed this would fail there, and could lose no row: only the cursor matters.
 *
 * With `rowJson` null, only where the page ends: NULL, the count and the last key, read from the
 * keys alone (ReadService.listEnd).
 */
export function renderJsonPage(query: SelectQuery, dialect: Dialect, rowJson: CompiledQuery | null): CompiledQuery {
  if (query.orderBy.length !== 1) throw new DialectError('a JSON page is keyed on one column');
  const key = query.orderBy[0]!;
  return renderSelectWith(
    query,
    dialect,
    (statement) => {
      const keyColumn = `${statement.column(key)} AS "k"`;
      if (!rowJson) return keyColumn;
      for (const param of rowJson.params) statement.bind(param);
      return `${rowJson.sql} AS "j", ${keyColumn}`;
    },
    (statement) => `SELECT ${rowJson ? `CAST(group_concat("j", ',') AS BLOB)` : 'NULL'}, count(*), max("k") FROM (${statement})`,
  );
}
