import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from './migrations.ts';
import { SqliteStore } from './sqliteStore.ts';
import { AGENT_PRESENCE_STALE_MS, type Store } from '../store.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshStore = () => new SqliteStore(path.join(dir, `s${files++}.sqlite`));

/** The schema the first released gateway wrote, verbatim: stores in the field look like this. */
const FIRST_RELEASE_SCHEMA = `
CREATE TABLE IF NOT EXISTS organisations (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL REFERENCES organisations(id), name TEXT NOT NULL, prefix TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')), scopes TEXT NOT NULL, secret_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL, revoked_at TEXT, last_used_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_org ON api_keys(org_id);
CREATE TABLE IF NOT EXISTS connections (
  org_id TEXT NOT NULL REFERENCES organisations(id), id TEXT NOT NULL, name TEXT NOT NULL, agent_token_hash TEXT UNIQUE,
  default_company TEXT, created_at TEXT NOT NULL, PRIMARY KEY (org_id, id)
);
`;

const hash = (c: string) => c.repeat(64);

async function orgWithKey(store: Store, name: string, mode: 'live' | 'test' = 'live') {
  const org = await store.createOrganisation(name);
  const key = await store.createApiKey({
    orgId: org.id,
    name: 'k',
    prefix: `lb_${mode}_AAAA`,
    mode,
    scopes: ['read', 'write'],
    secretHash: hash(name[0]!.toLowerCase()),
  });
  return { org, key };
}

test('a store written by the first release opens, keeps its data and gains the new columns', async () => {
  const file = path.join(dir, 'old.sqlite');
  const old = new Database(file);
  old.exec(FIRST_RELEASE_SCHEMA);
  old.prepare("INSERT INTO organisations VALUES ('org_1', 'Old Co', '2025-01-01T00:00:00.000Z')").run();
  old
    .prepare(
      `INSERT INTO api_keys VALUES ('key_1', 'org_1', 'old key', 'lb_live_OLD1', 'live', '["read","write"]', ?, '2025-01-01T00:00:00.000Z', NULL, NULL)`,
    )
    .run(hash('a'));
  old.prepare("INSERT INTO connections VALUES ('org_1', 'sandbox', 'Demo sandbox', NULL, 'TWO', '2025-01-01T00:00:00.000Z')").run();
  old.prepare("INSERT INTO connections VALUES ('org_1', 'conn_1', 'HQ', ?, 'TWO', '2025-01-01T00:00:00.000Z')").run(hash('b'));
  old.close();

  for (let opening = 1; opening <= 2; opening++) {
    const store = new SqliteStore(file);
    const key = (await store.findApiKeyWithConnection(hash('a'), null))?.key ?? null;
    assert.deepEqual(
      key,
      {
        id: 'key_1',
        orgId: 'org_1',
        name: 'old key',
        prefix: 'lb_live_OLD1',
        mode: 'live',
        scopes: ['read', 'write'],
        secretHash: hash('a'),
        createdAt: '2025-01-01T00:00:00.000Z',
        revokedAt: null,
        rotatedAt: null,
        lastUsedAt: null,
      },
      `opening ${opening}`,
    );
    assert.deepEqual(await store.findOrganisation('org_1'), {
      id: 'org_1',
      name: 'Old Co',
      createdAt: '2025-01-01T00:00:00.000Z',
      limits: { requestsPerWindow: null, windowSeconds: null, maxInFlightPerConnection: null },
    });
    assert.deepEqual(
      (await store.listConnections('org_1')).map((c) => [c.id, c.writeWhitelist, c.presence.connectedAgents]),
      [
        ['sandbox', [], 0],
        ['conn_1', [], 0],
      ],
    );
    await store.close();
  }
  const store = new SqliteStore(file);
  const rotated = await store.rotateApiKey({
    orgId: 'org_1',
    id: 'key_1',
    mode: 'live',
    prefix: 'lb_live_NEW1',
    secretHash: hash('c'),
    at: new Date('2026-01-01T00:00:00Z'),
  });
  assert.equal(rotated?.rotatedAt, '2026-01-01T00:00:00.000Z');
  await store.close();
});

