import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { AdminService } from '../admin/adminService.ts';
import { openStore } from '../store/openStore.ts';
import type { Organisation } from '../store/store.ts';
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
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log });
  const admin = new AdminService(store);
  const org = await demoOrganisation(admin);
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
  });
  process.stdout.write(
    `\nGP gateway listening on ${gateway.url} (data in ${config.dataDir})\n` +
      `A new test key for the demo sandbox (shown once, read and mcp scopes):\n\n${secret}\n\n` +
      `Try it:\n  curl -H "Authorization: Bearer ${secret}" "${gateway.url}/v1/customers?limit=2"\n` +
      `MCP clients: ${gateway.url}/mcp (Streamable HTTP) with the header Authorization: Bearer <the key>\n\n`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info({ signal }, 'stopping');
      void gateway.close().then(() => store.close());
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
