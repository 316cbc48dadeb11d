import fs from 'node:fs';
import pino from 'pino';
import { readPresence } from '../agents/redisPresence.ts';
import { connectRedis } from '../../infrastructure/cluster/redisClient.ts';
import { dataPaths } from '../../infrastructure/dataPaths.ts';
import { openStore } from '../../infrastructure/store/openStore.ts';
import type { Store } from '../../infrastructure/store/store.ts';
import { AdminService } from './adminService.ts';

export interface LocalAdmin {
  admin: AdminService;
  /** The store itself, for the services beside the admin service (webhook endpoints). */
  store: Store;
  close(): Promise<void>;
}

/**
 * The admin service over the store a running gateway uses: the embedded store of a data folder
 * (SQLite in WAL mode allows both at once), or the PostgreSQL database `databaseUrl` names. Only
 * `create` may start a new embedded store; otherwise a folder without one is an error that says
 * where it looked, so a mistyped DATA_DIR is not an empty gateway.
 */
export async function openLocalAdmin(
  dataDir: string,
  options: { create?: boolean; databaseUrl?: string | null; redisUrl?: string | null } = {},
): Promise<LocalAdmin> {
  if (!options.databaseUrl && !options.create && !fs.existsSync(dataPaths(dataDir).store)) {
    throw new Error(
      `no gateway data in ${dataDir} (there is no gateway.sqlite). Set DATA_DIR to the folder the gateway runs with, ` +
        'e.g. DATA_DIR=/srv/gp-gateway/data gp-gateway org list, or DATABASE_URL to its PostgreSQL database',
    );
  }
  const store = await openStore({ dataDir, databaseUrl: options.databaseUrl ?? null });
  if (!options.redisUrl) return { admin: new AdminService(store), store, close: () => store.close() };
  // Agent status from the instances' Redis presence; a Redis that does not answer soon leaves the store's view.
  const redis = await connectRedis(options.redisUrl, pino({ level: 'silent' }), 1_000);
  const live = { holders: (connectionId: string) => readPresence(redis, 'gp', connectionId) };
  return {
    admin: new AdminService(store, undefined, live),
    store,
    close: async () => {
      redis.disconnect();
      await store.close();
    },
  };
}
