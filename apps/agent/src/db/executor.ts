import type { Dialect } from '../sql/dialect.ts';
import type { CompiledQuery } from '../sql/model.ts';

/**
 * Runs compiled statements against GP. One implementation per driver (SQLite for the embedded demo,
 * mssql/tedious for SQL Server); everything above this works with raw rows as arrays.
 */
export interface Executor {
  readonly dialect: Dialect;
  /** The GP system database's name, for messages (the dialect addresses it). */
  readonly systemDatabase: string;
  /**
   * Rows as arrays in select-list order. `company` is an INTERID already checked against SY01500, or
   * null for DYNAMICS. When `signal` aborts, the running statement is cancelled on the database and
   * the promise rejects with QueryCancelledError.
   */
  query(company: string | null, query: CompiledQuery, signal?: AbortSignal): Promise<unknown[][]>;
  /**
   * The same rows handed to `onRow` one by one as the driver delivers them, so that a page is encoded
   * while it arrives and its raw rows are never all held at once (SQL Server streams them; SQLite,
   * in-process, reads a page in one call, which is faster there). If `onRow` throws, the statement is
   * cancelled and the promise rejects with that error.
   */
  forEachRow(company: string | null, query: CompiledQuery, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void>;
  /**
   * GP's version as DYNAMICS..DU000020 records it (`major.minor.build`), a label for a database that
   * is not a real GP install (the embedded demo), or null when the table cannot be read.
   */
  gpVersion(): Promise<string | null>;
  /**
   * Reads no rows from one table: proves that it exists and that the login may read it. `table` comes
   * from the catalogue only, never from a request.
   */
  checkReadable(company: string | null, table: string): Promise<void>;
  /**
   * SQL Server only: `sys.databases.snapshot_isolation_state` of each of `databases` the login can
   * see (0 off, 1 on, 2 turning off, 3 turning on), by name as SQL Server spells it; a database the
   * login cannot see is missing from the map.
   */
  snapshotIsolationStates?(databases: readonly string[]): Promise<Map<string, number>>;
  /**
   * SQL Server only: the system database a company database names in SY00100.DBNAME (GP 2013 and
   * later), or null when SY00100 has no row.
   */
  recordedSystemDatabase?(company: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The database cannot be reached or refused us (login, offline database): the API's ERP_UNAVAILABLE. */
export class DatabaseUnavailableError extends Error {}

/**
 * The login lacks a permission, or GP lacks an object (SQL Server errors 229, 230, 208): an
 * administrator's fix, so never answered as the retryable ERP_UNAVAILABLE. `missing` names it
 * ("EXECUTE on DYNAMICS..tasmGetNextNoteIndex"). A DatabaseUnavailableError for what only asks
 * whether the database answers (health, diagnose).
 */
export class DatabaseConfigurationError extends DatabaseUnavailableError {
  constructor(
    message: string,
    readonly missing: string,
  ) {
    super(message);
  }
}

/** The statement was cancelled because its request's signal aborted (deadline, drain, gateway cancel). */
export class QueryCancelledError extends Error {
  constructor(message = 'the query was cancelled') {
    super(message);
  }
}

/**
 * GP's system database unless it was installed with another name (GP 2013 and later allow a named
 * system database; GP_SYSTEM_DATABASE); catalogue tables of `database: 'system'` live there. The
 * embedded demo's system database is always this one.
 */
export const DEFAULT_SYSTEM_DATABASE = 'DYNAMICS';
export const SYSTEM_DATABASE = DEFAULT_SYSTEM_DATABASE;

/**
 * A system database name the agent accepts: a SQL Server regular identifier (GP's own rule for a
 * named system database is stricter: at most 10 characters, not starting with a digit). It is only
 * ever used bracket-quoted, as an identifier, never as a value.
 */
export const SYSTEM_DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_@$#]{0,127}$/;

/** INTERIDs are GP database names: up to 5 letters, digits or underscores. */
export const COMPANY_ID = /^[A-Za-z0-9_]{1,5}$/;

/** The label the embedded database reports as its GP version when it has no DU000020. */
export const DEMO_GP_VERSION = 'demo';

/** Catalogue table names are plain identifiers; anything else never reaches SQL. */
export const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