test('a store records its schema step, and one written by a newer gateway is refused rather than misread', async () => {
  const file = path.join(dir, 'versioned.sqlite');
  await new SqliteStore(file).close();
  const db = new Database(file);
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  assert.throws(() => new SqliteStore(file), /written by a newer gateway \(schema \d+; this gateway knows up to \d+\)/);
});

test('rotation swaps the hash and prefix and keeps id, name, mode, scopes and creation time', async () => {
  const store = freshStore();
  const { org, key } = await orgWithKey(store, 'Rotating');
  const rotated = await store.rotateApiKey({
    orgId: org.id,
    id: key.id,
    mode: 'live',
    prefix: 'lb_live_BBBB',
    secretHash: hash('9'),
    at: new Date('2026-02-03T04:05:06Z'),
  });
  assert.deepEqual(rotated, { ...key, prefix: 'lb_live_BBBB', secretHash: hash('9'), rotatedAt: '2026-02-03T04:05:06.000Z' });
  assert.equal(await store.findApiKeyWithConnection(key.secretHash, null), null, 'the old secret finds nothing');
  assert.deepEqual((await store.findApiKeyWithConnection(hash('9'), null))?.key ?? null, rotated);
  await store.close();
});

test('rotation refuses foreign, revoked, unknown keys and keys of another mode, and changes nothing', async () => {
  const store = freshStore();
  const a = await orgWithKey(store, 'Alpha');
  const b = await orgWithKey(store, 'Beta');
  const at = new Date();
  const attempt = (orgId: string, id: string, mode: 'live' | 'test' = 'live') =>
    store.rotateApiKey({ orgId, id, mode, prefix: 'lb_live_XXXX', secretHash: hash('f'), at });
  assert.equal(await attempt(a.org.id, b.key.id), null, 'foreign');
  assert.equal(await attempt(a.org.id, 'key_unknown'), null, 'unknown');
  assert.equal(await attempt(a.org.id, a.key.id, 'test'), null, 'other mode');
  await store.revokeApiKey(a.key.id, at);
  assert.equal(await attempt(a.org.id, a.key.id), null, 'revoked');
  assert.deepEqual(await store.findApiKey(b.org.id, b.key.id), b.key);
  assert.equal((await store.findApiKeyWithConnection(hash('f'), null))?.key ?? null, null);
  await store.close();
});

test('revoking keeps the first revocation time; unknown ids give null', async () => {
  const store = freshStore();
  const { key } = await orgWithKey(store, 'Revoking');
  const first = await store.revokeApiKey(key.id, new Date('2026-01-01T00:00:00Z'));
  const again = await store.revokeApiKey(key.id, new Date('2026-06-01T00:00:00Z'));
  assert.deepEqual([first?.key.revokedAt, first?.revokedNow], ['2026-01-01T00:00:00.000Z', true]);
  assert.deepEqual([again?.key.revokedAt, again?.revokedNow], ['2026-01-01T00:00:00.000Z', false]);
  assert.equal(await store.revokeApiKey('key_unknown', new Date()), null);
  await store.close();
});

test('a key is read with a connection of its own organisation only', async () => {
  const store = freshStore();
  const { org, key } = await orgWithKey(store, 'Alpha');
  const { org: other } = await orgWithKey(store, 'Beta');
  const mine = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: hash('1'), defaultCompany: 'TWO' });
  const foreign = await store.createConnection({ orgId: other.id, name: 'Theirs', agentTokenHash: hash('2'), defaultCompany: null });
  assert.deepEqual(await store.findApiKeyWithConnection(key.secretHash, mine.id), {
    key,
    connection: await store.findConnection(org.id, mine.id),
  });
  assert.equal((await store.findApiKeyWithConnection(key.secretHash, 'sandbox'))?.connection?.name, 'Demo sandbox');
  assert.deepEqual(
    await store.findApiKeyWithConnection(key.secretHash, foreign.id),
    { key, connection: null },
    "another organisation's connection",
  );
  assert.deepEqual(await store.findApiKeyWithConnection(key.secretHash, 'conn_nowhere'), { key, connection: null });
  assert.deepEqual(await store.findApiKeyWithConnection(key.secretHash, null), { key, connection: null });
  assert.equal(await store.findApiKeyWithConnection(hash('z'), mine.id), null, 'an unknown key finds nothing, connection or not');
});

