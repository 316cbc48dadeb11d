import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { runner } from 'node-pg-migrate';

/**
 * The PostgreSQL store's schema as numbered SQL files in migrations/ (`0001_…sql`, `0002_…sql`, …),
 * run in order by node-pg-migrate, which records each in MIGRATIONS_TABLE. Never edit a released
 * file; add the next number. Every gateway instance runs this at start, and several may start at
 * once: node-pg-migrate takes a PostgreSQL advisory lock and, in `wait` mode, the others wait for it
 * and then find nothing left to run. All pending files run in one transaction.
 */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
export const MIGRATIONS_TABLE = 'gateway_migrations';

/** The migrations this gateway knows, by name (file name without `.sql`), in order. */
export function knownMigrations(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort()
    .map((f) => f.slice(0, -'.sql'.length));
}

/**
 * Brings the database up to date, and refuses one a newer gateway has migrated further (whose tables
 * this one might misread), as the SQLite store does.
 */
export async function migrate(client: pg.ClientBase): Promise<void> {
  await runner({
    dbClient: client,
    dir: MIGRATIONS_DIR,
    migrationsTable: MIGRATIONS_TABLE,
    direction: 'up',
    advisoryLockMode: 'wait',
    checkOrder: true,
    singleTransaction: true,
    // node-pg-migrate logs every step to the console by default; a gateway's logs are its own.
    log: () => {},
  });
  const known = new Set(knownMigrations());
  const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY id`);
  const unknown = rows.map((r) => r.name).filter((name) => !known.has(name));
  if (unknown.length) {
    throw new Error(
      `this database was migrated by a newer gateway (it has ${unknown.join(', ')}; this gateway knows up to ${[...known].at(-1)}): run the newer gateway, or upgrade this one`,
    );
  }
}
