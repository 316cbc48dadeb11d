/**
 * The life of a database file while the demo builds it: fast and unsafe during the bulk load
 * (nothing reads it until it is renamed into place; CHECKs are left to the table writer), then indexed, analysed and switched to WAL so
 * the agent (read-only) and e2e tests (read-write) can open it concurrently.
 */
import Database from 'better-sqlite3';
import { sqliteCreateIndexes, sqliteCreateTable, sqliteCreateTriggers, type GpTable } from '@gp-gateway/gp-schema';

export function openForBuild(path: string, tables: readonly GpTable[]): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -131072');
  // The table writer enforces the encoding itself (tableWriter.ts); re-checking every column's
  // CHECK on each bulk row would double the load time of the wide SOP/POP tables. Back on in finishBuild.
  db.pragma('ignore_check_constraints = ON');
  for (const table of tables) db.exec(sqliteCreateTable(table));
  return db;
}

/** Indexes and triggers come after the load: faster, and triggers must not restamp demo rows. */
export function finishBuild(db: Database.Database, tables: readonly GpTable[]): void {
  db.pragma('ignore_check_constraints = OFF');
  // One transaction: SQLite then reloads its schema once instead of after every statement.
  inTransaction(db, () => {
    for (const table of tables) {
      for (const statement of [...sqliteCreateIndexes(table), ...sqliteCreateTriggers(table)]) db.exec(statement);
    }
  });
  db.exec('ANALYZE');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.close();
}

/** Runs `work` in one transaction; with journal_mode=OFF this only batches the writes. */
export function inTransaction<T>(db: Database.Database, work: () => T): T {
  return db.transaction(work)();
}
