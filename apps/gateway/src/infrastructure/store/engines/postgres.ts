import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { StoreEngine } from '../sql/engine.ts';
import type { StoreSchema } from '../sql/schema.ts';
import { clientConfig, type PostgresOptions } from './postgresClient.ts';
import { PostgresKeyMemory } from './postgresKeyMemory.ts';
import { isConnectionFailure, StoreBreaker } from './storeBreaker.ts';

/** SQLSTATEs of a transaction PostgreSQL aborted to break a deadlock or a serialisation conflict: safe to run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * The pool as Kysely's dialect sees it, behind the breaker: while the store is known down every
 * statement fails at once (StoreUnavailableError, 503), and a statement's connection failure opens it.
 * Migrations run on a pool of their own without timeouts (`migrationPool`): a migration may take long
 * on a large database, and an instance waiting for another's migration waits on its lock.
 */
function guardedPool(pool: pg.Pool, breaker: StoreBreaker): PostgresPool {
  return {
    connect: () =>
      breaker.guard(async () => {
        const client = await pool.connect();
        const guarded: PostgresPoolClient = {
          query: ((sqlOrCursor: any, parameters?: ReadonlyArray<unknown>) =>
            parameters === undefined ? client.query(sqlOrCursor) : breaker.guard(() => client.query(sqlOrCursor, [...parameters]))) as any,
          release: (destroy?: boolean) => client.release(destroy),
        };
        return guarded;
      }),
    end: () => pool.end(),
  };
}

/** `db.example.com:5432/gateway`: where the store is, for messages; never the user or password. */
export function describeDatabase(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

/** A Kysely on its own short-lived pool without statement timeouts, for migrating (sql/migrations.ts). */
export function migrationDatabase(options: PostgresOptions): Kysely<any> {
  const { statement_timeout: _s, query_timeout: _q, ...config } = clientConfig(options);
  return new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...config, max: 1 }) }) });
}

/**
 * The PostgreSQL database several gateway instances and the operator CLI share (docs/decisions.md#several-gateway-instances), with the key
 * memory that listens for changes (postgresKeyMemory.ts). `start` resolves once it listens.
 */
export async function postgresEngine(options: PostgresOptions): Promise<StoreEngine> {
  const pool = new pg.Pool({ ...clientConfig(options), max: options.maxConnections ?? 10 });
  const breaker = new StoreBreaker(() => pool.query('SELECT 1'), { log: options.log });
  // An idle pooled connection that breaks (the server restarted) is dropped by the pool; without a
  // listener its error would end the process. It also says the server is gone, before any request finds out.
  pool.on('error', (error) => {
    options.log?.warn({ err: error }, 'a PostgreSQL connection of the store failed; the pool replaces it');
    if (isConnectionFailure(error)) breaker.failed(error);
  });
  const db = new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool: guardedPool(pool, breaker) }) });
  const keys = new PostgresKeyMemory(options);
  try {
    await keys.start();
  } catch (error) {
    await keys.close();
    breaker.stop();
    await db.destroy();
    throw error;
  }
  return {
    kind: 'postgres',
    db,
    insertionOrder: 'seq',
    rowLocks: true,
    async transaction(work) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute(work);
        } catch (error) {
          if (attempt >= 3 || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
        }
      }
    },
    keys,
    checkReachable: (timeoutMs) => breaker.check(timeoutMs),
    async close() {
      await keys.close();
      breaker.stop();
      await db.destroy();
    },
  };
}
