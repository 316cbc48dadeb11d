import type { Dialect } from '../sql/dialect.ts';
import type { CompiledQuery } from '../sql/model.ts';

/**
 * Runs compiled statements against GP. One implementation per driver (SQLite for the embedded demo,
 * mssql/tedious for SQL Server); everything above this works with raw rows as arrays.
 */
export interface Executor {
  readonly dialect: Dialect;
  /** Rows as arrays in select-list order. `company` is an INTERID already checked against SY01500, or null for DYNAMICS. */
  query(company: string | null, query: CompiledQuery): Promise<unknown[][]>;
  close(): Promise<void>;
}

/** The database cannot be reached or refused us (login, offline database): the API's ERP_UNAVAILABLE. */
export class DatabaseUnavailableError extends Error {}
