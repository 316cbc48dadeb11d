import fs from 'node:fs';
import { dataDirFrom } from '../config.ts';
import { dataPaths } from '../dataPaths.ts';
import { SqliteStore } from '../store/sqliteStore.ts';
import type { ConnectionWithPresence, Organisation, Store } from '../store/store.ts';

/**
 * Runs one operator command against the store of DATA_DIR, the same file a running gateway uses
 * (SQLite in WAL mode allows both at once), and prints what the command returns.
 * Only `create` commands may start a new store; the others explain where they looked.
 */
export async function runOnStore(action: (store: Store) => Promise<string[]>, options: { create?: boolean } = {}): Promise<void> {
  const dataDir = dataDirFrom(process.env);
  const file = dataPaths(dataDir).store;
  if (!fs.existsSync(file)) {
    if (!options.create) {
      throw new Error(
        `no gateway data in ${dataDir} (there is no gateway.sqlite). Set DATA_DIR to the folder the gateway runs with, ` +
          'e.g. DATA_DIR=/srv/gp-gateway/data gp-gateway org list',
      );
    }
    fs.mkdirSync(dataDir, { recursive: true });
  }
  const store = new SqliteStore(file);
  try {
    const lines = await action(store);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}

/** An organisation by id or by exact name, or an error that says how to find the right one. */
export async function organisationNamed(store: Store, idOrName: string): Promise<Organisation> {
  const org = (await store.findOrganisation(idOrName)) ?? (await store.findOrganisationByName(idOrName));
  if (!org) throw new Error(`there is no organisation with the id or name "${idOrName}". See them all with: gp-gateway org list`);
  return org;
}

/** A connection of the organisation by id, or by name when exactly one has it. */
export async function connectionNamed(store: Store, org: Organisation, idOrName: string): Promise<ConnectionWithPresence> {
  const connections = await store.listConnections(org.id);
  const byId = connections.find((c) => c.id === idOrName);
  if (byId) return byId;
  const byName = connections.filter((c) => c.name === idOrName);
  if (byName.length === 1) return byName[0]!;
  const hint = `See them with: gp-gateway connection list --org ${org.id}`;
  if (byName.length > 1) throw new Error(`"${org.name}" has ${byName.length} connections named "${idOrName}"; use the id. ${hint}`);
  throw new Error(`"${org.name}" has no connection with the id or name "${idOrName}". ${hint}`);
}

/** `"Acme Ltd" (org_…)`: how commands name an organisation. */
export function describeOrganisation(org: Organisation): string {
  return `"${org.name}" (${org.id})`;
}

export function parseWholeNumber(value: string, what: string, bounds: { min: number; max: number }): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < bounds.min || n > bounds.max) {
    throw new Error(`${what} must be a whole number from ${bounds.min} to ${bounds.max.toLocaleString('en')}, not "${value}"`);
  }
  return n;
}
