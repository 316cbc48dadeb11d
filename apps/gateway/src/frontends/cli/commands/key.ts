import { Option, type Command } from 'commander';
import { checkScopes, type AdminService } from '../../../core/admin/adminService.ts';
import type { KeyMode } from '../../../infrastructure/store/store.ts';
import { SCOPES, type ApiKey, type Scope } from '../../../infrastructure/store/store.ts';
import { ROTATION_OVERLAP_NAMES, type RotationOverlap } from '../../../core/auth/rotationOverlap.ts';
import { formatTable, formatTime, secretBlock } from '../output.ts';
import { describeOrganisation, organisationNamed, runOperatorCommand } from '../operatorAdmin.ts';

export interface NewKeyRequest {
  org: string;
  name: string;
  mode: KeyMode;
  /** Comma-separated, e.g. `read,write`. */
  scopes: string;
}

/** `read, WRITE` → ['read', 'write']: the scopes of --scopes, checked and in a fixed order. */
export function parseScopes(text: string): Scope[] {
  return checkScopes(text.split(','));
}

export async function createKey(admin: AdminService, request: NewKeyRequest): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const { key, secret } = await admin.issueApiKey({
    orgId: org.id,
    name: request.name,
    mode: request.mode,
    scopes: parseScopes(request.scopes),
  });
  const scopes = key.scopes;
  const reach = key.mode === 'test' ? 'the demo sandbox only' : "the organisation's live connections";
  return [
    `Created ${key.mode} key ${key.id} "${key.name}" for ${describeOrganisation(org)}, scopes: ${scopes.join(', ')}; it reaches ${reach}.`,
    ...secretBlock('The secret is shown this once; only its hash is kept, so copy it now:', secret),
  ];
}

function status(key: ApiKey): string {
  if (key.revokedAt !== null) return `revoked ${formatTime(key.revokedAt)}`;
  const overlap = key.previousSecretUntil !== null && Date.parse(key.previousSecretUntil) > Date.now();
  return overlap ? `active (old secret until ${formatTime(key.previousSecretUntil)})` : 'active';
}

/** Gives a key a new secret, printed once; the old one works on for `keepOldFor` (at once by default). */
export async function rotateKey(
  admin: AdminService,
  request: { org: string; id: string; keepOldFor?: RotationOverlap },
): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const rotated = await admin.rotateApiKey(org.id, request.id, { liveAllowed: true, keepOldFor: request.keepOldFor ?? 'now' });
  if (!rotated)
    throw new Error(
      `${describeOrganisation(org)} has no active key with the id "${request.id}". List its keys with: gp-gateway key list --org ${org.id}`,
    );
  const { key, oldWorksUntil } = rotated;
  return [
    oldWorksUntil
      ? `Key ${key.id} "${key.name}" has a new secret. The old one keeps working until ${formatTime(oldWorksUntil.toISOString())}, then gets 401.`
      : `Key ${key.id} "${key.name}" has a new secret. The old one gets 401 from now on.`,
    ...secretBlock('The new secret is shown this once; only its hash is kept, so copy it now:', rotated.secret),
  ];
}

export async function listKeys(admin: AdminService, idOrName: string): Promise<string[]> {
  const org = await organisationNamed(admin, idOrName);
  const keys = await admin.listApiKeys(org.id);
  if (!keys.length)
    return [
      `${describeOrganisation(org)} has no keys yet. Create one with: gp-gateway key create --org ${org.id} --name <name> --mode live`,
    ];
  return [
    `Keys of ${describeOrganisation(org)} (secrets are never shown again; "last used" may lag by up to a minute):`,
    ...formatTable(
      ['ID', 'NAME', 'MODE', 'SCOPES', 'PREFIX', 'CREATED', 'LAST USED', 'STATUS'],
      keys.map((k) => [k.id, k.name, k.mode, k.scopes.join(','), k.prefix, formatTime(k.createdAt), formatTime(k.lastUsedAt), status(k)]),
    ),
  ];
}

