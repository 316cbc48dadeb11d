import sql from 'mssql';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import type { CompiledQuery, Param } from '../sql/model.ts';
import { DatabaseUnavailableError, type Executor } from './executor.ts';

/** Numeric values are bound as text: SQL Server converts varchar to numeric exactly, a JS number would not be. */
const NUMERIC_AS_TEXT = sql.VarChar(41);

/**
 * SQL Server through mssql/tedious with one connection pool. Parameters are typed like GP's columns
 * (varchar, not nvarchar, so that GP's char indexes are used without implicit conversion) and rows
 * come back as arrays. Not yet exercised against a real server here: see the issue on SQL Server.
 */
export class MssqlExecutor implements Executor {
  readonly dialect = mssqlDialect;
  private readonly pool: sql.ConnectionPool;
  private connecting: Promise<sql.ConnectionPool> | null = null;

  /** `connection` is an mssql config or an ADO-style connection string; it holds a password: never log it. */
  constructor(connection: string | sql.config) {
    this.pool = new sql.ConnectionPool(connection as sql.config);
  }

  async query(_company: string | null, query: CompiledQuery): Promise<unknown[][]> {
    const pool = await this.connected();
    const request = pool.request();
    request.arrayRowMode = true;
    query.params.forEach((param, i) => request.input(`p${i}`, sqlTypeOf(param), bindValue(param)));
    const result = await request.query(query.sql);
    return result.recordset as unknown as unknown[][];
  }

  private connected(): Promise<sql.ConnectionPool> {
    this.connecting ??= this.pool.connect().catch((error: unknown) => {
      this.connecting = null;
      throw new DatabaseUnavailableError(`SQL Server refused the connection: ${(error as Error).message}`);
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function sqlTypeOf(param: Param): sql.ISqlType | (() => sql.ISqlType) {
  switch (param.type.kind) {
    case 'char':
    case 'varchar':
      return sql.VarChar(param.type.length);
    case 'int':
      return sql.Int;
    case 'numeric':
      return NUMERIC_AS_TEXT;
    case 'datetime':
      return sql.DateTime;
  }
}

/** Datetimes arrive as `YYYY-MM-DD HH:MM:SS.SSS` in UTC (tedious' default useUTC reads Dates as UTC). */
function bindValue(param: Param): unknown {
  return param.type.kind === 'datetime' ? new Date(`${String(param.value).replace(' ', 'T')}Z`) : param.value;
}
