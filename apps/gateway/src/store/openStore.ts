import fs from 'node:fs';
import { dataPaths } from '../dataPaths.ts';
import { SqliteStore } from './sqlite/sqliteStore.ts';
import type { Store } from './store.ts';

/**
 * The store of a data folder: the embedded SQLite file every gateway process, operator command and
 * test harness of one deployment opens. Made (with the folder) if missing.
 */
export function openStore(dataDir: string): Store {
  fs.mkdirSync(dataDir, { recursive: true });
  return new SqliteStore(dataPaths(dataDir).store);
}
