import { Option, type Command } from 'commander';
import { ROTATION_OVERLAP_NAMES, type RotationOverlap } from '../../../core/auth/rotationOverlap.ts';
import { AdminError, type AdminService } from '../../../core/admin/adminService.ts';
import { outdatedAgentNote } from '../../../core/agents/agentVersion.ts';
import { SANDBOX_CONNECTION_ID, type AgentDetails, type ConnectionWithPresence } from '../../../infrastructure/store/store.ts';
import { writableObjects } from '../../../core/writes/writableObjects.ts';
import { formatTable, formatTime, secretBlock } from '../output.ts';
import { connectionNamed, describeAdminError, describeOrganisation, organisationNamed, runOperatorCommand } from '../operatorAdmin.ts';

export interface NewConnectionRequest {
  org: string;
  name: string;
  defaultCompany?: string;
}

function describeAgents(c: ConnectionWithPresence): string {
  const p = c.presence;
  const agent = p.agentVersion === null ? '' : `agent ${p.agentVersion}${outdatedAgentNote(p.agentVersion)} on ${p.agentHost}`;
  const builtIn = c.id === SANDBOX_CONNECTION_ID ? 'built-in demo agent, ' : '';
  if (c.id !== SANDBOX_CONNECTION_ID && c.agentTokenHash === null && p.connectedAgents === 0) {
    return 'agent token REVOKED (issue a new one with rotate-token)';
  }
  if (p.connectedAgents > 0) {
    const count = p.connectedAgents === 1 ? '1 agent' : `${p.connectedAgents} agents`;
    const companies = p.companies.length ? `, companies ${p.companies.join(', ')}` : '';
    return `${builtIn}connected (${count}; ${agent}${companies})`;
  }
  if (p.lastSeenAt === null) return c.id === SANDBOX_CONNECTION_ID ? `${builtIn}not running (is the gateway started?)` : 'never connected';
  return `${builtIn}offline, last seen ${formatTime(p.lastSeenAt)}${agent ? ` (${agent})` : ''}`;
}

/** What an agent reported about GP: version, whether its database answers, draining. */
function describeDetails(d: AgentDetails): string {
  const gp = d.gpVersion === null ? 'GP version unknown' : d.gpVersion === 'demo' ? 'demo database' : `GP ${d.gpVersion}`;
  const database =
    d.database === 'ok'
      ? 'database ok'
      : d.database === 'unavailable'
        ? `DATABASE UNAVAILABLE${d.databaseMessage ? ` (${d.databaseMessage})` : ''}`
        : 'database not reported';
  return `${gp}, ${database}${d.draining ? ', DRAINING (shutting down)' : ''}`;
}

/** One line per agent connected now, under the connection's row; or what the last agent reported. */
function agentLines(c: ConnectionWithPresence): string[] {
  const indent = '    ';
  if (c.agents.length) {
    return c.agents.map((a) => {
      const where = a.details ? ` (${a.details.platform}, ${a.details.dialect})` : '';
      const details = a.details ? `${describeDetails(a.details)}, ` : '';
      const companies = a.companies.length ? `companies ${a.companies.join(', ')}, ` : 'no companies, ';
      return `${indent}- ${a.agentHost}: agent ${a.agentVersion}${outdatedAgentNote(a.agentVersion)}${where}, ${details}${companies}connected ${formatTime(a.connectedAt)}, last seen ${formatTime(a.lastSeenAt)}`;
    });
  }
  return c.lastAgentDetails ? [`${indent}- last report: ${describeDetails(c.lastAgentDetails)}`] : [];
}

function describeWrites(c: ConnectionWithPresence): string {
  if (c.id === SANDBOX_CONNECTION_ID) return 'none (read-only)';
  return c.writeWhitelist.length ? c.writeWhitelist.join(',') : 'none';
}

export async function createConnection(admin: AdminService, request: NewConnectionRequest): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const { connection, agentToken: token } = await admin.createConnection({
    orgId: org.id,
    name: request.name,
    defaultCompany: request.defaultCompany ?? null,
  });
  const defaultCompany = connection.defaultCompany;
  return [
    `Created connection ${connection.id} "${connection.name}" for ${describeOrganisation(org)}` +
      (defaultCompany ? `, default company ${defaultCompany}.` : ', without a default company (requests must send X-Company).'),
    ...secretBlock('Its agent token is shown this once; only its hash is kept. Give it to whoever installs the agent:', token),
    "On the customer's server, with the token above in a file (agent.token), as administrator:",
    "  gp-agent install --gateway <this gateway's URL> --token-file agent.token   (docs/operations.md: Running the agent in production)",
    `API clients of ${describeOrganisation(org)} then send: X-Connection-Id: ${connection.id}`,
  ];
}

