import pg from 'pg';
import type { Logger } from 'pino';
import { isConnectionFailure, StoreBreaker } from './storeBreaker.ts';

/**
 * The pool the PostgreSQL store runs on, reading values as the Store interface shapes them: times
 * (timestamptz) as ISO strings like `2026-01-01T00:00:00.000Z`, bigints as numbers (row counts and
 * log ids stay far below 2^53), jsonb parsed (pg's default).
 */
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const parseTimestampTz = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === TIMESTAMPTZ) return (text: string) => parseTimestampTz(text).toISOString();
    if (oid === INT8) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** SQLSTATEs of a transaction PostgreSQL aborted to break a deadlock or a serialisation conflict: safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);

export interface DatabaseOptions {
  connectionString: string;
  log?: Logger;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

/** Settings of every connection the store opens, the listener's included. */
export function clientConfig(options: DatabaseOptions): pg.ClientConfig {
  return {
    ...migrationClientConfig(options),
    // A store that cannot be reached fails a request in seconds rather than holding it.
    statement_timeout: 10_000,
    query_timeout: 15_000,
  };
}

/**
 * The connection migrations run on: without statement timeouts, since a migration may take long on a
 * large database, and an instance waiting for another's migration waits on the advisory lock.
 */
export function migrationClientConfig(options: DatabaseOptions): pg.ClientConfig {
  return { connectionString: options.connectionString, types, application_name: 'gp-gateway', connectionTimeoutMillis: 5_000 };
}

export class Database {
  /** Only for what the breaker must not stand in front of; statements go through `query`, `rows` and `transaction`. */
  private readonly pool: pg.Pool;
  readonly breaker: StoreBreaker;

  constructor(options: DatabaseOptions) {
    this.pool = new pg.Pool({ ...clientConfig(options), max: options.maxConnections ?? 10 });
    this.breaker = new StoreBreaker(() => this.pool.query('SELECT 1'), { log: options.log });
    // An idle pooled connection that breaks (the server restarted) is dropped by the pool; without a
    // listener its error would end the process. It also says the server is gone, before any request finds out.
    this.pool.on('error', (error) => {
      options.log?.warn({ err: error }, 'a PostgreSQL connection of the store failed; the pool replaces it');
      if (isConnectionFailure(error)) this.breaker.failed(error);
    });
  }

  /** One statement on a pooled connection; fails at once (StoreUnavailableError) while the store is known down. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.breaker.guard(() => this.pool.query<R>(sql, params));
  }

  async rows<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.query<R>(sql, params)).rows;
  }

  async row<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R | null> {
    return (await this.rows<R>(sql, params))[0] ?? null;
  }

  /** Runs `work` in one transaction on one connection, again (up to 3 times) if PostgreSQL aborted it for a deadlock. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.breaker.guard(async () => {
      for (let attempt = 1; ; attempt++) {
        const client = await this.pool.connect();
        let broken: Error | undefined;
        try {
          await client.query('BEGIN');
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // A connection that cannot even roll back is not given back to the pool.
          await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
          if (attempt >= 3 || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
        } finally {
          client.release(broken);
        }
      }
    });
  }

  close(): Promise<void> {
    this.breaker.stop();
    return this.pool.end();
  }
}
