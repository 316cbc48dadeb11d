import { OBJECT_NAMES } from '@gp-gateway/protocol';

/** The objects v1 may write (docs/api.md#writes), whether or not this gateway's catalogue serves them yet. */
export const D9_WRITABLE_OBJECTS = [
  'customers',
  'customer-addresses',
  'vendors',
  'vendor-addresses',
  'sales-orders',
  'ar-invoices',
  'ap-invoices',
  'gl-entries',
] as const;

/** What a connection's write whitelist may name: the v1 writable objects (docs/api.md#writes) that the catalogue knows. */
export function writableObjects(): string[] {
  const known = new Set<string>(OBJECT_NAMES);
  return D9_WRITABLE_OBJECTS.filter((name) => known.has(name));
}

export type WhitelistCheck = { ok: true; objects: string[] } | { ok: false; problems: string[] };

/**
 * Validates the object names an operator wants writable on a connection. Names are matched
 * case-insensitively and returned sorted without duplicates; every bad name is reported, each with
 * the reason, so one attempt shows everything to fix.
 */
export function checkWriteWhitelist(names: readonly string[]): WhitelistCheck {
  const writable = new Set(writableObjects());
  const known = new Set<string>(OBJECT_NAMES);
  const d9 = new Set<string>(D9_WRITABLE_OBJECTS);
  const problems: string[] = [];
  const objects = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (writable.has(name)) objects.add(name);
    else if (known.has(name)) problems.push(`${name} is read-only: v1 does not write it`);
    else if (d9.has(name)) problems.push(`${name} is not served by this gateway version yet`);
    else problems.push(`there is no object named "${raw.trim()}"`);
  }
  return problems.length ? { ok: false, problems } : { ok: true, objects: [...objects].sort() };
}
