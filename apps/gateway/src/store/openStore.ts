import fs from 'node:fs';
import type { Logger } from 'pino';
import { dataPaths } from '../dataPaths.ts';
import { SqliteStore } from './sqlite/sqliteStore.ts';
import type { Store } from './store.ts';

export interface StoreLocation {
  /** The data folder: the embedded SQLite store's file lives there. */
  dataDir: string;
  /** DATABASE_URL: when set, the PostgreSQL store that several gateway instances share (D14) instead. */
  databaseUrl?: string | null;
  /** Where the PostgreSQL store reports a lost connection. */
  log?: Logger;
}

/**
 * The store every gateway process, operator command and test harness of one deployment opens: by
 * default the embedded SQLite file of the data folder (made, with the folder, if missing); with a
 * database URL, PostgreSQL, migrated before this resolves. The PostgreSQL store is loaded only
 * then, so the embedded default never loads pg.
 */
export async function openStore(location: StoreLocation): Promise<Store> {
  if (location.databaseUrl) {
    const { PostgresStore } = await import('./postgres/postgresStore.ts');
    return PostgresStore.open({ connectionString: location.databaseUrl, ...(location.log ? { log: location.log } : {}) });
  }
  fs.mkdirSync(location.dataDir, { recursive: true });
  return new SqliteStore(dataPaths(location.dataDir).store);
}
