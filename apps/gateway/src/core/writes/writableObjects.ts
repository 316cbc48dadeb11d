import { OBJECT_NAMES, WRITABLE_OBJECT_NAMES } from '@gp-gateway/protocol';

/** What a connection's write whitelist may name: the protocol's writable objects (docs/api.md#writes). */
export function writableObjects(): string[] {
  return [...WRITABLE_OBJECT_NAMES];
}

export type WhitelistCheck = { ok: true; objects: string[] } | { ok: false; problems: string[] };

/**
 * Validates the object names an operator wants writable on a connection. Names are matched
 * case-insensitively and returned sorted without duplicates; every bad name is reported, each with
 * the reason, so one attempt shows everything to fix.
 */
export function checkWriteWhitelist(names: readonly string[]): WhitelistCheck {
  const writable = new Set<string>(WRITABLE_OBJECT_NAMES);
  const known = new Set<string>(OBJECT_NAMES);
  const problems: string[] = [];
  const objects = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (writable.has(name)) objects.add(name);
    else if (known.has(name)) problems.push(`${name} is read-only: v1 does not write it`);
    else problems.push(`there is no object named "${raw.trim()}"`);
  }
  return problems.length ? { ok: false, problems } : { ok: true, objects: [...objects].sort() };
}
