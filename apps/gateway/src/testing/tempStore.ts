import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdminService } from '../core/admin/adminService.ts';
import { openSqliteStore } from '../infrastructure/store/openStore.ts';
import type { Store } from '../infrastructure/store/store.ts';

/** A store (and the admin service on it) in a fresh temporary folder, removed again by `dispose`. */
export async function tempStore(): Promise<{ store: Store; admin: AdminService; file: string; dispose(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-store-'));
  const file = path.join(dir, 'gateway.sqlite');
  const store = await openSqliteStore(file);
  return {
    store,
    admin: new AdminService(store),
    file,
    async dispose() {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
