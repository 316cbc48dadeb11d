import sql from 'mssql';
import { publishSql } from '../telemetry/events.ts';
import { mssqlDialectFor } from '../sql/mssqlDialect.ts';
import type { Dialect } from '../sql/dialect.ts';
import type { MssqlIsolation } from './mssqlIsolation.ts';
import type { CompiledQuery, Param } from '../sql/model.ts';
import {
  COMPANY_ID,
  DatabaseConfigurationError,
  DatabaseUnavailableError,
  DEFAULT_SYSTEM_DATABASE,
  QueryCancelledError,
  SYSTEM_DATABASE_NAME,
  TABLE_NAME,
  type Executor,
} from './executor.ts';

/** Numeric values are bound as text: SQL Server converts varchar to numeric exactly, a JS number would not be. */
const NUMERIC_AS_TEXT = sql.VarChar(41);

/**
 * SQL Server errors that mean "GP cannot be read right now" rather than a bug in our SQL: login
 * failed (18456), database cannot be opened or is offline (4060, 942, 945, 926, 40613).
 */
const UNAVAILABLE_NUMBERS = new Set([18456, 4060, 942, 945, 926, 40613]);

/**
 * Errors no retry mends, only an administrator: permission denied (229, 230: a grant the login
 * lacks) and an object that does not exist or that the login cannot see (208). They are
 * DatabaseConfigurationError, which names what is missing, never the retryable ERP_UNAVAILABLE.
 */
const CONFIGURATION_NUMBERS = new Set([229, 230, 208]);

/**
 * Errors that mean "GP is busy, try again": chosen as deadlock victim (1205), a lock not granted
 * within LOCK_TIMEOUT (1222, a GP posting holding its locks), snapshot isolation not allowed on the
 * database (3952); and the driver's request timeout or a connection that died under the request
 * (ETIMEOUT, ESOCKET, ECLOSE, ECONNRESET). All are the API's retryable ERP_UNAVAILABLE, never a 500.
 */
const BUSY_NUMBERS = new Set([1205, 1222, 3952]);
const CONNECTION_LOST_CODES = new Set(['ETIMEOUT', 'ESOCKET', 'ECLOSE', 'ECONNRESET', 'ECONNCLOSED']);

/** How long a read waits for a lock GP holds before giving up with error 1222 (GP_MSSQL_LOCK_TIMEOUT_MS). */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

/** GP's version of the system database (companyID -32767), else the newest company's. */
const gpVersionSql = (dialect: Dialect) =>
  `SELECT TOP (1) versionMajor, versionMinor, versionBuild FROM ${dialect.quote(dialect.systemDatabase)}.[dbo].[DU000020] WHERE PRODID = 0 ` +
  'ORDER BY CASE WHEN companyID = -32767 THEN 0 ELSE 1 END, versionMajor DESC, versionMinor DESC, versionBuild DESC';

const ISOLATION_LEVELS: Record<MssqlIsolation, number> = {
  'read-committed': sql.ISOLATION_LEVEL.READ_COMMITTED,
  snapshot: sql.ISOLATION_LEVEL.SNAPSHOT,
  'read-uncommitted': sql.ISOLATION_LEVEL.READ_UNCOMMITTED,
};

export function parseConnectionString(connection: string): sql.config {
  return (sql.ConnectionPool as unknown as { parseConnectionString(s: string): sql.config }).parseConnectionString(connection);
}

type RequestFactory = { request(overrides?: { requestTimeout?: number }): sql.Request };

/**
 * After SQL Server could not be reached, requests fail at once for this long instead of each waiting
 * out the connect timeout (15 s by default) while GP is down; then the next request tries again.
 */
const RETRY_CONNECT_AFTER_MS = 5_000;

export interface MssqlExecutorOptions {
  /** READ COMMITTED unless set (GP_MSSQL_ISOLATION). */
  isolation?: MssqlIsolation;
  /** DEFAULT_LOCK_TIMEOUT_MS unless set (GP_MSSQL_LOCK_TIMEOUT_MS). */
  lockTimeoutMs?: number;
  /** GP's system database, DYNAMICS unless set (GP_SYSTEM_DATABASE); a SQL Server identifier. */
  systemDatabase?: string;
  /** See RETRY_CONNECT_AFTER_MS; tests shorten it. */
  retryConnectAfterMs?: number;
}

/**
 * SQL Server through mssql/tedious with one connection pool. Parameters are typed like GP's columns
 * (varchar, not nvarchar, so that GP's char indexes are used without implicit conversion) and rows
 * come back as arrays. A query with a signal has no driver timeout of its own: its deadline is the
 * gateway's, and an abort sends SQL Server an attention (request.cancel()), which stops the statement.
 */
