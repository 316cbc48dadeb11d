import fs from 'node:fs';
import Database from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { StoreEngine } from '../sql/engine.ts';
import { MIGRATION_LOCK_TABLE } from '../sql/migrations.ts';
import type { StoreSchema } from '../sql/schema.ts';
import { SqliteKeyMemory } from './sqliteKeyMemory.ts';

/** Statements kept prepared; the store's queries are a few dozen shapes. */
const STATEMENTS_KEPT = 500;

/**
 * better-sqlite3 as Kysely's dialect sees it, with each statement prepared once: Kysely asks to
 * prepare every query it runs, and preparing is most of a short statement's cost (it was half of a
 * write's CPU in the agent's writer). A prepared statement runs again with new parameters.
 */
function preparingOnce(db: Database.Database): SqliteDatabase {
  const prepared = new LRUCache<string, Database.Statement>({ max: STATEMENTS_KEPT });
  return {
    close: () => db.close(),
    prepare: (sql: string) => {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        prepared.set(sql, statement);
      }
      return statement;
    },
  } as SqliteDatabase;
}

/**
 * Kysely's SQLite adapter takes no lock for migrations (one process has one connection); two
 * processes opening one file at once (a gateway and the operator CLI) could then both run a step. A
 * write to the lock table as the migration transaction's first statement takes the file's write
 * lock, so the second process waits (busy_timeout) and then finds nothing left to run.
 */
class LockingSqliteAdapter extends SqliteAdapter {
  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await db.updateTable(MIGRATION_LOCK_TABLE).set({ is_locked: 1 }).execute();
  }
  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    await db.updateTable(MIGRATION_LOCK_TABLE).set({ is_locked: 0 }).execute();
  }
}

/** A lock taken in turn: `hold` resolves when the previous holder has let go. */
class TurnLock {
  private last: Promise<void> = Promise.resolve();

  async hold(): Promise<() => void> {
    let release!: () => void;
    const previous = this.last;
    this.last = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return release;
  }
}

/** One lock per database file for this process's connections to it (by the file's real path). */
const fileLocks = new Map<string, TurnLock>();

function lockOf(file: string): TurnLock {
  const key = fs.realpathSync(file);
  let lock = fileLocks.get(key);
  if (!lock) fileLocks.set(key, (lock = new TurnLock()));
  return lock;
}

/**
 * Kysely's SQLite driver hands its one connection to one query or transaction at a time. Two
 * connections to one file in one process (a test's second store, standing in for the operator CLI)
 * would still interleave, and one would wait for the other's write lock with the thread blocked
 * (better-sqlite3's busy timeout is synchronous) while the other cannot finish: this driver takes the
 * file's lock too. Other processes are waited for by the busy timeout, as before.
 */
class FileLockedSqliteDriver extends SqliteDriver {
  private readonly fileLock: TurnLock;
  private readonly releases: (() => void)[] = [];

  constructor(config: ConstructorParameters<typeof SqliteDriver>[0], fileLock: TurnLock) {
    super(config);
    this.fileLock = fileLock;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.releases.push(await this.fileLock.hold());
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    this.releases.shift()?.();
  }
}

class StoreSqliteDialect extends SqliteDialect {
  private readonly options: { database: SqliteDatabase; fileLock: TurnLock };

  constructor(options: { database: SqliteDatabase; fileLock: TurnLock }) {
    super({ database: options.database });
    this.options = options;
  }

  override createDriver() {
    return new FileLockedSqliteDriver({ database: this.options.database }, this.options.fileLock);
  }

  override createAdapter() {
    return new LockingSqliteAdapter();
  }
}

/**
 * The embedded store's database: one SQLite file in the data folder, in WAL mode so the operator CLI
 * can use it beside a running gateway, with foreign keys on.
 */
export function sqliteEngine(file: string): StoreEngine {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<StoreSchema>({ dialect: new StoreSqliteDialect({ database: preparingOnce(raw), fileLock: lockOf(file) }) });
  const keys = new SqliteKeyMemory(raw);
  return {
    kind: 'sqlite',
    db,
    insertionOrder: 'rowid',
    rowLocks: false,
    transaction: (work) => db.transaction().execute(work),
    keys,
    // A file on the gateway's own disk: if it cannot answer, nothing else of the process can.
    checkReachable: async () => {
      raw.prepare('SELECT 1').get();
    },
    close: async () => {
      await keys.close();
      await db.destroy();
    },
  };
}
