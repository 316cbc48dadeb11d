import { sqliteDialect } from '../sql/sqliteDialect.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { QueryCancelledError, SYSTEM_DATABASE, type Executor } from './executor.ts';
import { SqliteDatabases, type SqliteDatabasesOptions } from './sqliteDatabases.ts';

export type SqliteExecutorOptions = SqliteDatabasesOptions;

/**
 * The embedded GP-shaped database on the calling thread. Queries run synchronously, so a signal can
 * only stop a query before it starts: use it where blocking the thread is fine (tests, the one-shot
 * support commands). `gp-agent run` and the sandbox use SqliteWorkerPool, which can cancel.
 */
export class SqliteExecutor implements Executor {
  readonly dialect = sqliteDialect;
  readonly systemDatabase = SYSTEM_DATABASE;
  private readonly databases: SqliteDatabases;

  /** `databases`: run on these connections (the writer's, inside its transaction) instead of opening its own. */
  constructor(options: SqliteExecutorOptions, databases?: SqliteDatabases) {
    this.databases = databases ?? new SqliteDatabases(options);
  }

  async query(company: string | null, query: CompiledQuery, signal?: AbortSignal): Promise<unknown[][]> {
    if (signal?.aborted) throw new QueryCancelledError();
    return this.databases.run(company, query.sql, query.params);
  }

  async forEachRow(company: string | null, query: CompiledQuery, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    for (const row of await this.query(company, query, signal)) onRow(row);
  }

  async gpVersion(): Promise<string | null> {
    return this.databases.gpVersion();
  }

  async checkReadable(company: string | null, table: string): Promise<void> {
    this.databases.checkReadable(company, table);
  }

  async close(): Promise<void> {
    this.databases.close();
  }
}
