import fs from 'node:fs';
import { dataPaths } from '../dataPaths.ts';
import { openStore } from '../store/openStore.ts';
import { AdminService } from './adminService.ts';

export interface LocalAdmin {
  admin: AdminService;
  close(): Promise<void>;
}

/**
 * The admin service over the embedded store of a data folder: the file a running gateway uses
 * (SQLite in WAL mode allows both at once). Only `create` may start a new store; otherwise a folder
 * without one is an error that says where it looked, so a mistyped DATA_DIR is not an empty gateway.
 */
export function openLocalAdmin(dataDir: string, options: { create?: boolean } = {}): LocalAdmin {
  if (!options.create && !fs.existsSync(dataPaths(dataDir).store)) {
    throw new Error(
      `no gateway data in ${dataDir} (there is no gateway.sqlite). Set DATA_DIR to the folder the gateway runs with, ` +
        'e.g. DATA_DIR=/srv/gp-gateway/data gp-gateway org list',
    );
  }
  const store = openStore(dataDir);
  return { admin: new AdminService(store), close: () => store.close() };
}
