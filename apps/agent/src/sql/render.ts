import { DialectError, type Dialect } from './dialect.ts';
import type { ColumnRef, CompiledQuery, Condition, Param, SelectQuery } from './model.ts';

/** Patterns are bound as varchar of one fixed size so that SQL Server reuses one plan. */
const LIKE_PATTERN = { kind: 'varchar', length: 255 } as const;
const COMPARISON = { eq: '=', ne: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/**
 * Select lists as rendered, per dialect and column list: PreparedResource shares one column list per
 * table, and writing a resource's 20–60 column expressions again was a fifth of a get's time.
 */
const selectLists = new WeakMap<Dialect, WeakMap<readonly ColumnRef[], string>>();

function selectListOf(columns: readonly ColumnRef[], dialect: Dialect): string {
  let byColumns = selectLists.get(dialect);
  if (!byColumns) selectLists.set(dialect, (byColumns = new WeakMap()));
  let list = byColumns.get(columns);
  if (list === undefined) byColumns.set(columns, (list = columns.map((c) => dialect.selectExpression(c)).join(', ')));
  return list;
}

/** Renders a select of the query model into one statement of the dialect, values as parameters. */
export function renderSelect(query: SelectQuery, dialect: Dialect): CompiledQuery {
  return render(query, dialect, () => selectListOf(query.columns, dialect), (statement) => statement);
}

/**
 * A list page as one row, for the embedded database (catalogue/sqliteJson.ts): the page's rows as
 * JSON objects joined by commas, in UTF-8 bytes (a BLOB, or NULL for no rows), then how many rows
 * and the last row's key. The query's single ORDER BY column is that key and ascends, so the last
 * row's is the largest: the cursor is exact whatever the order of the text. That order is the
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
  return render(
    query,
    dialect,
    (bind) => {
      const keyColumn = `${dialect.quote(key.alias)}.${dialect.quote(key.column)} AS "k"`;
      if (!rowJson) return keyColumn;
      for (const param of rowJson.params) bind(param);
      return `${rowJson.sql} AS "j", ${keyColumn}`;
    },
    (statement) => `SELECT ${rowJson ? `CAST(group_concat("j", ',') AS BLOB)` : 'NULL'}, count(*), max("k") FROM (${statement})`,
  );
}

function render(query: SelectQuery, dialect: Dialect, selectList: (bind: (param: Param) => string) => string, wrap: (statement: string) => string): CompiledQuery {
  if (query.orderBy.length === 0) throw new DialectError('a paged query needs an explicit ORDER BY');
  const params: Param[] = [];
  const bind = (param: Param) => {
    params.push(param);
    return dialect.placeholder(params.length - 1);
  };
  const column = (ref: ColumnRef) => `${dialect.quote(ref.alias)}.${dialect.quote(ref.column)}`;

  const like = (ref: ColumnRef, text: string) =>
    `${column(ref)} LIKE ${bind({ value: `%${dialect.escapeLike(text)}%`, type: LIKE_PATTERN })} ESCAPE '\\'`;
  const condition = (c: Condition): string => {
    switch (c.op) {
      case 'in':
      case 'notIn': {
        if (c.values.length === 0) return c.op === 'in' ? '1 = 0' : '1 = 1';
        const list = c.values.map((v) => bind(dialect.encode(v, c.column.type))).join(', ');
        return `${column(c.column)} ${c.op === 'in' ? 'IN' : 'NOT IN'} (${list})`;
      }
      case 'contains':
        return like(c.column, c.text);
      case 'containsAny':
        return `(${c.columns.map((col) => like(col, c.text)).join(' OR ')})`;
      default:
        return `${column(c.column)} ${COMPARISON[c.op]} ${bind(dialect.encode(c.value, c.column.type))}`;
    }
  };

  // Placeholders number in the order they appear: the select list's come first.
  const list = selectList(bind);
  const from = `FROM ${dialect.tableName(query.company, query.from)} AS ${dialect.quote(query.from.alias)}`;
  const joins = query.joins.map(
    (j) =>
      ` LEFT JOIN ${dialect.tableName(query.company, j)} AS ${dialect.quote(j.alias)}` +
      ` ON ${dialect.quote(j.alias)}.${dialect.quote(j.foreignColumn)} = ${column(j.on)}`,
  );
  const where = query.where.length ? ` WHERE ${query.where.map(condition).join(' AND ')}` : '';
  const orderBy = ` ORDER BY ${query.orderBy.map(column).join(', ')}`;
  const limit = bind({ value: query.limit, type: { kind: 'int' } });
  return { sql: wrap(dialect.limitSelect(list, `${from}${joins.join('')}${where}${orderBy}`, limit)), params };
}
