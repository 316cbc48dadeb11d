import { DialectError, toSqlDateTime, type Dialect } from './dialect.ts';
import type { ColumnRef, Param, SqlType, TableRef, Value } from './model.ts';

/**
 * SQL Server as GP uses it, with GP's system database named `systemDatabase` (DYNAMICS unless GP
 * was installed with a named one); it is only ever written as a quoted identifier. numeric and datetime columns are converted to text in the select list:
 * tedious returns numeric as a JS number (a float) and datetime through the local clock otherwise;
 * char columns are right-trimmed there, as the API shows them (docs/api.md#value-formats).
 * Company tables are addressed by three-part names; the company id is checked against SY01500
 * before a query is compiled, and quoted as an identifier besides.
 */
export function mssqlDialectFor(systemDatabase: string): Dialect {
  return { ...mssqlDialect, systemDatabase };
}

export const mssqlDialect: Dialect = {
  name: 'mssql',
  systemDatabase: 'DYNAMICS',
  quote: (identifier) => `[${identifier.replaceAll(']', ']]')}]`,
  placeholder: (index) => `@p${index}`,
  positionValue: (placeholder) => placeholder,
  tableName(company: string | null, table: TableRef) {
    const database = table.database === 'system' ? this.systemDatabase : company;
    if (!database) throw new DialectError(`table ${table.table} needs a company database`);
    return `${this.quote(database)}.[dbo].${this.quote(table.table)}`;
  },
  selectExpression(column: ColumnRef) {
    const name = `${this.quote(column.alias)}.${this.quote(column.column)}`;
    switch (column.type.kind) {
      case 'numeric':
        return `CONVERT(varchar(41), ${name})`;
      case 'datetime':
        return `CONVERT(varchar(23), ${name}, 121)`;
      // GP pads char(n) to its full width; trimmed, a char(65) name crosses the network as its text.
      case 'char':
        return `RTRIM(${name})`;
      default:
        return name;
    }
  },
  limitSelect: (selectList, rest, limit) => `SELECT TOP (${limit}) ${selectList} ${rest}`,
  recompileHint: ' OPTION (RECOMPILE)',
  // No table hint: an index hint fails outright (error 308) on a GP database whose DBA renamed or
  // dropped the index, and TOP with an ORDER BY its index serves already makes the optimizer walk it.
  indexHint: () => '',
  residual: (column) => column,
  encode(value: Value, type: SqlType): Param {
    switch (type.kind) {
      case 'char':
        return { value: String(value), type };
      case 'varchar':
        return { value: String(value), type };
      case 'int':
        return { value: Number(value), type };
      case 'numeric':
        return { value: String(value), type };
      case 'datetime':
        return { value: toSqlDateTime(value), type };
    }
  },
  escapeLike: (text) => text.replace(/[\\%_[]/g, '\\$&'),
  decodeDecimal(raw) {
    if (typeof raw !== 'string') throw new DialectError('numeric column did not arrive as text');
    return raw;
  },
  decodeDateTime(raw) {
    return String(raw);
  },
  decodeInt(raw) {
    return Number(raw);
  },
};
