import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import pg from 'pg';
import { FIXTURE_AT, twoOrganisationsAtStep3 } from '../../testing/migrationFixtures.ts';
import { storeContract } from '../../testing/storeContract.ts';
import { findPostgresBinaries, pollUntil, startPostgresServer, type PostgresServer } from '@gp-gateway/testing';
import { postgresEngine } from './engines/postgres.ts';
import { KEYS_CHANGED_CHANNEL, PostgresKeyMemory } from './engines/postgresKeyMemory.ts';
import { openPostgresStore } from './openStore.ts';
import { Kysely, PostgresDialect } from 'kysely';
import { MIGRATION_TABLE, storeMigrations } from './sql/migrations.ts';
import { storeOn } from './sql/sqlStore.ts';

/**
 * The store contract and what only PostgreSQL has (migrations run by instances starting at once,
 * keys forgotten across instances through LISTEN/NOTIFY), on a real server this file starts from
 * Debian's `postgresql` package. Without it the suite is skipped, saying so.
 */
const binaries = findPostgresBinaries();
const missing = 'missing' in binaries ? binaries.missing : null;
if (missing) console.warn(`\n*** SKIPPED: the PostgreSQL store suite: ${missing}. ***\n`);

describe('the PostgreSQL store', { skip: missing ?? false }, () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgresServer();
  });
  after(() => server?.stop());

  const open = (connectionString: string) => openPostgresStore({ connectionString });
  const hash = (c: string) => c.repeat(64);

  describe('the store contract', () => {
    storeContract({
      fresh: async () => open(await server.createDatabase()),
      async twoOnOneDatabase() {
        const url = await server.createDatabase();
        return [await open(url), await open(url)];
      },
      // Another instance's change reaches this one as a notification; measured in milliseconds below.
      changeHeardWithinMs: 2_000,
    });
  });

  test('a database that cannot be reached fails the start with where it is, never the password', async () => {
    // A port just freed: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const closed = `postgres://gateway:hunter2-secret@127.0.0.1:${port}/gateway`;
    await assert.rejects(open(closed), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`^cannot open the PostgreSQL store 127\\.0\\.0\\.1:${port}/gateway \\(DATABASE_URL\\): .*ECONNREFUSED`),
      );
      assert.ok(!error.message.includes('hunter2'));
      return true;
    });
  });

  test('instances starting at once on an empty database migrate it once, and all open', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${MIGRATION_TABLE} ORDER BY name`);
      assert.deepEqual(
        rows.map((r) => r.name),
        Object.keys(storeMigrations('postgres')),
      );
      // A database migrated by a newer gateway is refused rather than misread.
      await client.query(`INSERT INTO ${MIGRATION_TABLE} (name, timestamp) VALUES ('9999_from_the_future', '2027-01-01')`);
      await assert.rejects(open(url), /migrated by a newer gateway \(it has 9999_from_the_future; this gateway knows up to \d{4}_\w+\)/);
    } finally {
      await client.end();
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  test('step 7 on a database with users: they, their sessions and their order stay; an email may then join another organisation', async () => {
    const url = await server.createDatabase();
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
    await twoOrganisationsAtStep3(db, 'postgres');
    const at = FIXTURE_AT;
    await db
      .insertInto('users')
      .values({ id: 'user_1', org_id: 'org_a', email: 'amy@example.com', role: 'admin', password_hash: 'scrypt$1', created_at: at })
      .execute();
    await db
      .insertInto('dashboard_sessions')
      .values({ id_hash: hash('s'), user_id: 'user_1', created_at: at, last_seen_at: at })
      .execute();
    await assert.rejects(
      db.insertInto('users').values({ id: 'user_2', org_id: 'org_b', email: 'amy@example.com', role: 'admin', created_at: at }).execute(),
      /unique/,
      'before step 7 an email is unique across the gateway',
    );
    await db.destroy();

    const store = await open(url);
    try {
      assert.equal((await store.findDashboardSession(hash('s')))?.user.id, 'user_1');
      assert.equal((await store.createUser({ orgId: 'org_b', email: 'Amy@example.com', role: 'viewer' }))?.orgId, 'org_b');
      assert.equal(await store.createUser({ orgId: 'org_a', email: 'amy@example.com', role: 'viewer' }), null);
      assert.deepEqual(
        (await store.findUsersForSignIn('amy@example.com')).map((f) => [f.user.orgId, f.passwordHash]),
        [
          ['org_a', 'scrypt$1'],
          ['org_b', null],
        ],
      );
    } finally {
      await store.close();
    }
  });

  test('a key revoked through one instance is refused by another on its next reads; measured', async () => {
    const url = await server.createDatabase();
    const [a, b] = [await open(url), await open(url)];
    try {
      const org = await a.createOrganisation('Two instances');
      const delays: number[] = [];
      for (let i = 0; i < 20; i++) {
        const key = await a.createApiKey({
          orgId: org.id,
          name: `k${i}`,
          prefix: 'lb_live_AAAA',
          mode: 'live',
          scopes: ['read'],
          secretHash: hash(`${i}`.padStart(2, '0')),
        });
        assert.equal((await b.findApiKeyWithConnection(key.secretHash, null))?.key.revokedAt, null);
        assert.equal((await b.findApiKeyWithConnection(key.secretHash, null))?.key.revokedAt, null, 'now from memory');
        await a.revokeApiKey(key.id, new Date());
        const revoked = process.hrtime.bigint();
        // A read answered from memory never waits for I/O: yield, as requests arriving over sockets do.
        while ((await b.findApiKeyWithConnection(key.secretHash, null))?.key.revokedAt === null) {
          assert.ok(process.hrtime.bigint() - revoked < 2_000_000_000n, 'refused within 2 s');
          await new Promise((r) => setImmediate(r));
        }
        delays.push(Number(process.hrtime.bigint() - revoked) / 1e6);
      }
      delays.sort((x, y) => x - y);
      console.log(
        `key revoked on A, refused on B after: median ${delays[10]!.toFixed(2)} ms, max ${delays.at(-1)!.toFixed(2)} ms (20 revocations)`,
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a change made with plain SQL (not through a store) is heard too; while the listener is down, keys are read every time', async () => {
    const url = await server.createDatabase();
    await (await open(url)).close();
    // The engine itself, to see whether its key memory listens.
    const engine = await postgresEngine({ connectionString: url });
    const store = storeOn(engine);
    const listening = () => (engine.keys as PostgresKeyMemory).listening;
    const sql = new pg.Client({ connectionString: url });
    await sql.connect();
    try {
      const org = await store.createOrganisation('Plain SQL');
      const key = await store.createApiKey({
        orgId: org.id,
        name: 'k',
        prefix: 'lb_live_AAAA',
        mode: 'live',
        scopes: ['read'],
        secretHash: hash('p'),
      });
      const read = async () => {
        const found = await store.findApiKeyWithConnection(key.secretHash, null);
        return found ? found.key.revokedAt : 'gone';
      };
      assert.equal(await read(), null);
      await sql.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
      await pollUntil('the revocation heard through the trigger', async () => (await read()) !== null, { timeoutMs: 2_000, everyMs: 1 });

      // The listener's connection is killed: until it is back, nothing is answered from memory.
      await sql.query('UPDATE api_keys SET revoked_at = NULL WHERE id = $1', [key.id]);
      await sql.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${KEYS_CHANGED_CHANNEL}`]);
      await pollUntil('the listener noticing its connection killed', () => !listening(), { timeoutMs: 2_000, everyMs: 5 });
      assert.equal(await read(), null);
      await sql.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
      assert.notEqual(await read(), null, 'read from the database at once, no notification needed');
      await pollUntil('the listener reconnecting', () => listening(), { timeoutMs: 5_000, everyMs: 20 });
    } finally {
      await sql.end();
      await store.close();
    }
  });

  test('the feed skips no event that commits late: of two transactions committing in reverse order, a reader passes neither until both are visible', async () => {
    const url = await server.createDatabase();
    const store = await open(url);
    // A writer holding its transaction open, as a slow gateway instance or a long insert would.
    const early = new pg.Client({ connectionString: url });
    await early.connect();
    const read = async (after: [number, number] | null) => store.listEvents({ orgId: 'org_pg', types: [], after, limit: 100 });
    const event = (recordId: string) => ({
      orgId: 'org_pg',
      connectionId: 'conn_1',
      company: 'TWO',
      type: 'customer.updated',
      object: 'customers',
      recordId,
      version: '2026-03-01T09:00:00.000Z',
      changedAt: '2026-03-01T09:00:00.000Z',
      data: { id: recordId },
    });
    try {
      await store.appendEvents([event('BEFORE')], new Date());
      const start = await read(null);
      assert.deepEqual(
        start.events.map((e) => e.recordId),
        ['BEFORE'],
      );

      // Transaction 1 inserts first (the smaller seq) and stays open; transaction 2 inserts and commits.
      await early.query('BEGIN');
      await early.query(
        `INSERT INTO events (id, org_id, connection_id, company, type, object, record_id, version, changed_at, recorded_at, data)
         VALUES ('evt_early', 'org_pg', 'conn_1', 'TWO', 'customer.updated', 'customers', 'EARLY', 'v1', now(), now(), '{"id":"EARLY"}')`,
      );
      await store.appendEvents([event('LATE')], new Date());

      // A reader now must not pass LATE, or it would never see EARLY: it sees nothing new, and stays where it was.
      const meanwhile = await read(start.next);
      assert.deepEqual(meanwhile.events, [], 'nothing is read past a transaction still open');
      assert.deepEqual(meanwhile.next, start.next);

      await early.query('COMMIT');
      const after = await read(meanwhile.next);
      assert.deepEqual(
        after.events.map((e) => e.recordId),
        ['EARLY', 'LATE'],
        'both, once both are committed, in commit-safe order',
      );
      assert.deepEqual((await read(after.next)).events, []);

      // A transaction that rolls back leaves nothing, and holds the feed only while it is open.
      await early.query('BEGIN');
      await early.query(
        `INSERT INTO events (id, org_id, connection_id, type, recorded_at) VALUES ('evt_gone', 'org_pg', 'conn_1', 'connection.online', now())`,
      );
      await store.appendEvents([event('AFTER')], new Date());
      assert.deepEqual((await read(after.next)).events, []);
      await early.query('ROLLBACK');
      assert.deepEqual(
        (await read(after.next)).events.map((e) => e.recordId),
        ['AFTER'],
      );
    } finally {
      await early.end();
      await store.close();
    }
  });
});