test('a key read again after any change sees the change: revoked elsewhere, revoked here, connection edited', async () => {
  const file = path.join(dir, `s${files++}.sqlite`);
  const gateway = new SqliteStore(file);
  // What `gp-gateway key revoke` does while the gateway runs: another connection to the same file.
  const operator = new SqliteStore(file);
  const { org, key } = await orgWithKey(gateway, 'Remembered');
  const other = await gateway.createApiKey({
    orgId: org.id,
    name: 'second',
    prefix: 'lb_live_zzzz',
    mode: 'live',
    scopes: ['read'],
    secretHash: hash('other'),
  });
  const hq = await gateway.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: hash('hq'), defaultCompany: 'TWO' });
  const read = () => gateway.findApiKeyWithConnection(key.secretHash, hq.id);

  assert.equal((await read())?.key.revokedAt, null);
  assert.equal((await read())?.key.revokedAt, null, 'read again while nothing changed');
  assert.ok(Object.isFrozen((await read())?.key), 'what requests share cannot be changed by one of them');
  await operator.setDefaultCompany(org.id, hq.id, 'NWIND');
  assert.equal((await read())?.connection?.defaultCompany, 'NWIND', 'a connection edited by another process');
  await operator.revokeApiKey(key.id, new Date('2026-02-01T00:00:00Z'));
  assert.equal((await read())?.key.revokedAt, '2026-02-01T00:00:00.000Z', 'a key revoked by another process');

  const readOther = () => gateway.findApiKeyWithConnection(other.secretHash, null);
  assert.equal((await readOther())?.key.revokedAt, null);
  await gateway.revokeApiKey(other.id, new Date('2026-03-01T00:00:00Z'));
  assert.equal((await readOther())?.key.revokedAt, '2026-03-01T00:00:00.000Z', 'a key revoked through this store');
  await operator.close();
  await gateway.close();
});

test('keys are listed per organisation, oldest first', async () => {
  const store = freshStore();
  const a = await orgWithKey(store, 'Alpha');
  await orgWithKey(store, 'Beta');
  const second = await store.createApiKey({
    orgId: a.org.id,
    name: 'second',
    prefix: 'lb_test_CCCC',
    mode: 'test',
    scopes: ['read'],
    secretHash: hash('3'),
  });
  assert.deepEqual(
    (await store.listApiKeys(a.org.id)).map((k) => k.id),
    [a.key.id, second.id],
  );
  await store.close();
});

test('limits change field by field; null restores the default', async () => {
  const store = freshStore();
  const org = await store.createOrganisation('Limited');
  await store.setOrganisationLimits(org.id, { requestsPerWindow: 300, maxInFlightPerConnection: 2 });
  assert.deepEqual((await store.findOrganisation(org.id))?.limits, {
    requestsPerWindow: 300,
    windowSeconds: null,
    maxInFlightPerConnection: 2,
  });
  await store.setOrganisationLimits(org.id, { windowSeconds: 60, requestsPerWindow: null });
  assert.deepEqual((await store.findOrganisation(org.id))?.limits, {
    requestsPerWindow: null,
    windowSeconds: 60,
    maxInFlightPerConnection: 2,
  });
  assert.equal(await store.setOrganisationLimits('org_unknown', { windowSeconds: 1 }), null);
  await store.close();
});

