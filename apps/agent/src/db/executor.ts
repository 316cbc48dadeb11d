import type { Dialect } from '../sql/dialect.ts';
import type { CompiledQuery } from '../sql/model.ts';

/**
 * Runs compiled statements against GP. One implementation per driver (SQLite for the embedded demo,
 * mssql/tedious for SQL Server); everything above this works with raw rows as arrays.
 */
export interface Executor {
  readonly dialect: Dialect;
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
  close(): Promise<void>;
}

/** The database cannot be reached or refused us (login, offline database): the API's ERP_UNAVAILABLE. */
export class DatabaseUnavailableError extends Error {}

/** The statement was cancelled because its request's signal aborted (deadline, drain, gateway cancel). */
export class QueryCancelledError extends Error {
  constructor(message = 'the query was cancelled') {
    super(message);
  }
}

/** GP's own name for the system database; catalogue tables of `database: 'system'` live there. */
export const SYSTEM_DATABASE = 'DYNAMICS';

/** INTERIDs are GP database names: up to 5 letters, digits or underscores. */
export const COMPANY_ID = /^[A-Za-z0-9_]{1,5}$/;

/** The label the embedded database reports as its GP version when it has no DU000020. */
export const DEMO_GP_VERSION = 'demo';

/** Catalogue table names are plain identifiers; anything else never reaches SQL. */
export const TABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
