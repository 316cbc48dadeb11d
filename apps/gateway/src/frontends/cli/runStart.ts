import fs from 'node:fs';
import { loadConfig } from '../../config.ts';
import { createLogger } from '../../logger.ts';
import { AdminService } from '../../core/admin/adminService.ts';
import { openStore } from '../../infrastructure/store/openStore.ts';
import type { Organisation } from '../../infrastructure/store/store.ts';
import { startGateway } from '../../gateway.ts';
import { startTracing } from '@gp-gateway/telemetry';
import { dataPaths, ensureDemo, loadOrCreateCursorKey } from '../../infrastructure/dataDir.ts';
import { loadWebhookSecretsKey } from '../../infrastructure/webhookSecretsKey.ts';

const DEMO_ORGANISATION = 'Demo organisation';

/** `gp-gateway start`: the gateway with the demo sandbox, and a new test key to try it with. */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  const paths = dataPaths(config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (ensureDemo(paths.demo, config.demoScale, (line) => process.stderr.write(`\r${line}   `))) process.stderr.write('\n');
  // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces).
  const tracing = startTracing('gp-gateway', config.instanceId ? { 'service.instance.id': config.instanceId } : {});
  const log = createLogger(config.logLevel, { traceIds: tracing !== null });
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log });
  const admin = new AdminService(store);
  const org = await demoOrganisation(admin);
  const { secret } = await admin.issueApiKey({
    orgId: org.id,
    name: `quick start ${new Date().toISOString()}`,
    mode: 'test',
    // write too: on the sandbox a test key can only validate writes, which is what a developer tries first.
    scopes: ['read', 'write', 'mcp'],
  });
  if (config.databaseUrl !== null && config.webhookSecretsKey === null)
    log.warn(
      "WEBHOOK_SECRETS_KEY is not set: webhook secrets are sealed with this data folder's key, which other instances and the operator CLI elsewhere do not have; set the same WEBHOOK_SECRETS_KEY on every instance",
    );
  const gateway = await startGateway({
    store,
    log,
    cursorSecret: config.cursorSecret ?? loadOrCreateCursorKey(paths.cursorKey),
    port: config.port,
    host: config.host,
    gatewayUrl: config.gatewayUrl,
    requestTimeoutMs: config.requestTimeoutMs,
    sandboxDir: paths.demo,
    ...(config.sandboxChangesIntervalMs > 0 && {
      sandboxChanges: { intervalMs: config.sandboxChangesIntervalMs, stateFile: paths.demoChangeState },
    }),
    agentHeartbeat: { intervalMs: config.agentHeartbeatIntervalMs, timeoutMs: config.agentHeartbeatTimeoutMs },
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    mcpAllowedHosts: config.mcpAllowedHosts,
    agentAdmission: { maxAgentsPerConnection: config.agentMaxPerConnection, tokenCheckMs: config.agentTokenCheckMs },
    agentHandshakesPerSecond: config.agentHandshakesPerSecond,
    tracing: tracing !== null,
    ...(config.metricsPort !== null || config.metricsToken !== null
      ? { metrics: { port: config.metricsPort ?? undefined, host: config.metricsHost, token: config.metricsToken ?? undefined } }
      : {}),
    eventsRetentionDays: config.eventsRetentionDays,
    ...(config.releaseDir ? { releaseDir: config.releaseDir } : {}),
    webhooks: {
      secretsKey: loadWebhookSecretsKey(config.webhookSecretsKey, paths.webhookSecretsKey),
      allowPrivateTargets: config.webhooksAllowPrivateTargets,
      leaseMs: config.webhooksLeaseSeconds * 1000,
    },
    cluster: {
      redisUrl: config.redisUrl ?? undefined,
      natsUrl: config.natsUrl ?? undefined,
      ...(config.instanceId ? { instanceId: config.instanceId } : {}),
    },
  });
  process.stdout.write(
    `\nGP gateway listening on ${gateway.url} (data in ${config.dataDir})\n` +
      (config.gatewayUrl ? `Public address (GATEWAY_URL), for the dashboard's links: ${config.gatewayUrl}\n` : '') +
      `A new test key for the demo sandbox (shown once; read, write and mcp scopes: on the sandbox, writes can only be validated):\n\n${secret}\n\n` +
      `Try it:\n  curl -H "Authorization: Bearer ${secret}" "${gateway.url}/v1/customers?limit=2"\n` +
      `Writes, validate-only on the sandbox: POST ${gateway.url}/v1/customers?validateOnly=true with a JSON body (README: Writes)\n` +
      `MCP clients: ${gateway.url}/mcp (Streamable HTTP) with the header Authorization: Bearer <the key>, or signing in by OAuth (Claude, ChatGPT: the URL alone)\n` +
      (config.sandboxChangesIntervalMs > 0
        ? `Change feed: GET ${gateway.url}/v1/events; change the demo as GP would with: pnpm demo churn --dir ${paths.demo}\n`
        : '') +
      (gateway.metricsUrl ? `Prometheus metrics: ${gateway.metricsUrl}\n` : '') +
      '\n',
  );
  // A deploy's SIGTERM (or Ctrl+C) drains: requests in flight finish, agents are sent to another
  // instance (1012), then the process exits. A second signal stops it at once.
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        log.warn({ signal }, 'second signal: stopping at once');
        process.exit(1);
      }
      stopping = true;
      log.info({ signal, graceMs: config.shutdownGraceMs, instance: gateway.instanceId }, 'stopping');
      void gateway
        .drain(config.shutdownGraceMs)
        .then(() => store.close())
        .then(() => tracing?.shutdown())
        .then(() => process.exit(0));
    });
  }
}

/**
 * The demo organisation, made by the first start. Instances sharing a PostgreSQL store may start
 * together: when another made it between our look and our insert (its name is unique), use theirs.
 */
async function demoOrganisation(admin: AdminService): Promise<Organisation> {
  const found = await admin.findOrganisation(DEMO_ORGANISATION);
  if (found) return found;
  try {
    return await admin.createOrganisation(DEMO_ORGANISATION);
  } catch (error) {
    const madeMeanwhile = await admin.findOrganisation(DEMO_ORGANISATION);
    if (madeMeanwhile) return madeMeanwhile;
    throw error;
  }
}
