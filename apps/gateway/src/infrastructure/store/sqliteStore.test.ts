import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { FIXTURE_AT, twoOrganisationsAtStep3 } from '../../testing/migrationFixtures.ts';
import { storeContract } from '../../testing/storeContract.ts';
import { openSqliteStore } from './openStore.ts';
import { MIGRATION_TABLE, storeMigrations, storeMigrator } from './sql/migrations.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshStore = () => openSqliteStore(path.join(dir, `s${files++}.sqlite`));

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
    const store = await openSqliteStore(file);
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
        previousSecretHash: null,
        previousSecretUntil: null,
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
  const store = await openSqliteStore(file);
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

test('a store records its migrations, and one migrated by a newer gateway is refused rather than misread', async () => {
  const file = path.join(dir, 'versioned.sqlite');
  await (await openSqliteStore(file)).close();
  const db = new Database(file);
  assert.deepEqual(db.prepare(`SELECT name FROM ${MIGRATION_TABLE} ORDER BY name`).pluck().all(), Object.keys(storeMigrations('sqlite')));
  db.prepare(`INSERT INTO ${MIGRATION_TABLE} (name, timestamp) VALUES ('9999_from_the_future', '2027-01-01')`).run();
  db.close();
  await assert.rejects(
    openSqliteStore(file),
    /migrated by a newer gateway \(it has 9999_from_the_future; this gateway knows up to \d{4}_\w+\)/,
  );
});

test('Idempotency-Keys answered before step 2 replay as they were answered: the record, or the refusal with its request id', async () => {
  const file = path.join(dir, 'step1.sqlite');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  const migrator = storeMigrator(db, 'sqlite');
  assert.equal((await migrator.migrateTo('0001_one_store')).error, undefined);
  const refusal = { code: 'ALREADY_EXISTS', message: 'AARONFIT0001 exists', requestId: 'req_first', details: { gp: [{ code: 1 }] } };
  const sent = [
    ['created', 201, `{"data":{"id":"AARONFIT0001","name":"Zürich \\"A\\""}}`],
    ['refused', 409, JSON.stringify({ error: refusal })],
  ] as const;
  for (const [key, status, body] of sent) {
    await db
      .insertInto('idempotency_keys')
      .values({
        org_id: 'org_1',
        key,
        fingerprint: 'f',
        operation_id: `op_${key}`,
        state: 'completed',
        lease_until: '2026-01-01T00:00:00.000Z',
        response_status: status,
        response_type: 'application/json; charset=utf-8',
        response_body: Buffer.from(body),
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: '2099-01-01T00:00:00.000Z',
      })
      .execute();
  }
  await db.destroy();

  const store = await openSqliteStore(file);
  const claim = (key: string) =>
    store.claimIdempotencyKey({
      orgId: 'org_1',
      key,
      fingerprint: 'f',
      operationId: 'op_new',
      at: new Date('2026-01-01T00:00:01Z'),
      leaseUntil: new Date('2026-01-01T00:01:00Z'),
      expiresAt: new Date('2026-01-02T00:00:00Z'),
    });
  const created = await claim('created');
  assert.equal(
    created.kind === 'completed' && created.result.kind === 'created' && created.result.record.toString(),
    '{"id":"AARONFIT0001","name":"Zürich \\"A\\""}',
  );
  assert.deepEqual(await claim('refused'), { kind: 'completed', result: { kind: 'refused', refusal } });
  await store.close();
});

test('step 7 keeps every user, their order, sign-in links and sessions, and lets an email join another organisation', async () => {
  const file = path.join(dir, 'step3.sqlite');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  await twoOrganisationsAtStep3(db, 'sqlite');
  const at = FIXTURE_AT;
  // Same creation time: only the insertion order (rowid) says which came first.
  for (const [id, email] of [
    ['user_2', 'zed@example.com'],
    ['user_1', 'amy@example.com'],
  ]) {
    await db
      .insertInto('users')
      .values({ id, org_id: 'org_a', email, role: 'admin', password_hash: `scrypt$${id}`, created_at: at })
      .execute();
  }
  await db
    .insertInto('sign_in_links')
    .values({ token_hash: hash('l'), user_id: 'user_1', created_at: at, expires_at: '2099-01-01T00:00:00.000Z' })
    .execute();
  await db
    .insertInto('dashboard_sessions')
    .values({ id_hash: hash('s'), user_id: 'user_2', created_at: at, last_seen_at: at })
    .execute();
  await db.destroy();

  const store = await openSqliteStore(file);
  try {
    assert.deepEqual(
      (await store.listUsers('org_a')).map((u) => [u.id, u.email, u.hasPassword]),
      [
        ['user_2', 'zed@example.com', true],
        ['user_1', 'amy@example.com', true],
      ],
    );
    assert.equal((await store.findDashboardSession(hash('s')))?.user.id, 'user_2', 'sessions survive the rebuild');
    assert.equal(await store.isSignInLinkLive(hash('l'), new Date(at)), true, 'sign-in links survive the rebuild');
    assert.equal((await store.createUser({ orgId: 'org_b', email: 'AMY@example.com', role: 'viewer' }))?.orgId, 'org_b');
    assert.equal(await store.createUser({ orgId: 'org_a', email: 'amy@example.com', role: 'viewer' }), null);
    assert.deepEqual(
      (await store.findUsersForSignIn('amy@example.com')).map((f) => f.user.orgId),
      ['org_a', 'org_b'],
    );
    await store.removeUser('org_a', 'user_2');
    assert.equal(await store.findDashboardSession(hash('s')), null, 'the foreign keys still cascade');
  } finally {
    await store.close();
  }
});

test('a gateway and the operator CLI opening a new store at once migrate it once, and both open', async () => {
  const file = path.join(dir, 'together.sqlite');
  const stores = await Promise.all([openSqliteStore(file), openSqliteStore(file), openSqliteStore(file)]);
  const org = await stores[0]!.createOrganisation('Together');
  assert.deepEqual(await stores[2]!.findOrganisation(org.id), org);
  await Promise.all(stores.map((s) => s.close()));
});

describe('the store contract on SQLite', () => {
  storeContract({
    fresh: freshStore,
    async twoOnOneDatabase() {
      // What `gp-gateway key revoke` does while the gateway runs: another connection to the same file.
      const file = path.join(dir, `s${files++}.sqlite`);
      return [await openSqliteStore(file), await openSqliteStore(file)];
    },
    changeHeardWithinMs: 0,
  });
});
