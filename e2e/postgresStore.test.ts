import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { openLocalAdmin, sha256Hex } from '@gp-gateway/gateway';
import { findPostgresBinaries, startPostgresServer, type PostgresServer } from '@gp-gateway/testing';
import { runGatewayCli, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * Two gateway processes on one PostgreSQL store (DATABASE_URL), as several instances run them (docs/decisions.md#several-gateway-instances), on a throwaway
 * server this file starts from Debian's `postgresql` package: both start at once on the empty
 * database, `start` makes the demo organisation and a key through the admin service, each
 * instance serves the sandbox with the other's key, and a key revoked by the operator CLI in a third
 * process is refused by both on their next request; with the server stopped under them, both answer
 * 503 SERVICE_UNAVAILABLE at once and serve again when it is back. Skipped, saying so, without the package.
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

  test('PostgreSQL stopped under both: 503 SERVICE_UNAVAILABLE with Retry-After at once, then served again without a restart', async () => {
    const key = gateways[1]!.testKey;
    for (const gateway of gateways) assert.equal((await customers(gateway.url, key)).status, 200);
    await server.halt();
    try {
      for (const gateway of gateways) {
        for (let i = 0; i < 3; i++) {
          const started = Date.now();
          const res = await fetch(`${gateway.url}/v1/customers?limit=2`, { headers: { authorization: `Bearer ${key}` } });
          const elapsed = Date.now() - started;
          const body = (await res.json()) as { error?: { code: string } };
          assert.equal(res.status, 503, JSON.stringify(body));
          assert.equal(body.error?.code, 'SERVICE_UNAVAILABLE');
          assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After says when to retry');
          // At once: before the breaker, each waited for pg's 5 s connect timeout. The bound leaves room for a loaded machine.
          assert.ok(elapsed < 3_000, `answered after ${elapsed} ms`);
        }
        const ready = await fetch(`${gateway.url}/ready`);
        assert.equal(ready.status, 503);
        assert.match(((await ready.json()) as { checks: { store: string } }).checks.store, /unreachable/);
      }
    } finally {
      await server.restart();
    }
    for (const gateway of gateways) {
      await waitFor('the gateway to serve again', async () => ((await customers(gateway.url, key)).status === 200 ? true : null), 10_000);
      assert.equal((await fetch(`${gateway.url}/ready`)).status, 200);
    }
    assert.match(gateways[0]!.output(), /PostgreSQL unreachable/, 'the outage is logged');
  });
});