export class MssqlExecutor implements Executor {
  readonly dialect: Dialect;
  readonly systemDatabase: string;
  private readonly gpVersionSql: string;
  private readonly pool: sql.ConnectionPool;
  private connecting: Promise<sql.ConnectionPool> | null = null;
  private readonly retryConnectAfterMs: number;
  /** Put before every statement: it holds for the batch (sp_executesql's), which is the statement. */
  private readonly lockTimeout: string;
  /** The last failure to reach SQL Server, answered at once until it is retryConnectAfterMs old. */
  private unreachable: { at: number; error: DatabaseUnavailableError } | null = null;

  /**
   * `connection` is an mssql config or an ADO-style connection string; it holds a password: never
   * log it. Every connection of the pool reads at `isolation` (default READ COMMITTED).
   */
  constructor(connection: string | sql.config, options: MssqlExecutorOptions = {}) {
    const config = typeof connection === 'string' ? parseConnectionString(connection) : connection;
    this.retryConnectAfterMs = options.retryConnectAfterMs ?? RETRY_CONNECT_AFTER_MS;
    this.pool = new sql.ConnectionPool(poolConfig(config, options));
    this.lockTimeout = `SET LOCK_TIMEOUT ${lockTimeoutOf(options)}; `;
    const systemDatabase = options.systemDatabase ?? DEFAULT_SYSTEM_DATABASE;
    // Checked again here: the name is written into statements (quoted), so nothing unchecked may reach them.
    if (!SYSTEM_DATABASE_NAME.test(systemDatabase)) throw new Error(`not a system database name: ${systemDatabase}`);
    this.systemDatabase = systemDatabase;
    this.dialect = mssqlDialectFor(systemDatabase);
    this.gpVersionSql = gpVersionSql(this.dialect);
  }

  async query(company: string | null, query: CompiledQuery, signal?: AbortSignal): Promise<unknown[][]> {
    const rows: unknown[][] = [];
    await this.forEachRow(company, query, (row) => rows.push(row), signal);
    return rows;
  }

