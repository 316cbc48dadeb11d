import fs from 'node:fs';
import type { Logger } from 'pino';
import { dataPaths } from '../dataPaths.ts';
import { sqliteEngine } from './engines/sqlite.ts';
import { migrateStore } from './sql/migrations.ts';
import { storeOn } from './sql/sqlStore.ts';
import type { Store } from './store.ts';

export interface StoreLocation {
  /** The data folder: the embedded SQLite store's file lives there. */
  dataDir: string;
  /** DATABASE_URL: when set, the PostgreSQL store that several gateway instances share (docs/decisions.md#several-gateway-instances) instead. */
  databaseUrl?: string | null;
  /** Where the PostgreSQL store reports a lost connection. */
  log?: Logger;
}

/** The embedded store in one SQLite file (made if missing), migrated. */
export async function openSqliteStore(file: string): Promise<Store> {
  const engine = sqliteEngine(file);
  try {
    await migrateStore(engine.db, 'sqlite');
  } catch (error) {
    await engine.close();
    throw error;
  }
  return storeOn(engine);
}

/**
 * The store on PostgreSQL: migrated first on a connection without statement timeouts (waiting for
 * another instance doing the same), then opened with its key listener.
 */
export async function openPostgresStore(options: { connectionString: string; log?: Logger; maxConnections?: number }): Promise<Store> {
  // Loaded only here, so the embedded default never loads pg.
  const { describeDatabase, migrationDatabase, postgresEngine } = await import('./engines/postgres.ts');
  try {
    const migrating = migrationDatabase(options);
    try {
      await migrateStore(migrating, 'postgres');
    } finally {
      await migrating.destroy();
    }
    return storeOn(await postgresEngine(options));
  } catch (error) {
    throw new Error(
      `cannot open the PostgreSQL store ${describeDatabase(options.connectionString)} (DATABASE_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * The store every gateway process, operator command and test harness of one deployment opens: by
 * default the embedded SQLite file of the data folder (made, with the folder, if missing); with a
 * database URL, PostgreSQL.
 */
export async function openStore(location: StoreLocation): Promise<Store> {
  if (location.databaseUrl)
    return openPostgresStore({ connectionString: location.databaseUrl, ...(location.log ? { log: location.log } : {}) });
  fs.mkdirSync(location.dataDir, { recursive: true });
  return openSqliteStore(dataPaths(location.dataDir).store);
}