export async function revokeKey(admin: AdminService, id: string): Promise<string[]> {
  const revoked = await admin.revokeApiKey(id);
  if (!revoked) throw new Error(`there is no key with the id "${id}". List an organisation's keys with: gp-gateway key list --org <org>`);
  const { key } = revoked;
  if (!revoked.revokedNow) return [`Key ${key.id} "${key.name}" was already revoked on ${formatTime(key.revokedAt)}; nothing changed.`];
  const org = await admin.findOrganisation(key.orgId);
  return [
    `Revoked ${key.mode} key ${key.id} "${key.name}" (${key.prefix}…) of ${org ? describeOrganisation(org) : key.orgId}.`,
    'Requests with it are refused (401) from now on; this cannot be undone.',
  ];
}

export function registerKeyCommand(program: Command): void {
  const key = program
    .command('key')
    .description("Create, list, rotate and revoke API keys. A key's secret is printed once, when it is created or rotated.")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway key create --org "Acme Ltd" --name "Production" --mode live --scopes read,write\n' +
        '  gp-gateway key create --org "Acme Ltd" --name "Developer laptop" --mode test\n' +
        '  gp-gateway key list --org "Acme Ltd"\n' +
        '  gp-gateway key rotate key_AbC123 --org "Acme Ltd" --keep-old-for 24h\n' +
        '  gp-gateway key revoke key_AbC123\n',
    );

  key
    .command('create')
    .description('Create a key and print its secret, once.')
    .requiredOption('--org <org>', 'organisation id or name')
    .requiredOption('--name <name>', 'what the key is for, e.g. "Production" or "Power BI"')
    .addOption(
      new Option('--mode <mode>', "live: the organisation's connections; test: the demo sandbox only")
        .choices(['live', 'test'])
        .makeOptionMandatory(),
    )
    .option(
      '--scopes <scopes>',
      `comma-separated: ${SCOPES.join(', ')} (read: GET; write: writes and key rotation; mcp: POST /mcp)`,
      'read',
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway key create --org "Acme Ltd" --name "Production" --mode live --scopes read,write\n' +
        '  gp-gateway key create --org org_AbC123 --name "Claude" --mode live --scopes read,mcp\n',
    )
    .action((request: NewKeyRequest) => runOperatorCommand((admin) => createKey(admin, request)));

  key
    .command('list')
    .description("List an organisation's keys (without secrets).")
    .requiredOption('--org <org>', 'organisation id or name')
    .action(({ org }: { org: string }) => runOperatorCommand((admin) => listKeys(admin, org)));

  key
    .command('rotate')
    .argument('<id>', 'the key id (key_…), as key list shows it')
    .requiredOption('--org <org>', 'organisation id or name')
    .addOption(
      new Option('--keep-old-for <time>', 'how long the old secret keeps working beside the new one')
        .choices(ROTATION_OVERLAP_NAMES)
        .default('now'),
    )
    .description('Give a key a new secret, printed once; the old one gets 401 at once or after --keep-old-for.')
    .addHelpText(
      'after',
      '\nAt once (the default) when the secret may have leaked; 1h, 24h or 7d to deploy the new secret without an outage.\n' +
        '\nExample:\n  gp-gateway key rotate key_AbC123 --org "Acme Ltd" --keep-old-for 24h\n',
    )
    .action((id: string, options: { org: string; keepOldFor: RotationOverlap }) =>
      runOperatorCommand((admin) => rotateKey(admin, { org: options.org, id, keepOldFor: options.keepOldFor })),
    );

  key
    .command('revoke')
    .argument('<id>', 'the key id (key_…), as key list shows it')
    .description('Revoke a key for good: requests with it get 401 from now on.')
    .addHelpText('after', '\nExample:\n  gp-gateway key revoke key_AbC123\n')
    .action((id: string) => runOperatorCommand((admin) => revokeKey(admin, id)));
}
