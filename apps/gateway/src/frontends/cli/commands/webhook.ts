import type { Command } from 'commander';
import type { AdminService } from '../../../core/admin/adminService.ts';
import { openLocalAdmin } from '../../../core/admin/localAdmin.ts';
import { SecretBox } from '../../../core/webhooks/secretBox.ts';
import { WebhookEndpoints, type EndpointView } from '../../../core/webhooks/webhookEndpoints.ts';
import { dataDirFrom, databaseUrlFrom, webhookSettingsFrom } from '../../../config.ts';
import { dataPaths } from '../../../infrastructure/dataPaths.ts';
import type { Store, WebhookDeliveryStatus } from '../../../infrastructure/store/store.ts';
import { loadWebhookSecretsKey } from '../../../infrastructure/webhookSecretsKey.ts';
import { formatTable, formatTime, secretBlock } from '../output.ts';
import { describeOrganisation, organisationNamed, parseWholeNumber } from '../operatorAdmin.ts';

/** What the webhook commands work with: the admin service (organisations), the endpoints service and the store. */
export interface WebhookTools {
  admin: AdminService;
  webhooks: WebhookEndpoints;
  store: Store;
}

export interface NewWebhookRequest {
  org: string;
  url: string;
  types?: string;
  connections?: string;
  description?: string;
}

const list = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);

function describeState(e: EndpointView): string {
  if (e.disabledAt !== null) return `DISABLED ${formatTime(e.disabledAt)}: ${e.disabledReason ?? ''}`;
  if (e.failingSince !== null) return `failing since ${formatTime(e.failingSince)}`;
  return 'enabled';
}

export async function createWebhook(tools: WebhookTools, request: NewWebhookRequest): Promise<string[]> {
  const org = await organisationNamed(tools.admin, request.org);
  const { endpoint, secret } = await tools.webhooks.create(org.id, {
    url: request.url,
    eventTypes: list(request.types) ?? [],
    connectionIds: list(request.connections) ?? null,
    description: request.description ?? '',
  });
  return [
    `Created webhook endpoint ${endpoint.id} for ${describeOrganisation(org)}: ${endpoint.url}`,
    `Events: ${endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'every type'}; connections: ${endpoint.connectionIds?.join(', ') ?? 'all'}.`,
    ...secretBlock('Its signing secret is shown this once. Give it to the receiver, which verifies each delivery with it:', secret),
    `Send a test event with: gp-gateway webhook test ${endpoint.id} --org ${org.id}`,
  ];
}

export async function listWebhooks(tools: WebhookTools, orgName: string): Promise<string[]> {
  const org = await organisationNamed(tools.admin, orgName);
  const endpoints = await tools.webhooks.list(org.id);
  if (!endpoints.length) return [`${describeOrganisation(org)} has no webhook endpoints.`];
  return formatTable(
    ['ID', 'URL', 'EVENTS', 'STATE', 'CREATED'],
    endpoints.map((e) => [
      e.id,
      e.url,
      e.eventTypes.length ? e.eventTypes.join(',') : '*',
      describeState(e) + (e.rotating ? ' (old secret signs too until ' + formatTime(e.previousSecretExpiresAt) + ')' : ''),
      formatTime(e.createdAt),
    ]),
  );
}

export async function rotateWebhookSecret(tools: WebhookTools, request: { org: string; endpoint: string }): Promise<string[]> {
  const org = await organisationNamed(tools.admin, request.org);
  const { endpoint, secret } = await tools.webhooks.rotate(org.id, request.endpoint);
  return [
    `New signing secret for ${endpoint.id} (${endpoint.url}).`,
    ...secretBlock('It is shown this once:', secret),
    `Until ${formatTime(endpoint.previousSecretExpiresAt)} every delivery is signed with both the old and the new secret; give the receiver the new one before then.`,
  ];
}

export async function setWebhookEnabled(
  tools: WebhookTools,
  request: { org: string; endpoint: string },
  enabled: boolean,
): Promise<string[]> {
  const org = await organisationNamed(tools.admin, request.org);
  const endpoint = enabled ? await tools.webhooks.enable(org.id, request.endpoint) : await tools.webhooks.disable(org.id, request.endpoint);
  return enabled
    ? [`Enabled ${endpoint.id}: its waiting deliveries are sent now.`]
    : [`Disabled ${endpoint.id}: nothing is sent to it, and new events are not queued for it, until it is enabled.`];
}

export async function deleteWebhook(tools: WebhookTools, request: { org: string; endpoint: string }): Promise<string[]> {
  const org = await organisationNamed(tools.admin, request.org);
  await tools.webhooks.delete(org.id, request.endpoint);
  return [`Deleted ${request.endpoint} with its deliveries.`];
}

export async function sendTestEvent(tools: WebhookTools, request: { org: string; endpoint: string }): Promise<string[]> {
  const org = await organisationNamed(tools.admin, request.org);
  const eventId = await tools.webhooks.sendTest(org.id, request.endpoint);
  return [
    `Queued test event ${eventId} (webhook.test) for ${request.endpoint}; a running gateway sends it within a second.`,
    `See it with: gp-gateway webhook deliveries --org ${org.id} --endpoint ${request.endpoint}`,
  ];
}

