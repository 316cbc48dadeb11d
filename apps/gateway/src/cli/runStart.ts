import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { SqliteStore } from '../store/sqliteStore.ts';
import { startGateway } from '../gateway.ts';
import { dataPaths, ensureDemo, loadOrCreateCursorKey } from '../dataDir.ts';
import { keyPrefix, newApiKeySecret, sha256Hex } from '../auth/secrets.ts';

const DEMO_ORGANISATION = 'Demo organisation';

/** `gp-gateway start`: the gateway with the demo sandbox, and a new test key to try it with. */
export async function runStart(): Promise<void> {
  const config = loadConfig();
  const paths = dataPaths(config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (ensureDemo(paths.demo, config.demoScale, (line) => process.stderr.write(`\r${line}   `))) process.stderr.write('\n');
  const log = createLogger(config.logLevel);
  const store = new SqliteStore(paths.store);
  const org = (await store.findOrganisationByName(DEMO_ORGANISATION)) ?? (await store.createOrganisation(DEMO_ORGANISATION));
  const secret = newApiKeySecret('test');
  await store.createApiKey({
    orgId: org.id,
    name: `quick start ${new Date().toISOString()}`,
    prefix: keyPrefix(secret),
    mode: 'test',
    scopes: ['read', 'mcp'],
    secretHash: sha256Hex(secret),
  });
  const gateway = await startGateway({
    store,
    log,
    cursorSecret: loadOrCreateCursorKey(paths.cursorKey),
    port: config.port,
    host: config.host,
    requestTimeoutMs: config.requestTimeoutMs,
    sandboxDir: paths.demo,
    agentHeartbeat: { intervalMs: config.agentHeartbeatIntervalMs, timeoutMs: config.agentHeartbeatTimeoutMs },
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