export async function rotateAgentToken(
  admin: AdminService,
  request: { org: string; connection: string; keepOldFor?: RotationOverlap },
): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const connection = await connectionNamed(admin, org, request.connection);
  const { agentToken, oldWorksUntil } = await admin.rotateAgentToken(org.id, connection.id, request.keepOldFor ?? 'now');
  const what = oldWorksUntil
    ? [
        `"${connection.name}" (${connection.id}) has a new agent token. The old one keeps working until ${formatTime(oldWorksUntil.toISOString())}:`,
        'agents on it keep serving until then, and are disconnected then; install the new token on each before.',
      ]
    : [
        `"${connection.name}" (${connection.id}) has a new agent token. The old one opens nothing from now on, and agents still`,
        'connected with it are disconnected within a second; they stop and wait to be given the new one.',
      ];
  return [
    ...what,
    ...secretBlock('The new token is shown this once; only its hash is kept:', agentToken),
    "On each of the connection's agents, set GP_AGENT_TOKEN in its configuration file to the new token and restart it.",
  ];
}

export async function revokeAgentToken(admin: AdminService, request: { org: string; connection: string }): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const connection = await connectionNamed(admin, org, request.connection);
  await admin.revokeAgentToken(org.id, connection.id);
  return [
    `The agent token of "${connection.name}" (${connection.id}) is revoked: no agent can connect for it, and agents still`,
    'connected are disconnected within a second. Its API requests get 503 until an agent connects with a new token:',
    `  gp-gateway connection rotate-token ${connection.id} --org ${org.id}`,
  ];
}

export async function listConnections(admin: AdminService, idOrName: string): Promise<string[]> {
  const org = await organisationNamed(admin, idOrName);
  const connections = await admin.listConnections(org.id);
  const [header, ...rows] = formatTable(
    ['ID', 'NAME', 'DEFAULT COMPANY', 'WRITABLE', 'AGENT'],
    connections.map((c) => [
      c.id,
      c.name,
      c.defaultCompany ?? '-',
      describeWrites(c),
      describeAgents(c) + (c.previousAgentTokenUntil ? `; the old agent token works until ${formatTime(c.previousAgentTokenUntil)}` : ''),
    ]),
  );
  return [`Connections of ${describeOrganisation(org)}:`, header!, ...rows.flatMap((row, i) => [row, ...agentLines(connections[i]!)])];
}

export async function setDefaultCompany(
  admin: AdminService,
  request: { org: string; connection: string; company?: string; clear?: boolean },
): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const connection = await connectionNamed(admin, org, request.connection);
  if (Boolean(request.clear) === (request.company !== undefined)) throw new Error('give either a company id or --clear');
  const company = (await admin.setDefaultCompany(org.id, connection.id, request.company ?? null)).defaultCompany;
  const where = `"${connection.name}" (${connection.id})`;
  if (company === null) return [`${where} has no default company now: requests must send X-Company.`];
  const lines = [`The default company of ${where} is now ${company}: requests without X-Company go there.`];
  const reported = connection.presence.companies;
  if (reported.length && !reported.includes(company)) {
    lines.push(
      `Note: its agent reports the companies ${reported.join(', ')}; until ${company} is among them, requests without X-Company get 400.`,
    );
  }
  return lines;
}

export async function setWriteWhitelist(
  admin: AdminService,
  request: { org: string; connection: string; objects: string },
): Promise<string[]> {
  const org = await organisationNamed(admin, request.org);
  const connection = await connectionNamed(admin, org, request.connection);
  const none = request.objects.trim().toLowerCase() === 'none';
  const names = none ? [] : request.objects.split(',').filter((n) => n.trim());
  if (!names.length && !none) throw new Error('give the objects, comma-separated, or none');
  let objects: string[];
  try {
    objects = (await admin.setWriteWhitelist(org.id, connection.id, names)).writeWhitelist;
  } catch (error) {
    if (!(error instanceof AdminError) || !error.problems.length) throw error;
    throw new Error(describeAdminError(error, [`Objects that can be writable: ${writableObjects().join(', ') || 'none yet'}`]));
  }
  const where = `"${connection.name}" (${connection.id})`;
  if (!objects.length) return [`No object is writable on ${where} now.`];
  return [`Writable on ${where}: ${objects.join(', ')}. Writes to any other object are refused (403).`];
}