export async function listDeliveries(
  tools: WebhookTools,
  request: { org: string; endpoint?: string; status?: string; limit?: string },
): Promise<string[]> {
  const org = await organisationNamed(tools.admin, request.org);
  const statuses = ['pending', 'succeeded', 'failed'];
  if (request.status !== undefined && !statuses.includes(request.status))
    throw new Error(`--status must be one of ${statuses.join(', ')}, not "${request.status}"`);
  const limit = request.limit === undefined ? 20 : parseWholeNumber(request.limit, '--limit', { min: 1, max: 1000 });
  const page = await tools.store.listWebhookDeliveries({
    orgId: org.id,
    endpointId: request.endpoint,
    status: request.status as WebhookDeliveryStatus | undefined,
    before: null,
    limit,
  });
  if (!page.deliveries.length) return ['No deliveries.'];
  const rows: string[][] = [];
  for (const d of page.deliveries) {
    const last = (await tools.store.listWebhookAttempts(org.id, d.id)).at(-1);
    const lastText = last ? `${last.httpStatus ?? '-'} ${last.error ?? 'ok'} (${Math.round(last.latencyMs)} ms)` : '';
    const next = d.status === 'pending' ? `next ${formatTime(d.nextAttemptAt)}` : formatTime(d.settledAt);
    rows.push([d.id, d.endpointId, d.eventType, d.eventId, d.status, String(d.attempts), next, lastText]);
  }
  return formatTable(['ID', 'ENDPOINT', 'EVENT', 'WEBHOOK-ID', 'STATUS', 'ATTEMPTS', 'WHEN', 'LAST ATTEMPT'], rows);
}

/** Runs a webhook command on the store a running gateway uses, with the key it seals secrets with. */
async function runWebhookCommand(action: (tools: WebhookTools) => Promise<string[]>): Promise<void> {
  const dataDir = dataDirFrom(process.env);
  const settings = webhookSettingsFrom(process.env);
  const { admin, store, close } = await openLocalAdmin(dataDir, { databaseUrl: databaseUrlFrom(process.env) });
  try {
    const webhooks = new WebhookEndpoints({
      store,
      box: new SecretBox(loadWebhookSecretsKey(settings.secretsKey, dataPaths(dataDir).webhookSecretsKey)),
      allowPrivateTargets: settings.allowPrivateTargets,
    });
    process.stdout.write(`${(await action({ admin, webhooks, store })).join('\n')}\n`);
  } finally {
    await close();
  }
}

export function registerWebhookCommand(program: Command): void {
  const webhook = program
    .command('webhook')
    .description("Manage an organisation's webhook endpoints (the change feed pushed to integrators) and see their deliveries.")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-gateway webhook create --org "Acme Ltd" --url https://erp.example.com/hooks/gp --types customer.*,ar-invoice.*\n' +
        '  gp-gateway webhook list --org "Acme Ltd"\n' +
        '  gp-gateway webhook test we_AbC123 --org "Acme Ltd"\n' +
        '  gp-gateway webhook deliveries --org "Acme Ltd" --status failed\n' +
        '  gp-gateway webhook rotate-secret we_AbC123 --org "Acme Ltd"\n' +
        '  gp-gateway webhook disable we_AbC123 --org "Acme Ltd"\n' +
        '\nWEBHOOK_SECRETS_KEY must be what the gateway has when it is set there (docs/operations.md#webhooks).\n',
    );
  webhook
    .command('create')
    .description('Create an endpoint and print its signing secret, once.')
    .requiredOption('--org <org>', 'organisation id or name')
    .requiredOption('--url <url>', 'https URL the deliveries are POSTed to')
    .option('--types <patterns>', 'event types or patterns, comma-separated, e.g. customer.*,vendor.created (default: every type)')
    .option('--connections <ids>', 'only events of these connections, comma-separated (default: all)')
    .option('--description <text>', 'what it is for')
    .action((request: NewWebhookRequest) => runWebhookCommand((tools) => createWebhook(tools, request)));
  webhook
    .command('list')
    .description("List the organisation's endpoints and whether they are enabled, failing or disabled.")
    .requiredOption('--org <org>', 'organisation id or name')
    .action(({ org }: { org: string }) => runWebhookCommand((tools) => listWebhooks(tools, org)));
  const byId = (
    name: string,
    description: string,
    action: (tools: WebhookTools, request: { org: string; endpoint: string }) => Promise<string[]>,
  ) =>
    webhook
      .command(name)
      .description(description)
      .argument('<endpoint>', 'endpoint id, we_…')
      .requiredOption('--org <org>', 'organisation id or name')
      .action((endpoint: string, { org }: { org: string }) => runWebhookCommand((tools) => action(tools, { org, endpoint })));
  byId('rotate-secret', 'A new signing secret, printed once; the old one signs too for 24 hours.', rotateWebhookSecret);
  byId('disable', 'Stop sending to the endpoint (events are not queued for it meanwhile).', (t, r) => setWebhookEnabled(t, r, false));
  byId('enable', 'Send to the endpoint again, and the deliveries that waited.', (t, r) => setWebhookEnabled(t, r, true));
  byId('delete', 'Delete the endpoint and its deliveries.', deleteWebhook);
  byId('test', 'Queue a webhook.test event to the endpoint.', sendTestEvent);
  webhook
    .command('deliveries')
    .description('List deliveries, newest first, with their last attempt.')
    .requiredOption('--org <org>', 'organisation id or name')
    .option('--endpoint <id>', 'only to this endpoint')
    .option('--status <status>', 'pending, succeeded or failed')
    .option('--limit <n>', 'how many (default 20)')
    .action((request: { org: string; endpoint?: string; status?: string; limit?: string }) =>
      runWebhookCommand((tools) => listDeliveries(tools, request)),
    );
}
