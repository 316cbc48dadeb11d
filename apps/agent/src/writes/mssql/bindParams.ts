import sql from 'mssql';
import type { TsqlParam } from './econnectCalls.ts';

const NUMERIC_AS_TEXT = sql.VarChar(41);

/** A T-SQL type name as the driver binds it. */
function driverType(type: string): sql.ISqlType | (() => sql.ISqlType) {
  const char = /^(var)?char\((\d+)\)$/.exec(type);
  if (char) return char[1] ? sql.VarChar(Number(char[2])) : sql.Char(Number(char[2]));
  switch (type) {
    case 'numeric(19,5)':
      // As text: SQL Server converts varchar to the procedure's numeric(19,5) exactly, where tedious'
      // Numeric goes through a JS double (exact only below about 9×10^10 at 5 decimals; amounts
      // may have 14 integer digits).
      return NUMERIC_AS_TEXT;
    case 'datetime':
      return sql.DateTime;
    case 'smallint':
      return sql.SmallInt;
    case 'tinyint':
      return sql.TinyInt;
    default:
      return sql.Int;
  }
}

/** Binds a batch's parameters, each with the T-SQL type it declares (numeric(19,5) as its exact decimal text). */
export function bindParams(request: sql.Request, params: readonly TsqlParam[]): sql.Request {
  for (const p of params) {
    // Dates are date-only: midnight, in the server's terms (tedious reads Dates as UTC).
    const value = p.type === 'datetime' && typeof p.value === 'string' ? new Date(`${p.value.slice(0, 10)}T00:00:00Z`) : p.value;
    request.input(p.name, driverType(p.type), p.type === 'numeric(19,5)' && value !== null ? String(value) : value);
  }
  return request;
}
