import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { findPostgresBinaries, openLocalAdmin, sha256Hex, startPostgresServer, type PostgresServer } from '@gp-gateway/gateway';
import { runGatewayCli, startGatewayProcess, type Started } from './support/processes.ts';

/**
 * Two gateway processes on one PostgreSQL store (DATABASE_URL), as D14 runs them, on a throwaway
 * server this file starts from Debian's `postgresql` package: both start at once on the empty
 * database, `start` makes the demo organisation and a key through the admin service, each
 * instance serves the sandbox with the other's key, and a key revoked by the operator CLI in a third
 * process is refused by both on their next request. Skipped, saying so, without the package.
 */
const binaries = findPostgresBinaries();
const missing = 'missing' in binaries ? binaries.missing : null;
if (missing) console.warn(`\n*** SKIPPED: the gateway on PostgreSQL (e2e): ${missing}. ***\n`);

describe('the gateway on PostgreSQL', { skip: missing ?? false }, () => {
  let server: PostgresServer;
  let dataDir: string;
  let databaseUrl: string;
  const gateways: (Started & { url: string; testKey: string })[] = [];

  before(async () => {
    server = await startPostgresServer();
    databaseUrl = await server.createDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-pg-'));
    // Both at once, as a deployment starts its instances: on the empty database one migrates while
    // the other waits, and both make sure the demo organisation exists. The demo they serve from
    // the data folder is made first, as the first `start` would.
    generateDemo({ dir: path.join(dataDir, 'demo'), scale: 1 });
    gateways.push(...(await Promise.all([0, 1].map(() => startGatewayProcess(dataDir, { DATABASE_URL: databaseUrl })))));
  });
  after(async () => {
    for (const gateway of gateways) await gateway.stop();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const customers = (url: string, key: string) =>
    fetch(`${url}/v1/customers?limit=2`, { headers: { authorization: `Bearer ${key}` } }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { data?: { id: string }[] },
    }));

  test('both instances serve the sandbox with either key; a key the CLI revokes is refused by both at once', async () => {
    const [a, b] = gateways as [Started & { url: string; testKey: string }, Started & { url: string; testKey: string }];
    for (const key of [a.testKey, b.testKey]) {
      for (const gateway of [a, b]) {
        const res = await customers(gateway.url, key);
        assert.equal(res.status, 200, gateway.output());
        assert.equal(res.body.data?.length, 2);
      }
    }
    const { admin, close } = await openLocalAdmin(dataDir, { databaseUrl });
    const org = (await admin.findOrganisation('Demo organisation'))!;
    const keys = await admin.listApiKeys(org.id);
    await close();
    assert.equal(keys.length, 2, 'one organisation in the shared store, a key from each start');
    const revoked = keys.find((k) => k.secretHash === sha256Hex(a.testKey))!;

    const cli = await runGatewayCli(['key', 'revoke', revoked.id], { DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    assert.equal(cli.code, 0, cli.stderr);
    for (const gateway of [b, a]) assert.equal((await customers(gateway.url, a.testKey)).status, 401, 'refused on its next request');
    assert.equal((await customers(a.url, b.testKey)).status, 200, 'the other key still works');
  });
});
