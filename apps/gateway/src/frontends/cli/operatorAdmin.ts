import { AdminError, type AdminService } from '../../core/admin/adminService.ts';
import { openLocalAdmin } from '../../core/admin/localAdmin.ts';
import { printable } from './output.ts';
import { dataDirFrom, databaseUrlFrom, redisUrlFrom } from '../../config.ts';
import type { ConnectionWithPresence, Organisation } from '../../infrastructure/store/store.ts';

/**
 * Runs one operator command on the store of DATA_DIR (or DATABASE_URL), the same one a running gateway uses, and
 * prints what the command returns. Only `create` commands may start a new store. An AdminError's
 * problems are listed under its message, one a line.
 */
export async function runOperatorCommand(
  action: (admin: AdminService) => Promise<string[]>,
  options: { create?: boolean } = {},
): Promise<void> {
  const { admin, close } = await openLocalAdmin(dataDirFrom(process.env), {
    ...options,
    databaseUrl: databaseUrlFrom(process.env),
    redisUrl: redisUrlFrom(process.env),
  });
  try {
    const lines = await action(admin);
    process.stdout.write(`${lines.map(printable).join('\n')}\n`);
  } finally {
    await close();
  }
}

/** An organisation by id or by exact name, or an error that says how to find the right one. */
export async function organisationNamed(admin: AdminService, idOrName: string): Promise<Organisation> {
  const org = await admin.findOrganisation(idOrName);
  if (!org)
    throw new Error(`there is no organisation with the id or name "${printable(idOrName)}". See them all with: gp-gateway org list`);
  return org;
}

/** A connection of the organisation by id, or by name when exactly one has it. */
export async function connectionNamed(admin: AdminService, org: Organisation, idOrName: string): Promise<ConnectionWithPresence> {
  const connections = await admin.listConnections(org.id);
  const byId = connections.find((c) => c.id === idOrName);
  if (byId) return byId;
  const byName = connections.filter((c) => c.name === idOrName);
  if (byName.length === 1) return byName[0]!;
  const hint = `See them with: gp-gateway connection list --org ${org.id}`;
  if (byName.length > 1)
    throw new Error(`"${printable(org.name)}" has ${byName.length} connections named "${printable(idOrName)}"; use the id. ${hint}`);
  throw new Error(`"${printable(org.name)}" has no connection with the id or name "${printable(idOrName)}". ${hint}`);
}

/** `"Acme Ltd" (org_…)`: how commands name an organisation. */
export function describeOrganisation(org: Organisation): string {
  // Escaped here too: the line it goes into may be an error's, whose own line breaks are kept.
  return `"${printable(org.name)}" (${org.id})`;
}

/** An AdminError as the CLI prints it: the message, then each problem on a line of its own. */
export function describeAdminError(error: AdminError, footer: string[] = []): string {
  return [error.message + (error.problems.length ? ':' : ''), ...error.problems.map((p) => `  - ${p}`), ...footer].join('\n');
}

export function parseWholeNumber(value: string, what: string, bounds: { min: number; max: number }): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < bounds.min || n > bounds.max) {
    throw new Error(`${what} must be a whole number from ${bounds.min} to ${bounds.max.toLocaleString('en')}, not "${value}"`);
  }
  return n;
}
