import { Option, type Command } from 'commander';
import type { AdminService } from '../../../core/admin/adminService.ts';
import { USER_ROLES } from '../../../infrastructure/store/store.ts';
import { publicBaseUrlFrom } from '../../../config.ts';
import { formatTable, formatTime, secretBlock } from '../output.ts';
import { describeOrganisation, organisationNamed, runOperatorCommand } from '../operatorAdmin.ts';

/** Where people reach the dashboard, for the links the commands print. */
function gatewayUrlOption(): Option {
  return new Option(
    '--gateway-url <url>',
    "the address people open the dashboard at, as the gateway's GATEWAY_URL (default: this machine, on PORT or 3000)",
  ).env('GATEWAY_URL');
}

/**
 * Where the dashboard is (config.ts publicBaseUrlFrom: --gateway-url, GATEWAY_URL, else this machine
 * on PORT), checked as the gateway checks it at start, and, when nobody said, a line saying which
 * address the link names and how to give the real one: `localhost` opens only on the gateway's own machine.
 */
function dashboardAddress(gatewayUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): { base: string; notes: string[] } {
  const given = gatewayUrl?.trim() || env.GATEWAY_URL?.trim();
  const base = publicBaseUrlFrom(env, given);
  const notes = given
    ? []
    : [
        `The link names ${base}, which opens only on this machine. If they sign in from elsewhere, make the link again with the gateway's public address: --gateway-url https://gateway.example.com (or set GATEWAY_URL).`,
      ];
  return { base, notes };
}

const signInUrl = (base: string, token: string) => `${base}/dashboard/welcome?token=${token}`;

export async function createUser(
  admin: AdminService,
  request: { org: string; email: string; role: string; gatewayUrl?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  // Checked before the user exists, so a wrong address leaves nothing half-made.
  const address = dashboardAddress(request.gatewayUrl, env);
  const org = await organisationNamed(admin, request.org);
  const { user, signInToken, expiresAt } = await admin.inviteUser({ orgId: org.id, email: request.email, role: request.role });
  return [
    `Created ${user.role} ${user.email} for ${describeOrganisation(org)}.`,
    ...secretBlock(
      `Give them this sign-in link; it works once, until ${formatTime(expiresAt.toISOString())}, and lets them choose a password:`,
      signInUrl(address.base, signInToken),
    ),
    ...address.notes,
  ];
}

async function listUsers(admin: AdminService, idOrName: string): Promise<string[]> {
  const org = await organisationNamed(admin, idOrName);
  const users = await admin.listUsers(org.id);
  if (!users.length)
    return [
      `${describeOrganisation(org)} has no dashboard users yet. Create the first admin with: gp-gateway user create --org ${org.id} --email <email> --role admin`,
    ];
  return [
    `Dashboard users of ${describeOrganisation(org)}:`,
    ...formatTable(
      ['EMAIL', 'ROLE', 'PASSWORD', 'CREATED', 'LAST SIGN-IN'],
      users.map((u) => [u.email, u.role, u.hasPassword ? 'set' : 'not yet', formatTime(u.createdAt), formatTime(u.lastSignInAt)]),
    ),
  ];
}

export async function newSignInLink(
  admin: AdminService,
  request: { org: string; email: string; gatewayUrl?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const address = dashboardAddress(request.gatewayUrl, env);
  const org = await organisationNamed(admin, request.org);
  const user = (await admin.listUsers(org.id)).find((u) => u.email === request.email.trim().toLowerCase());
  if (!user)
    throw new Error(
      `${describeOrganisation(org)} has no dashboard user ${request.email}. See them with: gp-gateway user list --org ${org.id}`,
    );
  const { signInToken, expiresAt } = await admin.newSignInLink(org.id, user.id);
  return [
    ...secretBlock(
      `A new sign-in link for ${user.email}; it works once, until ${formatTime(expiresAt.toISOString())}, and sets a new password:`,
      signInUrl(address.base, signInToken),
    ),
    ...address.notes,
  ];
}

export function registerUserCommand(program: Command): void {
  const user = program
    .command('user')
    .description('Dashboard users: create the first admin of an organisation, list users, make a new sign-in link.')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway user create --org "Acme Ltd" --email ops@acme.example --role admin --gateway-url https://gateway.example.com\n' +
        '  gp-gateway user list --org "Acme Ltd"\n' +
        '  gp-gateway user link ops@acme.example --org "Acme Ltd"\n',
    );

  user
    .command('create')
    .description(
      'Create a dashboard user and print their one-time sign-in link (valid 72 hours). Later users are best invited from the dashboard.',
    )
    .requiredOption('--org <org>', 'organisation id or name')
    .requiredOption('--email <email>', 'the email they sign in with')
    .addOption(
      new Option('--role <role>', 'admin: manages keys, connections and users; viewer: looks only')
        .choices([...USER_ROLES])
        .default('admin'),
    )
    .addOption(gatewayUrlOption())
    .addHelpText('after', '\nExample:\n  gp-gateway user create --org "Acme Ltd" --email ops@acme.example --role admin\n')
    .action((request: { org: string; email: string; role: string; gatewayUrl?: string }) =>
      runOperatorCommand((admin) => createUser(admin, request)),
    );

  user
    .command('list')
    .description("List an organisation's dashboard users.")
    .requiredOption('--org <org>', 'organisation id or name')
    .addHelpText('after', '\nExample:\n  gp-gateway user list --org "Acme Ltd"\n')
    .action(({ org }: { org: string }) => runOperatorCommand((admin) => listUsers(admin, org)));

  user
    .command('link')
    .argument('<email>', "the user's email")
    .requiredOption('--org <org>', 'organisation id or name')
    .addOption(gatewayUrlOption())
    .description('Make a new one-time sign-in link for a user who lost theirs or their password.')
    .addHelpText('after', '\nExample:\n  gp-gateway user link ops@acme.example --org "Acme Ltd"\n')
    .action((email: string, options: { org: string; gatewayUrl?: string }) =>
      runOperatorCommand((admin) => newSignInLink(admin, { org: options.org, email, gatewayUrl: options.gatewayUrl })),
    );
}