test("default company and write whitelist change only the organisation's own connection", async () => {
  const store = freshStore();
  const a = await store.createOrganisation('Alpha');
  const b = await store.createOrganisation('Beta');
  const conn = await store.createConnection({ orgId: a.id, name: 'HQ', agentTokenHash: hash('1'), defaultCompany: 'TWO' });
  assert.equal(await store.setDefaultCompany(b.id, conn.id, 'NWIND'), null);
  assert.equal(await store.setWriteWhitelist(b.id, conn.id, ['customers']), null);
  assert.deepEqual(await store.findConnection(a.id, conn.id), conn);
  assert.deepEqual(await store.setDefaultCompany(a.id, conn.id, null), { ...conn, defaultCompany: null });
  assert.deepEqual(await store.setWriteWhitelist(a.id, conn.id, ['customers', 'gl-entries']), {
    ...conn,
    defaultCompany: null,
    writeWhitelist: ['customers', 'gl-entries'],
  });
  await store.close();
});

test('agent presence: connected agents, last seen, version and host; stale sessions stop counting', async () => {
  const store = freshStore();
  const org = await store.createOrganisation('Present');
  const conn = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: hash('1'), defaultCompany: 'TWO' });
  const presence = async () => (await store.listConnections(org.id)).find((c) => c.id === conn.id)!.presence;
  assert.deepEqual(await presence(), { connectedAgents: 0, lastSeenAt: null, agentVersion: null, agentHost: null, companies: [] });

  const t0 = new Date();
  const session = { connectionId: conn.id, gatewayId: 'gw_1', companies: ['TWO', 'NWIND'], at: t0 };
  await store.recordAgentConnected({ ...session, id: 'as_1', agentVersion: '0.1.0', agentHost: 'gp01' });
  await store.recordAgentConnected({ ...session, id: 'as_2', agentVersion: '0.2.0', agentHost: 'gp02', at: new Date(t0.getTime() + 1) });
  assert.deepEqual(await presence(), {
    connectedAgents: 2,
    lastSeenAt: new Date(t0.getTime() + 1).toISOString(),
    agentVersion: '0.2.0',
    agentHost: 'gp02',
    companies: ['TWO', 'NWIND'],
  });
  const t1 = new Date(t0.getTime() + 1000);
  await store.recordAgentsSeen(['as_1'], t1);
  assert.equal((await presence()).lastSeenAt, t1.toISOString());
  const t2 = new Date(t0.getTime() + 2000);
  await store.recordAgentDisconnected('as_1', t2);
  await store.recordAgentDisconnected('as_2', t2);
  assert.deepEqual(await presence(), {
    connectedAgents: 0,
    lastSeenAt: t2.toISOString(),
    agentVersion: '0.2.0',
    agentHost: 'gp02',
    companies: [],
  });

  // A gateway that died without a goodbye: its session is not counted once stale, and is swept.
  const longAgo = new Date(Date.now() - AGENT_PRESENCE_STALE_MS - 1000);
  await store.recordAgentConnected({ ...session, id: 'as_dead', agentVersion: '0.1.0', agentHost: 'gp01', at: longAgo });
  assert.equal((await presence()).connectedAgents, 0);
  await store.recordAgentConnected({ ...session, id: 'as_3', agentVersion: '0.3.0', agentHost: 'gp03', at: new Date() });
  assert.equal((await presence()).connectedAgents, 1);
  await store.close();
});

test("the built-in agent's presence shows on every organisation's sandbox", async () => {
  const store = freshStore();
  const a = await store.createOrganisation('Alpha');
  const b = await store.createOrganisation('Beta');
  await store.recordAgentConnected({
    id: 'as_s',
    connectionId: 'sandbox',
    gatewayId: 'gw_1',
    agentVersion: '0.1.0',
    agentHost: 'gw',
    companies: ['TWO'],
    at: new Date(),
  });
  for (const org of [a, b]) assert.equal((await store.listConnections(org.id))[0]?.presence.connectedAgents, 1);
  await store.close();
});