  /**
   * Rows are streamed (mssql's stream mode): each is handed on as tedious decodes it from the wire,
   * instead of the driver first collecting the whole recordset.
   */
  async forEachRow(_company: string | null, query: CompiledQuery, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new QueryCancelledError();
    const pool = await this.connected();
    const request = (pool as unknown as RequestFactory).request(signal ? { requestTimeout: 0 } : undefined);
    request.arrayRowMode = true;
    request.stream = true;
    query.params.forEach((param, i) => request.input(`p${i}`, sqlTypeOf(param), bindValue(param)));
    // In stream mode failures arrive as 'error' events (possibly several; the first is the cause) and
    // the promise of query() resolves at 'done', which always follows.
    let failure: unknown = null;
    request.on('error', (error: unknown) => {
      failure ??= error;
    });
    request.on('row', (row: unknown[]) => {
      if (failure !== null) return;
      try {
        onRow(row);
      } catch (error) {
        failure = error;
        request.cancel();
      }
    });
    const cancel = () => request.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const started = performance.now();
    try {
      await request.query(this.lockTimeout + query.sql);
      if (failure !== null) throw failure;
      publishSql({ seconds: (performance.now() - started) / 1000, failed: false, errorNumber: null });
    } catch (error) {
      const number = (error as { number?: unknown }).number;
      publishSql({ seconds: (performance.now() - started) / 1000, failed: true, errorNumber: typeof number === 'number' ? number : null });
      throw this.failed(error, signal);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  async gpVersion(): Promise<string | null> {
    const pool = await this.connected();
    try {
      const result = await pool.request().query(this.gpVersionSql);
      const row = result.recordset[0] as { versionMajor: number; versionMinor: number; versionBuild: number } | undefined;
      return row ? `${row.versionMajor}.${row.versionMinor}.${row.versionBuild}` : null;
    } catch (error) {
      throw this.failed(error, undefined);
    }
  }

  async checkReadable(company: string | null, table: string): Promise<void> {
    if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`);
    const pool = await this.connected();
    const database = this.dialect.quote(company ?? this.dialect.systemDatabase);
    try {
      // TOP (0) reads nothing, but SQL Server still checks that the table exists and may be read.
      await pool.request().query(`SELECT TOP (0) * FROM ${database}.[dbo].${this.dialect.quote(table)}`);
    } catch (error) {
      throw this.failed(error, undefined);
    }
  }

  async snapshotIsolationStates(databases: readonly string[]): Promise<Map<string, number>> {
    const states = new Map<string, number>();
    if (!databases.length) return states;
    const pool = await this.connected();
    const request = pool.request();
    // Database names are values here (sysname), compared by SQL Server, never written into the statement.
    databases.forEach((name, i) => request.input(`p${i}`, sql.NVarChar(128), name));
    const names = databases.map((_, i) => `@p${i}`).join(', ');
    try {
      const result = await request.query(`SELECT name, snapshot_isolation_state FROM sys.databases WHERE name IN (${names})`);
      for (const row of result.recordset as Array<{ name: string; snapshot_isolation_state: number }>)
        states.set(row.name, row.snapshot_isolation_state);
    } catch (error) {
      throw this.failed(error, undefined);
    }
    return states;
  }

  async recordedSystemDatabase(company: string): Promise<string | null> {
    if (!COMPANY_ID.test(company)) throw new Error(`not a company id: ${company}`);
    const pool = await this.connected();
    try {
      // One row in a company database: its own CMPANYID and the system database it belongs to.
      const result = await pool
        .request()
        .query(`SELECT TOP (1) RTRIM(DBNAME) AS DBNAME FROM ${this.dialect.quote(company)}.[dbo].[SY00100] ORDER BY CMPANYID`);
      const row = result.recordset[0] as { DBNAME: string } | undefined;
      return row ? row.DBNAME : null;
    } catch (error) {
      throw this.failed(error, undefined);
    }
  }

  /** The error to report; a lost connection also makes the next requests fail at once for a while. */
  private failed(error: unknown, signal: AbortSignal | undefined): Error {
    const translated = translate(error, signal);
    if (error instanceof sql.ConnectionError) this.unreachable = { at: Date.now(), error: translated as DatabaseUnavailableError };
    return translated;
  }

  private connected(): Promise<sql.ConnectionPool> {
    const unreachable = this.unreachable;
    if (unreachable && Date.now() - unreachable.at < this.retryConnectAfterMs) return Promise.reject(unreachable.error);
    this.connecting ??= this.pool.connect().then(
      (pool) => {
        this.unreachable = null;
        return pool;
      },
      (error: unknown) => {
        this.connecting = null;
        const failure = new DatabaseUnavailableError(`SQL Server refused the connection: ${(error as Error).message}`);
        this.unreachable = { at: Date.now(), error: failure };
        throw failure;
      },
    );
    return this.connecting;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** SET LOCK_TIMEOUT's argument: whole milliseconds, never negative (-1 would wait for ever). */
function lockTimeoutOf(options: MssqlExecutorOptions): number {
  const ms = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`not a lock timeout in milliseconds: ${ms}`);
  return ms;
}

/**
 * The pool's configuration. The isolation level goes to tedious' `connectionIsolationLevel`, which it
 * sets on every connection at login and so holds for every statement; `isolationLevel` is only the
 * default of explicit transactions, which the agent never opens, so with it every read ran READ
 * COMMITTED whatever was configured. A pooled connection is checked before each use
 * (`validateConnection: 'socket'`, its socket's state, no round trip), so one SQL Server or the
 * network dropped is replaced instead of failing a request.
 */
export function poolConfig(config: sql.config, options: MssqlExecutorOptions): sql.config {
  return {
    ...config,
    validateConnection: 'socket',
    options: { ...config.options, connectionIsolationLevel: ISOLATION_LEVELS[options.isolation ?? 'read-committed'] },
  } as sql.config;
}

/** A driver error as the agent reports it: cancelled, GP unavailable or busy (ERP_UNAVAILABLE), or itself. */
export function translate(error: unknown, signal: AbortSignal | undefined): Error {
  const e = error as { code?: string; number?: number; message?: string };
  if (e.code === 'ECANCEL' || signal?.aborted) return new QueryCancelledError('SQL Server cancelled the query');
  if (error instanceof sql.ConnectionError) return new DatabaseUnavailableError(`SQL Server connection failed: ${e.message}`);
  if (e.number !== undefined && CONFIGURATION_NUMBERS.has(e.number))
    return new DatabaseConfigurationError(`SQL Server error ${e.number}: ${e.message}`, missingOf(e.message ?? ''));
  if (e.number !== undefined && (UNAVAILABLE_NUMBERS.has(e.number) || BUSY_NUMBERS.has(e.number)))
    return new DatabaseUnavailableError(`SQL Server error ${e.number}: ${e.message}`);
  if (e.code !== undefined && CONNECTION_LOST_CODES.has(e.code))
    return new DatabaseUnavailableError(`SQL Server request failed (${e.code}): ${e.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * What a permission or missing-object error says is missing, in the words of a grant: SQL Server's
 * "The EXECUTE permission was denied on the object 'tasmGetNextNoteIndex', database 'DYNAMICS',
 * schema 'dbo'." is "EXECUTE on DYNAMICS..tasmGetNextNoteIndex".
 */
function missingOf(message: string): string {
  const denied = /The (\w+) permission was denied on the (?:column '[^']*' of the )?object '([^']+)', database '([^']+)'/.exec(message);
  if (denied) return `${denied[1]} on ${denied[3]}..${denied[2]}`;
  const invalid = /Invalid object name '([^']+)'/.exec(message);
  if (invalid) return `the object ${invalid[1]} (it does not exist, or the login may not see it)`;
  return 'a permission or object SQL Server did not name';
}

/** The driver type a parameter is bound as: GP's column type (writes/mssql binds eConnect's own). */
export function sqlTypeOf(param: Param): sql.ISqlType | (() => sql.ISqlType) {
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
export function bindValue(param: Param): unknown {
  return param.type.kind === 'datetime' ? new Date(`${String(param.value).replace(' ', 'T')}Z`) : param.value;
}
