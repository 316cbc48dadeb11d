import type { Command } from 'commander';
import { DEFAULT_LIMITS, LIMIT_BOUNDS, effectiveLimits } from '../../../core/limits/limits.ts';
import type { AdminService } from '../../../core/admin/adminService.ts';
import type { LimitOverrides, Organisation } from '../../../infrastructure/store/store.ts';
import { formatTable, formatTime } from '../output.ts';
import { describeOrganisation, organisationNamed, parseWholeNumber, runOperatorCommand } from '../operatorAdmin.ts';

/** What `org set-limits` takes; every field optional, `reset` first restores all defaults. */
export interface LimitChanges {
  requests?: string;
  window?: string;
  inFlight?: string;
  reset?: boolean;
}

/** How long a running gateway may keep using an organisation's previous limits (its cache). */
const LIMITS_TAKE_EFFECT = 'Running gateways apply this within 5 seconds.';

/** Names of the limits an operator can set, as the options that set them. */
const OPTION_OF: Record<keyof LimitOverrides, string> = {
  requestsPerWindow: '--requests',
  windowSeconds: '--window',
  maxInFlightPerConnection: '--in-flight',
};

function describeLimits(org: Organisation): string {
  const limits = effectiveLimits(org.limits, DEFAULT_LIMITS);
  const own = (Object.keys(OPTION_OF) as (keyof LimitOverrides)[]).filter((f) => org.limits[f] !== null).map((f) => OPTION_OF[f]);
  return (
    `${limits.requestsPerWindow} requests per ${limits.windowSeconds} s per key, ${limits.maxInFlightPerConnection} in flight per connection` +
    (own.length ? ` (set here: ${own.join(', ')}; the rest are defaults)` : ' (the defaults)')
  );
}

export async function createOrganisation(admin: AdminService, name: string): Promise<string[]> {
  const org = await admin.createOrganisation(name);
  return [
    `Created organisation ${describeOrganisation(org)}.`,
    'It has a sandbox connection (id: sandbox) over the demo data, which its test keys use.',
    '',
    'Next, create a key:',
    `  gp-gateway key create --org ${org.id} --name "Production" --mode live --scopes read`,
  ];
}

export async function listOrganisations(admin: AdminService): Promise<string[]> {
  const orgs = await admin.listOrganisations();
  if (!orgs.length) return ['There are no organisations yet. Create one with: gp-gateway org create "<name>"'];
  return formatTable(
    ['ID', 'NAME', 'CREATED', 'LIMITS'],
    orgs.map((org) => [org.id, org.name, formatTime(org.createdAt), describeLimits(org)]),
  );
}

export async function setOrganisationLimits(admin: AdminService, idOrName: string, changes: LimitChanges): Promise<string[]> {
  const org = await organisationNamed(admin, idOrName);
  const limits: Partial<LimitOverrides> = changes.reset
    ? { requestsPerWindow: null, windowSeconds: null, maxInFlightPerConnection: null }
    : {};
  if (changes.requests !== undefined)
    limits.requestsPerWindow = parseWholeNumber(changes.requests, '--requests', LIMIT_BOUNDS.requestsPerWindow);
  if (changes.window !== undefined) limits.windowSeconds = parseWholeNumber(changes.window, '--window', LIMIT_BOUNDS.windowSeconds);
  if (changes.inFlight !== undefined) {
    limits.maxInFlightPerConnection = parseWholeNumber(changes.inFlight, '--in-flight', LIMIT_BOUNDS.maxInFlightPerConnection);
  }
  if (!Object.keys(limits).length) throw new Error('say what to change: --requests, --window, --in-flight or --reset (see --help)');
  const updated = await admin.setLimits(org.id, limits);
  return [`Limits of ${describeOrganisation(updated)}: ${describeLimits(updated)}.`, LIMITS_TAKE_EFFECT];
}

export function registerOrgCommand(program: Command): void {
  const org = program
    .command('org')
    .description('Create and list organisations, and set their limits.')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway org create "Acme Ltd"\n' +
        '  gp-gateway org list\n' +
        '  gp-gateway org set-limits "Acme Ltd" --requests 300 --window 10 --in-flight 4\n',
    );

  org
    .command('create')
    .argument('<name>', "the organisation's name, unique on this gateway")
    .description('Create an organisation (with its sandbox connection for test keys).')
    .addHelpText('after', '\nExample:\n  gp-gateway org create "Acme Ltd"\n')
    .action((name: string) => runOperatorCommand((admin) => createOrganisation(admin, name), { create: true }));

  org
    .command('list')
    .description('List organisations with their ids and limits.')
    .action(() => runOperatorCommand((admin) => listOrganisations(admin)));

  org
    .command('set-limits')
    .argument('<org>', 'organisation id or name')
    .option('--requests <n>', 'requests per window per API key (the burst a key may make)')
    .option('--window <seconds>', "seconds in which a key's full quota comes back")
    .option('--in-flight <n>', "requests in flight at once per connection; protects the customer's SQL Server")
    .option('--reset', 'go back to the defaults (then apply any other option given)')
    .description(
      `Set an organisation's rate limits. Defaults: ${DEFAULT_LIMITS.requestsPerWindow} requests per ` +
        `${DEFAULT_LIMITS.windowSeconds} s per key, ${DEFAULT_LIMITS.maxInFlightPerConnection} in flight per connection.`,
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway org set-limits "Acme Ltd" --requests 300 --window 10\n' +
        '  gp-gateway org set-limits org_AbC123 --in-flight 2      # a small SQL Server\n' +
        '  gp-gateway org set-limits "Acme Ltd" --reset            # back to the defaults\n',
    )
    .action((idOrName: string, changes: LimitChanges) => runOperatorCommand((admin) => setOrganisationLimits(admin, idOrName, changes)));
}