test('idempotency keys: one claim wins, answers replay, lapsed leases resume, records expire', async () => {
  const store = freshStore();
  const t0 = new Date('2026-01-01T00:00:00Z');
  const later = (ms: number) => new Date(t0.getTime() + ms);
  const claim = (operationId: string, fingerprint = 'f1', at = t0, key = 'k1', orgId = 'org_a') =>
    store.claimIdempotencyKey({
      orgId,
      key,
      fingerprint,
      operationId,
      at,
      leaseUntil: new Date(at.getTime() + 1000),
      expiresAt: new Date(at.getTime() + 86_400_000),
    });

  assert.deepEqual(await claim('op_aaaaaaaaaaaaaaaa'), { kind: 'claimed' });
  assert.deepEqual(await claim('op_bbbbbbbbbbbbbbbb'), { kind: 'in_flight' }, 'same body while the lease holds');
  assert.deepEqual(await claim('op_bbbbbbbbbbbbbbbb', 'f2'), { kind: 'body_mismatch' });
  assert.deepEqual(await claim('op_bbbbbbbbbbbbbbbb', 'f1', t0, 'k1', 'org_b'), { kind: 'claimed' }, 'keys are per organisation');
  // Only the operation that holds the record may settle it.
  const response = { status: 201, contentType: 'application/json; charset=utf-8', body: Buffer.from('{"data":{"id":"A"}}') };
  assert.equal(await store.completeIdempotencyKey('org_a', 'k1', 'op_bbbbbbbbbbbbbbbb', response), false);
  assert.equal(await store.completeIdempotencyKey('org_a', 'k1', 'op_aaaaaaaaaaaaaaaa', response), true);
  assert.deepEqual(await claim('op_cccccccccccccccc', 'f1', later(5000)), { kind: 'completed', response });
  assert.deepEqual(await claim('op_cccccccccccccccc', 'f2', later(5000)), { kind: 'body_mismatch' });
  await store.releaseIdempotencyKey('org_a', 'k1', 'op_aaaaaaaaaaaaaaaa');
  assert.equal((await claim('op_cccccccccccccccc', 'f1', later(5000))).kind, 'completed', 'a completed record is never released');

  // A lease that lapsed (its request gave up, or its gateway died) is resumed once, with its operation id.
  assert.deepEqual(await claim('op_dddddddddddddddd', 'f1', t0, 'k2'), { kind: 'claimed' });
  assert.deepEqual(await claim('op_eeeeeeeeeeeeeeee', 'f1', later(2000), 'k2'), { kind: 'resumed', operationId: 'op_dddddddddddddddd' });
  assert.deepEqual(await claim('op_ffffffffffffffff', 'f1', later(2500), 'k2'), { kind: 'in_flight' }, 'the resumer holds it now');
  await store.suspendIdempotencyKey('org_a', 'k2', 'op_dddddddddddddddd', later(2600));
  assert.deepEqual(await claim('op_ffffffffffffffff', 'f1', later(2600), 'k2'), { kind: 'resumed', operationId: 'op_dddddddddddddddd' });
  await store.releaseIdempotencyKey('org_a', 'k2', 'op_dddddddddddddddd');
  assert.deepEqual(await claim('op_gggggggggggggggg', 'f2', later(2700), 'k2'), { kind: 'claimed' }, 'released: free for any body');

  // Expired records count as absent, and the sweep deletes them.
  assert.deepEqual(await claim('op_hhhhhhhhhhhhhhhh', 'f9', later(86_400_000)), { kind: 'claimed' });
  assert.equal(await store.deleteExpiredIdempotencyKeys(later(86_403_000)), 2, 'org_b k1 and org_a k2 expired; the new k1 lives');
  assert.equal(await store.deleteExpiredIdempotencyKeys(later(86_403_000)), 0);
  await store.close();
});
