import { Option, type Command } from 'commander';
import { checkScopes, type AdminService } from '../../../core/admin/adminService.ts';
import type { KeyMode } from '../../../infrastructure/store/store.ts';
import { SCOPES, type ApiKey, type Scope } from '../../../infrastructure/store/store.ts';
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
  return key.revokedAt === null ? 'active' : `revoked ${formatTime(key.revokedAt)}`;
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
    .description("Create, list and revoke API keys. A key's secret is printed once, when it is created.")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway key create --org "Acme Ltd" --name "Production" --mode live --scopes read,write\n' +
        '  gp-gateway key create --org "Acme Ltd" --name "Developer laptop" --mode test\n' +
        '  gp-gateway key list --org "Acme Ltd"\n' +
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
    .command('revoke')
    .argument('<id>', 'the key id (key_…), as key list shows it')
    .description('Revoke a key for good: requests with it get 401 from now on.')
    .addHelpText('after', '\nExample:\n  gp-gateway key revoke key_AbC123\n')
    .action((id: string) => runOperatorCommand((admin) => revokeKey(admin, id)));
}
