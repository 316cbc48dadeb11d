import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { AdminService } from '../admin/adminService.ts';
import { openStore } from '../store/openStore.ts';
import { startGateway } from '../gateway.ts';
import { dataPaths, ensureDemo, loadOrCreateCursorKey } from '../dataDir.ts';

const DEMO_ORGANISATION = 'Demo organisation';

/** `gp-gateway start`: the gateway with the demo sandbox, and a new test key to try it with. */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  const paths = dataPaths(config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (ensureDemo(paths.demo, config.demoScale, (line) => process.stderr.write(`\r${line}   `))) process.stderr.write('\n');
  const log = createLogger(config.logLevel);
  const store = openStore(config.dataDir);
  const admin = new AdminService(store);
  const org = (await admin.findOrganisation(DEMO_ORGANISATION)) ?? (await admin.createOrganisation(DEMO_ORGANISATION));
  const { secret } = await admin.issueApiKey({
    orgId: org.id,
    name: `quick start ${new Date().toISOString()}`,
    mode: 'test',
    scopes: ['read', 'mcp'],
  });
  const gateway = await startGateway({
    store,
    log,
    cursorSecret: config.cursorSecret ?? loadOrCreateCursorKey(paths.cursorKey),
    port: config.port,
    host: config.host,
    requestTimeoutMs: config.requestTimeoutMs,
    sandboxDir: paths.demo,
    agentHeartbeat: { intervalMs: config.agentHeartbeatIntervalMs, timeoutMs: config.agentHeartbeatTimeoutMs },
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    agentAdmission: { maxAgentsPerConnection: config.agentMaxPerConnection, tokenCheckMs: config.agentTokenCheckMs },
    agentHandshakesPerSecond: config.agentHandshakesPerSecond,
    cluster: {
      redisUrl: config.redisUrl ?? undefined,
      natsUrl: config.natsUrl ?? undefined,
      ...(config.instanceId ? { instanceId: config.instanceId } : {}),
    },
  });
  process.stdout.write(
    `\nGP gateway listening on ${gateway.url} (data in ${config.dataDir})\n` +
      `A new test key for the demo sandbox (shown once, read and mcp scopes):\n\n${secret}\n\n` +
      `Try it:\n  curl -H "Authorization: Bearer ${secret}" "${gateway.url}/v1/customers?limit=2"\n` +
      `MCP clients: ${gateway.url}/mcp (Streamable HTTP) with the header Authorization: Bearer <the key>\n\n`,
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
        .then(() => process.exit(0));
    });
  }
}