export function registerConnectionCommand(program: Command): void {
  const connection = program
    .command('connection')
    .description("Create connections (a customer's GP install, served by an agent) and show their agents.")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway connection create --org "Acme Ltd" --name "Head office" --default-company TWO\n' +
        '  gp-gateway connection list --org "Acme Ltd"\n' +
        '  gp-gateway connection set-default-company "Head office" NWIND --org "Acme Ltd"\n' +
        '  gp-gateway connection set-write-whitelist conn_AbC123 customers,sales-orders --org "Acme Ltd"\n' +
        '  gp-gateway connection rotate-token "Head office" --org "Acme Ltd"\n' +
        '  gp-gateway connection revoke-token conn_AbC123 --org "Acme Ltd"\n',
    );

  connection
    .command('create')
    .description('Create a connection and print its agent token, once.')
    .requiredOption('--org <org>', 'organisation id or name')
    .requiredOption('--name <name>', 'e.g. "Head office"')
    .option('--default-company <id>', 'GP company used when a request sends no X-Company, e.g. TWO')
    .addHelpText('after', '\nExample:\n  gp-gateway connection create --org "Acme Ltd" --name "Head office" --default-company TWO\n')
    .action((request: NewConnectionRequest) => runOperatorCommand((admin) => createConnection(admin, request)));

  connection
    .command('list')
    .description("List an organisation's connections: default company, writable objects, and whether their agents are connected.")
    .requiredOption('--org <org>', 'organisation id or name')
    .addHelpText(
      'after',
      '\nAGENT shows what the running gateways last wrote: "connected" with version and host, or when an agent\n' +
        'was last seen. A gateway that stopped without notice stops counting as connected after a minute.\n' +
        'Under each connection, one line per connected agent: host, platform, GP version, whether its\n' +
        "database answers (DATABASE UNAVAILABLE gives SQL Server's reason), companies, and when it was last\n" +
        "heard from. On the agent's server, `gp-agent diagnose --config <file>` says what to fix.\n",
    )
    .action(({ org }: { org: string }) => runOperatorCommand((admin) => listConnections(admin, org)));

  connection
    .command('set-default-company')
    .argument('<connection>', 'connection id or name')
    .argument('[company]', 'GP company id, e.g. TWO')
    .requiredOption('--org <org>', 'organisation id or name')
    .option('--clear', 'remove the default: every request must then send X-Company')
    .description('Set the company that requests without X-Company go to.')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway connection set-default-company "Head office" NWIND --org "Acme Ltd"\n' +
        '  gp-gateway connection set-default-company conn_AbC123 --clear --org "Acme Ltd"\n',
    )
    .action((name: string, company: string | undefined, options: { org: string; clear?: boolean }) =>
      runOperatorCommand((admin) =>
        setDefaultCompany(admin, {
          org: options.org,
          connection: name,
          ...(company === undefined ? {} : { company }),
          clear: options.clear === true,
        }),
      ),
    );

  connection
    .command('set-write-whitelist')
    .argument('<connection>', 'connection id or name')
    .argument('<objects>', 'comma-separated object names, or none')
    .requiredOption('--org <org>', 'organisation id or name')
    .description('Set which objects POST /v1/{object} may write on this connection (keys also need the write scope).')
    .addHelpText(
      'after',
      `\nObjects that can be writable: ${writableObjects().join(', ') || 'none yet'}\n` +
        '\nExamples:\n' +
        '  gp-gateway connection set-write-whitelist "Head office" customers,customer-addresses --org "Acme Ltd"\n' +
        '  gp-gateway connection set-write-whitelist conn_AbC123 none --org "Acme Ltd"\n',
    )
    .action((name: string, objects: string, options: { org: string }) =>
      runOperatorCommand((admin) => setWriteWhitelist(admin, { org: options.org, connection: name, objects })),
    );

  registerTokenCommands(connection);
}

function registerTokenCommands(connection: Command): void {
  connection
    .command('rotate-token')
    .argument('<connection>', 'connection id or name')
    .requiredOption('--org <org>', 'organisation id or name')
    .addOption(
      new Option('--keep-old-for <time>', 'how long the old token keeps working beside the new one')
        .choices(ROTATION_OVERLAP_NAMES)
        .default('now'),
    )
    .description('Give a connection a new agent token, printed once; the old one stops working at once or after --keep-old-for.')
    .addHelpText(
      'after',
      '\nUse it when a token may have leaked (at once, the default), when someone who had it leaves, or to\n' +
        're-issue a revoked token. With --keep-old-for 1h, 24h or 7d, agents on the old token keep serving\n' +
        'until then, so that the new token can be installed without an outage; after it they are disconnected.\n' +
        'Agents still on the old token are then told so, log it and stop; give them the new token and restart them.\n' +
        '\nExamples:\n  gp-gateway connection rotate-token "Head office" --org "Acme Ltd"\n' +
        '  gp-gateway connection rotate-token "Head office" --org "Acme Ltd" --keep-old-for 24h\n',
    )
    .action((name: string, options: { org: string; keepOldFor: RotationOverlap }) =>
      runOperatorCommand((admin) => rotateAgentToken(admin, { org: options.org, connection: name, keepOldFor: options.keepOldFor })),
    );

  connection
    .command('revoke-token')
    .argument('<connection>', 'connection id or name')
    .requiredOption('--org <org>', 'organisation id or name')
    .description("Revoke a connection's agent token: no agent can connect until rotate-token issues a new one.")
    .addHelpText(
      'after',
      '\nAgents connected with it are disconnected within a second, log why and stop. API requests to the\n' +
        'connection then get 503 (connection offline).\n' +
        '\nExample:\n  gp-gateway connection revoke-token conn_AbC123 --org "Acme Ltd"\n',
    )
    .action((name: string, options: { org: string }) =>
      runOperatorCommand((admin) => revokeAgentToken(admin, { org: options.org, connection: name })),
    );
}
