import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AGENT_PRESENCE_STALE_MS,
  USAGE_LOG_KEPT,
  type EventPage,
  type EventPosition,
  type EventQuery,
  type NewEvent,
  type RequestRecord,
  type Store,
  type StoredEvent,
} from '../infrastructure/store/store.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrganisationWithSandbox } from '../core/admin/sandbox.ts';
import { webhooksStoreContract } from './webhooksStoreContract.ts';

/**
 * What the store must do on each engine, run by store/sqliteStore.test.ts and
 * store/postgresStore.test.ts inside the caller's describe block.
 */
export interface StoreUnderTest {
  /** A store on a new, empty database. */
  fresh(): Promise<Store>;
  /** Two stores on one new database, as two gateway instances (or a gateway and the operator CLI) open it. */
  twoOnOneDatabase(): Promise<[Store, Store]>;
  /**
   * How long a change made through one store may take to show in the other's remembered keys:
   * 0 where it must show on the very next read (SQLite, which asks the file on every read).
   */
  changeHeardWithinMs: number;
}

const hash = (c: string) => c.repeat(64);

/** An organisation as the admin service makes one (with its sandbox), and a key of it. */
async function orgWithKey(store: Store, name: string, mode: 'live' | 'test' = 'live') {
  const org = await createOrganisationWithSandbox(store, name);
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

/** Reads until `check` holds or `withinMs` passes (one read when 0); the last value read. */
async function readUntil<T>(read: () => Promise<T>, check: (value: T) => boolean, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() >= deadline) return value;
    await sleep(1);
  }
}

export function storeContract(subject: StoreUnderTest): void {
  const opened: Store[] = [];
  const fresh = async () => {
    const store = await subject.fresh();
    opened.push(store);
    return store;
  };
  after(() => Promise.all(opened.map((s) => s.close())));

  test('an organisation is created with exactly what it is given: the sandbox connection asked for, or none', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Sandboxed', { sandbox: { name: 'Try it here', defaultCompany: 'NWIND' } });
    assert.deepEqual(await store.findOrganisationByName('Sandboxed'), org);
    assert.deepEqual(await store.findConnection(org.id, 'sandbox'), {
      id: 'sandbox',
      orgId: org.id,
      name: 'Try it here',
      agentTokenHash: null,
      defaultCompany: 'NWIND',
      writeWhitelist: [],
      createdAt: org.createdAt,
    });
    const bare = await store.createOrganisation('Bare');
    assert.deepEqual(await store.listConnections(bare.id), [], 'no sandbox unless asked for');
    await assert.rejects(
      store.createOrganisation('Sandboxed', { sandbox: { name: 'Again', defaultCompany: null } }),
      'organisation names are unique',
    );
    assert.deepEqual(
      (await store.listOrganisations()).map((o) => o.name),
      ['Sandboxed', 'Bare'],
      'a refused organisation leaves nothing behind',
    );
    assert.equal(
      (await store.findConnection(org.id, 'sandbox'))?.name,
      'Try it here',
      'nor changes the sandbox of the one it clashed with',
    );
  });

  test('rotation swaps the hash and prefix and keeps id, name, mode, scopes and creation time', async () => {
    const store = await fresh();
    const { org, key } = await orgWithKey(store, 'Rotating');
    assert.deepEqual((await store.findApiKeyWithConnection(key.secretHash, null))?.key, key, 'the key, remembered before rotation');
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
  });

  test('rotation with an overlap: the old secret finds the key (with its end) in the one lookup, until a later rotation or the end is brought forward', async () => {
    const store = await fresh();
    const { org, key } = await orgWithKey(store, 'Overlapping');
    assert.equal((await store.findApiKeyWithConnection(key.secretHash, 'sandbox'))?.connection?.id, 'sandbox', 'remembered before');
    const until = new Date('2031-01-01T00:00:00Z');
    const rotated = await store.rotateApiKey({
      orgId: org.id,
      id: key.id,
      mode: 'live',
      prefix: 'lb_live_BBBB',
      secretHash: hash('9'),
      at: new Date('2026-02-03T04:05:06Z'),
      keepOldUntil: until,
    });
    assert.deepEqual([rotated?.previousSecretHash, rotated?.previousSecretUntil], [key.secretHash, until.toISOString()]);
    for (const secret of [key.secretHash, hash('9')]) {
      const found = await store.findApiKeyWithConnection(secret, 'sandbox');
      assert.deepEqual(found?.key, rotated, `found by ${secret === key.secretHash ? 'the old' : 'the new'} secret`);
      assert.equal(found?.connection?.id, 'sandbox', 'with its connection, in the same read');
    }
    // A second rotation keeps only the secret it replaces: the first one's old secret ends now.
    const again = await store.rotateApiKey({
      orgId: org.id,
      id: key.id,
      mode: 'live',
      prefix: 'lb_live_CCCC',
      secretHash: hash('8'),
      at: new Date(),
      keepOldUntil: until,
    });
    assert.equal(again?.previousSecretHash, hash('9'));
    assert.equal(await store.findApiKeyWithConnection(key.secretHash, null), null, 'the secret of two rotations ago finds nothing');
    assert.equal((await store.findApiKeyWithConnection(hash('9'), null))?.key.id, key.id);
    const ended = await store.endApiKeyOverlap(org.id, key.id);
    assert.deepEqual([ended?.previousSecretHash, ended?.previousSecretUntil], [null, null]);
    assert.equal(await store.findApiKeyWithConnection(hash('9'), null), null, 'ended: the old secret finds nothing');
    assert.equal((await store.findApiKeyWithConnection(hash('8'), null))?.key.id, key.id, 'the new one still does');
    const other = await store.createOrganisation('Not theirs');
    assert.equal(await store.endApiKeyOverlap(other.id, key.id), null, "another organisation's key");
    // Without an overlap, the replaced secret is not kept.
    const plain = await store.rotateApiKey({
      orgId: org.id,
      id: key.id,
      mode: 'live',
      prefix: 'lb_live_D',
      secretHash: hash('7'),
      at: new Date(),
    });
    assert.deepEqual([plain?.previousSecretHash, plain?.previousSecretUntil], [null, null]);
    assert.equal(await store.findApiKeyWithConnection(hash('8'), null), null);
  });

  test('rotation refuses foreign, revoked, unknown keys and keys of another mode, and changes nothing', async () => {
    const store = await fresh();
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
  });

  test('revoking keeps the first revocation time; unknown ids give null; of revocations at once, one revokes', async () => {
    const store = await fresh();
    const { org, key } = await orgWithKey(store, 'Revoking');
    const first = await store.revokeApiKey(key.id, new Date('2026-01-01T00:00:00Z'));
    const again = await store.revokeApiKey(key.id, new Date('2026-06-01T00:00:00Z'));
    assert.deepEqual([first?.key.revokedAt, first?.revokedNow], ['2026-01-01T00:00:00.000Z', true]);
    assert.deepEqual([again?.key.revokedAt, again?.revokedNow], ['2026-01-01T00:00:00.000Z', false]);
    assert.equal(await store.revokeApiKey('key_unknown', new Date()), null);

    const other = await store.createApiKey({
      orgId: org.id,
      name: 'k2',
      prefix: 'lb_live_CCCC',
      mode: 'live',
      scopes: ['read'],
      secretHash: hash('2'),
    });
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => store.revokeApiKey(other.id, new Date(Date.UTC(2026, 0, 1 + i)))));
    assert.equal(all.filter((r) => r?.revokedNow).length, 1, 'exactly one revocation is the one that revoked');
    assert.equal(new Set(all.map((r) => r?.key.revokedAt)).size, 1, 'and every answer has its time');
  });

  test('a key is read with a connection of its own organisation only', async () => {
    const store = await fresh();
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

  test('a key read again after any change sees the change: made through another store on the database, or through this one', async () => {
    const [gateway, operator] = await subject.twoOnOneDatabase();
    opened.push(gateway, operator);
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
    const within = subject.changeHeardWithinMs;

    assert.equal((await read())?.key.revokedAt, null);
    assert.equal((await read())?.key.revokedAt, null, 'read again while nothing changed');
    assert.ok(Object.isFrozen((await read())?.key), 'what requests share cannot be changed by one of them');
    await operator.setDefaultCompany(org.id, hq.id, 'NWIND');
    assert.equal(
      (await readUntil(read, (f) => f?.connection?.defaultCompany === 'NWIND', within))?.connection?.defaultCompany,
      'NWIND',
      'a connection edited elsewhere',
    );
    await operator.setWriteWhitelist(org.id, hq.id, ['customers']);
    assert.deepEqual((await readUntil(read, (f) => f?.connection?.writeWhitelist.length === 1, within))?.connection?.writeWhitelist, [
      'customers',
    ]);
    // A rotation with an overlap elsewhere, then its end brought forward elsewhere: the old secret is
    // found, then not (PostgreSQL: the trigger's columns include the previous secret's).
    await operator.rotateApiKey({
      orgId: org.id,
      id: key.id,
      mode: 'live',
      prefix: 'lb_live_OVER',
      secretHash: hash('o'),
      at: new Date(),
      keepOldUntil: new Date('2031-01-01T00:00:00Z'),
    });
    assert.equal((await readUntil(read, (f) => f?.key.prefix === 'lb_live_OVER', within))?.key.previousSecretHash, key.secretHash);
    await operator.endApiKeyOverlap(org.id, key.id);
    assert.equal(await readUntil(read, (f) => f === null, within), null, 'an overlap ended elsewhere');
    const readRotated = () => gateway.findApiKeyWithConnection(hash('o'), hq.id);
    await operator.revokeApiKey(key.id, new Date('2026-02-01T00:00:00Z'));
    assert.equal(
      (await readUntil(readRotated, (f) => f?.key.revokedAt !== null, within))?.key.revokedAt,
      '2026-02-01T00:00:00.000Z',
      'a key revoked elsewhere',
    );

    const readOther = () => gateway.findApiKeyWithConnection(other.secretHash, null);
    assert.equal((await readOther())?.key.revokedAt, null);
    // A write request's Idempotency-Key records, written through this store between two reads of its
    // key, must not make the store miss what changes after them.
    const at = new Date();
    const claim = { orgId: org.id, key: 'k-remembered', fingerprint: 'f', operationId: 'op_1', at };
    await gateway.claimIdempotencyKey({
      ...claim,
      leaseUntil: new Date(at.getTime() + 1000),
      expiresAt: new Date(at.getTime() + 86_400_000),
    });
    assert.equal((await readOther())?.key.revokedAt, null, 'read again after an idempotency record');
    await gateway.completeIdempotencyKey(org.id, 'k-remembered', 'op_1', { kind: 'created', record: Buffer.from('{}') });
    await gateway.revokeApiKey(other.id, new Date('2026-03-01T00:00:00Z'));
    assert.equal((await readOther())?.key.revokedAt, '2026-03-01T00:00:00.000Z', 'a key revoked through this store: at once');
    const rotated = await operator.rotateApiKey({
      orgId: org.id,
      id: key.id,
      mode: 'live',
      prefix: 'lb_live_R',
      secretHash: hash('r'),
      at: new Date(),
    });
    assert.equal(rotated, null, 'a revoked key is not rotated');
  });

  test('keys are listed per organisation, oldest first', async () => {
    const store = await fresh();
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
  });

  test('limits change field by field; null restores the default', async () => {
    const store = await fresh();
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
  });

  test("default company and write whitelist change only the organisation's own connection", async () => {
    const store = await fresh();
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
  });

  test('agent tokens: found by hash, held or not, replaced or revoked; never the sandbox', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Tokens');
    const conn = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: hash('1'), defaultCompany: null });
    assert.deepEqual(await store.findConnectionByAgentTokenHash(hash('1')), conn);
    assert.deepEqual(await store.agentTokenHashesHeld([hash('1'), hash('2')]), new Set([hash('1')]));
    assert.deepEqual(await store.agentTokenHashesHeld([]), new Set());
    assert.deepEqual(await store.setAgentTokenHash(org.id, conn.id, hash('2')), { ...conn, agentTokenHash: hash('2') });
    assert.equal(await store.findConnectionByAgentTokenHash(hash('1')), null, 'the old token opens nothing');
    assert.equal((await store.setAgentTokenHash(org.id, conn.id, null))?.agentTokenHash, null);
    assert.deepEqual(await store.agentTokenHashesHeld([hash('1'), hash('2')]), new Set());
    assert.equal(await store.setAgentTokenHash(org.id, 'sandbox', hash('3')), null);
    assert.equal(await store.setAgentTokenHash(org.id, 'conn_unknown', hash('3')), null);
  });

  test('agent tokens with an overlap: the old token opens the connection and is held until its end; a revocation or a later rotation ends it', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Token overlap');
    const conn = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: hash('1'), defaultCompany: null });
    const until = new Date('2031-01-01T00:00:00Z');
    const before = new Date('2030-12-31T23:59:59Z');
    const after = new Date('2031-01-01T00:00:00Z');
    await store.setAgentTokenHash(org.id, conn.id, hash('2'), until);
    assert.equal((await store.findConnectionByAgentTokenHash(hash('1'), before))?.id, conn.id, 'the old token, before the end');
    assert.equal(await store.findConnectionByAgentTokenHash(hash('1'), after), null, 'and not from the end on');
    assert.equal((await store.findConnectionByAgentTokenHash(hash('2'), after))?.id, conn.id, 'the new one');
    assert.deepEqual(await store.agentTokenHashesHeld([hash('1'), hash('2'), hash('3')], before), new Set([hash('1'), hash('2')]));
    assert.deepEqual(await store.agentTokenHashesHeld([hash('1'), hash('2')], after), new Set([hash('2')]));
    assert.deepEqual(await store.agentTokenHashesHeld([hash('1')], before), new Set([hash('1')]), 'asked for the old one alone');
    const listed = async () => (await store.listConnections(org.id)).find((c) => c.id === conn.id)!;
    assert.equal((await listed()).previousAgentTokenUntil, until.toISOString(), 'the end is listed');

    await store.setAgentTokenHash(org.id, conn.id, hash('3'), until);
    assert.deepEqual(
      await store.agentTokenHashesHeld([hash('1'), hash('2'), hash('3')], before),
      new Set([hash('2'), hash('3')]),
      'a later rotation keeps only the token it replaces',
    );
    assert.equal((await store.endAgentTokenOverlap(org.id, conn.id))?.id, conn.id);
    assert.deepEqual(await store.agentTokenHashesHeld([hash('2'), hash('3')], before), new Set([hash('3')]), 'ended now');
    assert.equal((await listed()).previousAgentTokenUntil, null);

    await store.setAgentTokenHash(org.id, conn.id, hash('4'), until);
    await store.setAgentTokenHash(org.id, conn.id, null);
    assert.deepEqual(await store.agentTokenHashesHeld([hash('3'), hash('4')], before), new Set(), 'a revocation ends both');
    assert.equal(await store.endAgentTokenOverlap(org.id, 'sandbox'), null);
  });

  test('a dashboard session keeps one sealed message for its next view; of two views at once, one takes it', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Flashing');
    const user = (await store.createUser({ orgId: org.id, email: 'flash@example.com', role: 'admin' }))!;
    await store.createDashboardSession({ idHash: hash('f'), userId: user.id, at: new Date() });
    assert.equal(await store.takeDashboardFlash(hash('f')), null, 'none yet');
    await store.setDashboardFlash(hash('f'), 'sealed-1');
    await store.setDashboardFlash(hash('f'), 'sealed-2');
    const taken = await Promise.all([store.takeDashboardFlash(hash('f')), store.takeDashboardFlash(hash('f'))]);
    assert.deepEqual(
      taken.filter((t) => t !== null),
      ['sealed-2'],
      'the last one set, once',
    );
    assert.equal(await store.takeDashboardFlash(hash('f')), null, 'gone once taken');
    await store.setDashboardFlash(hash('f'), 'sealed-3');
    await store.setDashboardFlash(hash('f'), null);
    assert.equal(await store.takeDashboardFlash(hash('f')), null, 'dropped');
    await store.setDashboardFlash(hash('x'), 'nobody');
    assert.equal(await store.takeDashboardFlash(hash('x')), null, 'no session, nothing kept');
  });

  test('agent presence: connected agents, last seen, version and host; stale sessions stop counting', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Present');
    const conn = await store.createConnection({ orgId: org.id, name: 'HQ', agentTokenHash: hash('1'), defaultCompany: 'TWO' });
    const listed = async () => (await store.listConnections(org.id)).find((c) => c.id === conn.id)!;
    const presence = async () => (await listed()).presence;
    assert.deepEqual(await presence(), { connectedAgents: 0, lastSeenAt: null, agentVersion: null, agentHost: null, companies: [] });

    const t0 = new Date();
    const session = { connectionId: conn.id, gatewayId: 'gw_1', companies: ['TWO', 'NWIND'], at: t0 };
    const details = {
      platform: 'linux',
      dialect: 'mssql',
      gpVersion: '18.5',
      database: 'ok' as const,
      databaseMessage: null,
      draining: false,
    };
    await store.recordAgentConnected({ ...session, id: 'as_1', agentVersion: '0.1.0', agentHost: 'gp01' });
    await store.recordAgentConnected({
      ...session,
      id: 'as_2',
      agentVersion: '0.2.0',
      agentHost: 'gp02',
      details,
      at: new Date(t0.getTime() + 1),
    });
    assert.deepEqual(await presence(), {
      connectedAgents: 2,
      lastSeenAt: new Date(t0.getTime() + 1).toISOString(),
      agentVersion: '0.2.0',
      agentHost: 'gp02',
      companies: ['TWO', 'NWIND'],
    });
    assert.deepEqual(
      (await listed()).agents.map((a) => [a.agentHost, a.details]),
      [
        ['gp02', details],
        ['gp01', null],
      ],
      'newest first, with what each reported',
    );
    const t1 = new Date(t0.getTime() + 1000);
    await store.recordAgentsSeen(['as_1'], t1);
    assert.equal((await presence()).lastSeenAt, t1.toISOString());
    const draining = { ...details, draining: true };
    await store.recordAgentDetails('as_2', { companies: ['TWO'], details: draining }, new Date(t0.getTime() + 1500));
    assert.deepEqual((await listed()).agents.find((a) => a.agentHost === 'gp02')?.details, draining);
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
    assert.deepEqual((await listed()).lastAgentDetails, draining, 'what the last agent reported stays');

    // A gateway that died without a goodbye: its session is not counted once stale, and is swept.
    const longAgo = new Date(Date.now() - AGENT_PRESENCE_STALE_MS - 1000);
    await store.recordAgentConnected({ ...session, id: 'as_dead', agentVersion: '0.1.0', agentHost: 'gp01', at: longAgo });
    assert.equal((await presence()).connectedAgents, 0);
    await store.recordAgentConnected({ ...session, id: 'as_3', agentVersion: '0.3.0', agentHost: 'gp03', at: new Date() });
    assert.equal((await presence()).connectedAgents, 1);
  });

  test("the built-in agent's presence shows on every organisation's sandbox", async () => {
    const store = await fresh();
    const a = await createOrganisationWithSandbox(store, 'Alpha');
    const b = await createOrganisationWithSandbox(store, 'Beta');
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
  });

  test('users: an email is unique within its organisation whatever its case, and may be a user of several; roles, removal with their sessions', async () => {
    const store = await fresh();
    const a = await store.createOrganisation('Alpha');
    const b = await store.createOrganisation('Beta');
    const ann = await store.createUser({ orgId: a.id, email: 'Ann@Example.com', role: 'admin' });
    assert.equal(ann?.email, 'ann@example.com');
    assert.equal(await store.createUser({ orgId: a.id, email: 'ANN@example.com', role: 'viewer' }), null, 'twice in one organisation');
    const annOfBeta = await store.createUser({ orgId: b.id, email: 'ANN@example.com', role: 'viewer' });
    assert.deepEqual(
      [annOfBeta?.orgId, annOfBeta?.email, annOfBeta?.role],
      [b.id, 'ann@example.com', 'viewer'],
      'another organisation: a user of its own',
    );
    assert.notEqual(annOfBeta!.id, ann!.id);
    assert.deepEqual(await store.findUser(ann!.id), ann);
    assert.deepEqual(await store.findUsersForSignIn('ann@EXAMPLE.com'), [
      { user: ann, passwordHash: null },
      { user: annOfBeta, passwordHash: null },
    ]);
    assert.deepEqual(await store.findUsersForSignIn('nobody@example.com'), []);
    await store.setUserPassword(annOfBeta!.id, 'scrypt$beta');
    assert.deepEqual(
      (await store.findUsersForSignIn('ann@example.com')).map((f) => f.passwordHash),
      [null, 'scrypt$beta'],
      "one organisation's password is not the other's",
    );
    assert.equal(await store.removeUser(b.id, annOfBeta!.id), true);
    assert.equal(await store.setUserRole(b.id, ann!.id, 'viewer'), null, 'another organisation');
    assert.equal((await store.setUserRole(a.id, ann!.id, 'viewer'))?.role, 'viewer');
    await store.setUserPassword(ann!.id, 'scrypt$hash');
    assert.equal((await store.findUser(ann!.id))?.hasPassword, true);
    await store.createDashboardSession({ idHash: hash('s'), userId: ann!.id, at: new Date() });
    assert.equal(await store.removeUser(b.id, ann!.id), false);
    assert.equal(await store.removeUser(a.id, ann!.id), true);
    assert.equal(await store.findDashboardSession(hash('s')), null, "a removed user's sessions end");
    assert.deepEqual(await store.listUsers(a.id), []);
  });

  test('oauth: a code is spent once (a replay revokes its grant), refresh tokens rotate (a replayed one revokes), revocation is immediate', async () => {
    const store = await fresh();
    const org = await createOrganisationWithSandbox(store, 'OAuth');
    const other = await store.createOrganisation('OAuth other');
    const user = (await store.createUser({ orgId: org.id, email: 'oa@example.com', role: 'admin' }))!;
    await store.saveOAuthClient('client-1', { client_name: 'Claude', redirect_uris: ['https://example.com/cb'] }, new Date());
    assert.deepEqual(await store.findOAuthClient('client-1'), { client_name: 'Claude', redirect_uris: ['https://example.com/cb'] });
    assert.equal(await store.findOAuthClient('client-2'), null);

    const t0 = new Date('2026-05-01T10:00:00Z');
    const later = (s: number) => new Date(t0.getTime() + s * 1000);
    const tokens = (c: string) => ({
      accessHash: hash(c),
      accessExpiresAt: later(3600),
      refreshHash: hash(c.toUpperCase()),
      refreshExpiresAt: later(86400),
    });
    const newGrant = (codeChar: string) =>
      store.createOAuthGrant({
        orgId: org.id,
        userId: user.id,
        clientId: 'client-1',
        clientName: 'Claude',
        connectionId: 'sandbox',
        scopes: ['read'],
        resource: 'http://localhost/mcp',
        codeHash: hash(codeChar),
        codeChallenge: 'challenge',
        redirectUri: 'https://example.com/cb',
        codeExpiresAt: later(60),
        at: t0,
      });
    const grant = await newGrant('1');
    assert.equal(grant.userEmail, 'oa@example.com');
    assert.deepEqual(await store.listOAuthGrants(org.id, t0), [], 'a grant whose code was never exchanged is no connected app');
    assert.equal(await store.findOAuthCode(hash('1'), 'client-2', t0), null, "another client's code");
    assert.equal(await store.findOAuthCode(hash('1'), 'client-1', later(61)), null, 'an expired code');
    assert.equal((await store.findOAuthCode(hash('1'), 'client-1', t0))?.codeChallenge, 'challenge');

    assert.equal(await store.redeemOAuthCode(hash('1'), 'client-1', tokens('a'), later(61)), null, 'expired');
    const redeemed = await Promise.all([1, 2, 3].map(() => store.redeemOAuthCode(hash('1'), 'client-1', tokens('a'), t0)));
    assert.equal(redeemed.filter(Boolean).length, 1, 'of exchanges at once, one spends the code');
    // The others were replays: the grant is revoked.
    assert.equal(await store.findOAuthAccess(hash('a')), null);

    const second = await newGrant('2');
    assert.equal((await store.redeemOAuthCode(hash('2'), 'client-1', tokens('b'), t0))?.id, second.id);
    const access = await store.findOAuthAccess(hash('b'));
    assert.equal(access?.grant.id, second.id);
    assert.equal(access?.connection?.id, 'sandbox');
    assert.equal(access?.accessExpiresAt, later(3600).toISOString());
    assert.deepEqual(
      (await store.listOAuthGrants(org.id, t0)).map((g) => g.id),
      [second.id],
    );

    assert.equal(await store.rotateOAuthRefreshToken(hash('B'), 'client-2', tokens('c'), t0), null, "another client's refresh token");
    assert.equal((await store.rotateOAuthRefreshToken(hash('B'), 'client-1', tokens('c'), later(10)))?.id, second.id);
    assert.equal(await store.findOAuthAccess(hash('b')), null, 'the old access token stops at rotation');
    assert.equal((await store.findOAuthAccess(hash('c')))?.grant.id, second.id);
    assert.equal(await store.rotateOAuthRefreshToken(hash('B'), 'client-1', tokens('d'), later(20)), null, 'the replaced refresh token');
    assert.equal(await store.findOAuthAccess(hash('c')), null, 'its replay revoked the grant');

    const third = await newGrant('3');
    await store.redeemOAuthCode(hash('3'), 'client-1', tokens('e'), t0);
    await store.touchOAuthGrant(third.id, later(5));
    assert.equal((await store.listOAuthGrants(org.id, t0))[0]?.lastUsedAt, later(5).toISOString());
    assert.deepEqual(await store.listOAuthGrants(org.id, later(86401)), [], 'a grant past its refresh token is no longer connected');
    assert.equal(await store.revokeOAuthGrant(other.id, third.id, t0), null, 'another organisation');
    assert.equal((await store.revokeOAuthGrant(org.id, third.id, later(6)))?.revokedAt, later(6).toISOString());
    assert.equal(await store.revokeOAuthGrant(org.id, third.id, later(7)), null, 'already revoked');
    assert.equal(await store.findOAuthAccess(hash('e')), null);
    assert.equal(await store.rotateOAuthRefreshToken(hash('E'), 'client-1', tokens('f'), later(8)), null);

    await newGrant('4');
    await store.redeemOAuthCode(hash('4'), 'client-1', tokens('g'), t0);
    assert.equal(await store.revokeOAuthToken(hash('G'), 'client-2', t0), false, "another client's token");
    assert.equal(await store.revokeOAuthToken(hash('G'), 'client-1', t0), true);
    assert.equal(await store.findOAuthAccess(hash('g')), null);

    const fifth = await newGrant('5');
    await store.redeemOAuthCode(hash('5'), 'client-1', tokens('h'), t0);
    assert.equal((await store.findOAuthAccess(hash('h')))?.grant.id, fifth.id);
    await store.removeUser(org.id, user.id);
    assert.equal(await store.findOAuthAccess(hash('h')), null, "a removed user's apps reach nothing");
    assert.equal(await store.rotateOAuthRefreshToken(hash('H'), 'client-1', tokens('i'), t0), null);
  });

  test('dashboard sessions: found with their user, touched, ended one by one, all at once, and by a new password', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Sessions');
    const user = (await store.createUser({ orgId: org.id, email: 'bo@example.com', role: 'admin' }))!;
    const t0 = new Date('2026-05-01T10:00:00Z');
    for (const c of ['1', '2', '3']) await store.createDashboardSession({ idHash: hash(c), userId: user.id, at: t0 });
    assert.deepEqual(await store.findDashboardSession(hash('1')), { user, createdAt: t0.toISOString(), lastSeenAt: t0.toISOString() });
    await store.touchDashboardSession(hash('1'), new Date('2026-05-01T11:00:00Z'));
    assert.equal((await store.findDashboardSession(hash('1')))?.lastSeenAt, '2026-05-01T11:00:00.000Z');
    await store.deleteDashboardSession(hash('1'));
    assert.equal(await store.findDashboardSession(hash('1')), null);
    assert.ok(await store.findDashboardSession(hash('2')));
    await store.deleteDashboardSessionsOf(user.id);
    assert.equal(await store.findDashboardSession(hash('2')), null);
    await store.createDashboardSession({ idHash: hash('4'), userId: user.id, at: t0 });
    await store.setUserPassword(user.id, 'scrypt$new');
    assert.equal(await store.findDashboardSession(hash('4')), null, 'a changed password signs out everywhere');
    await store.recordSignIn(user.id, new Date('2026-05-02T00:00:00Z'));
    assert.equal((await store.findUser(user.id))?.lastSignInAt, '2026-05-02T00:00:00.000Z');
  });

  test('a sign-in link is spent once, even by many requests at once; expired or unknown links give nothing', async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Links');
    const user = (await store.createUser({ orgId: org.id, email: 'cy@example.com', role: 'viewer' }))!;
    const at = new Date();
    const expiresAt = new Date(at.getTime() + 60_000);
    await store.createSignInLink({ tokenHash: hash('l'), userId: user.id, expiresAt, at });
    const spent = await Promise.all(Array.from({ length: 12 }, () => store.useSignInLink(hash('l'), new Date())));
    assert.deepEqual(
      spent.filter((u) => u !== null),
      [user],
      'exactly one request spends it',
    );
    assert.equal(await store.useSignInLink(hash('l'), new Date()), null);
    await store.createSignInLink({ tokenHash: hash('e'), userId: user.id, expiresAt, at });
    assert.equal(await store.useSignInLink(hash('e'), new Date(expiresAt.getTime() + 1)), null, 'expired');
    assert.equal(await store.useSignInLink(hash('u'), new Date()), null, 'unknown');
  });

  test('the audit log: newest first per organisation, details as recorded', async () => {
    const store = await fresh();
    const a = await store.createOrganisation('Alpha');
    const b = await store.createOrganisation('Beta');
    const entry = { orgId: a.id, at: '2026-05-01T10:00:00.000Z', actor: 'operator CLI', target: 'key_1', address: null };
    await store.recordAudit({ ...entry, action: 'key.created', details: { scopes: ['read'], mode: 'live' } });
    await store.recordAudit({ ...entry, action: 'key.revoked', details: null, address: '192.0.2.1' });
    await store.recordAudit({ ...entry, orgId: b.id, action: 'key.created', details: null });
    const listed = await store.listAudit(a.id, 10);
    assert.deepEqual(
      listed.map(({ id: _id, ...rest }) => rest),
      [
        { ...entry, action: 'key.revoked', details: null, address: '192.0.2.1' },
        { ...entry, action: 'key.created', details: { scopes: ['read'], mode: 'live' } },
      ],
    );
    assert.ok(listed[0]!.id > listed[1]!.id);
    assert.equal((await store.listAudit(a.id, 1)).length, 1);
  });

  test('the audit log filtered by actor, action and a time range, each bound as given (since inclusive, before exclusive)', async () => {
    const store = await fresh();
    const a = await store.createOrganisation('Alpha');
    const b = await store.createOrganisation('Beta');
    const entry = { orgId: a.id, target: 'key_1', details: null, address: null };
    await store.recordAudit({ ...entry, at: '2026-05-01T10:00:00.000Z', actor: 'ann@a.example', action: 'key.created' });
    await store.recordAudit({ ...entry, at: '2026-05-02T00:00:00.000Z', actor: 'ann@a.example', action: 'key.rotated' });
    await store.recordAudit({ ...entry, at: '2026-05-02T23:59:59.999Z', actor: 'API key key_9', action: 'record.created' });
    await store.recordAudit({ ...entry, at: '2026-05-03T00:00:00.000Z', actor: 'ann@a.example', action: 'key.rotated' });
    await store.recordAudit({ ...entry, orgId: b.id, at: '2026-05-02T12:00:00.000Z', actor: 'ann@a.example', action: 'key.rotated' });
    const ats = async (filter: Parameters<typeof store.listAudit>[2]) => (await store.listAudit(a.id, 10, filter)).map((e) => e.at);
    assert.deepEqual(await ats({ actor: 'ann@a.example' }), [
      '2026-05-03T00:00:00.000Z',
      '2026-05-02T00:00:00.000Z',
      '2026-05-01T10:00:00.000Z',
    ]);
    assert.deepEqual(await ats({ action: 'key.rotated' }), ['2026-05-03T00:00:00.000Z', '2026-05-02T00:00:00.000Z']);
    assert.deepEqual(await ats({ since: '2026-05-02T00:00:00.000Z', before: '2026-05-03T00:00:00.000Z' }), [
      '2026-05-02T23:59:59.999Z',
      '2026-05-02T00:00:00.000Z',
    ]);
    assert.deepEqual(
      await ats({ actor: 'ann@a.example', action: 'key.rotated', since: '2026-05-02T00:00:00.000Z', before: '2026-05-03T00:00:00.000Z' }),
      ['2026-05-02T00:00:00.000Z'],
    );
    assert.deepEqual(await ats({ actor: 'nobody' }), []);

    // Keyset paging: the page after an entry is the entries older than it, with the same filters.
    const [newest, second] = await store.listAudit(a.id, 2, { actor: 'ann@a.example' });
    assert.deepEqual(await ats({ actor: 'ann@a.example', beforeId: newest!.id }), ['2026-05-02T00:00:00.000Z', '2026-05-01T10:00:00.000Z']);
    assert.deepEqual(await ats({ actor: 'ann@a.example', action: 'key.rotated', beforeId: second!.id }), []);
    const all = await store.listAudit(a.id, 10);
    assert.deepEqual(
      await ats({ beforeId: all[1]!.id }),
      all.slice(2).map((e) => e.at),
    );
  });

  test(`usage: counts add up across batches; each organisation's log keeps its newest ${USAGE_LOG_KEPT.toLocaleString('en')} requests`, async () => {
    const store = await fresh();
    const org = await store.createOrganisation('Busy');
    const other = await store.createOrganisation('Quiet');
    const day = { orgId: org.id, keyId: 'key_a', day: '2026-11-24', statusClass: '2xx', requests: 5 };
    await store.recordUsage({ daily: [day, { ...day, statusClass: '4xx', requests: 1 }, { ...day, day: '2026-10-01' }], requests: [] });
    await store.recordUsage({ daily: [day, { ...day, orgId: other.id }], requests: [] });
    assert.deepEqual(
      (await store.listDailyUsage(org.id, '2026-11-01')).map((d) => [d.day, d.statusClass, d.requests]),
      [
        ['2026-11-24', '2xx', 10],
        ['2026-11-24', '4xx', 1],
      ],
    );
    const request = (orgId: string, i: number): RequestRecord => ({
      orgId,
      at: new Date(Date.UTC(2026, 10, 24, 10, 0, 0, i)).toISOString(),
      keyId: i % 2 ? 'key_a' : 'key_b',
      keyPrefix: 'lb_live_AAAA',
      method: 'GET',
      object: 'customers',
      status: i % 3 ? 200 : 404,
      ms: 1.25,
      requestId: `req_${i}`,
    });
    await store.recordUsage({ daily: [], requests: Array.from({ length: USAGE_LOG_KEPT - 10 }, (_, i) => request(org.id, i)) });
    await store.recordUsage({
      daily: [],
      requests: [...Array.from({ length: 60 }, (_, i) => request(org.id, USAGE_LOG_KEPT - 10 + i)), request(other.id, 0)],
    });
    const kept = await store.listRecentRequests(org.id, { limit: USAGE_LOG_KEPT + 100 });
    assert.equal(kept.length, USAGE_LOG_KEPT);
    assert.deepEqual(
      [kept[0]!.requestId, kept.at(-1)!.requestId],
      [`req_${USAGE_LOG_KEPT + 49}`, 'req_50'],
      'newest first; the oldest 50 went',
    );
    assert.deepEqual(kept[0], request(org.id, USAGE_LOG_KEPT + 49));
    assert.deepEqual(
      (await store.listRecentRequests(other.id, { limit: 5 })).map((r) => r.requestId),
      ['req_0'],
      'organisations apart',
    );
    const detailed = {
      ...request(org.id, USAGE_LOG_KEPT + 100),
      connectionId: 'conn_a',
      recordId: 'NO-SUCH',
      errorCode: 'NOT_FOUND',
      path: '/v1/customers/NO-SUCH',
      errorMessage: 'No customer NO-SUCH.',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    };
    await store.recordUsage({ daily: [], requests: [detailed] });
    assert.deepEqual((await store.listRecentRequests(org.id, { limit: 1 }))[0], detailed, 'connection, record, error, path and trace kept');
    const byId = (orgId: string, requestId: string) => store.listRecentRequests(orgId, { requestId, limit: 1 });
    assert.deepEqual(await byId(org.id, detailed.requestId), [detailed], 'a request found by its id');
    assert.deepEqual(await byId(org.id, 'req_60'), [request(org.id, 60)], 'one written without the detail has none');
    assert.deepEqual(await byId(other.id, detailed.requestId), [], "another organisation's request is not found");
    assert.deepEqual(await byId(org.id, 'req_10'), [], 'nor one trimmed from the log');
    const ranged = await store.listRecentRequests(org.id, {
      since: request(org.id, 100).at,
      before: request(org.id, 103).at,
      limit: 10,
    });
    assert.deepEqual(
      ranged.map((r) => r.requestId),
      ['req_102', 'req_101', 'req_100'],
      'a time range: since included, before not',
    );
    const filtered = await store.listRecentRequests(org.id, { keyId: 'key_b', statusClass: '4xx', limit: 3 });
    assert.deepEqual(
      filtered.map((r) => [r.keyId, r.status]),
      [
        ['key_b', 404],
        ['key_b', 404],
        ['key_b', 404],
      ],
    );
  });

  test('idempotency keys: one claim wins, answers replay, lapsed leases resume, records expire', async () => {
    const store = await fresh();
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
    const result = { kind: 'created' as const, record: Buffer.from('{"id":"A","name":"Zürich"}') };
    assert.equal(await store.completeIdempotencyKey('org_a', 'k1', 'op_bbbbbbbbbbbbbbbb', result), false);
    assert.equal(await store.completeIdempotencyKey('org_a', 'k1', 'op_aaaaaaaaaaaaaaaa', result), true);
    assert.deepEqual(await claim('op_cccccccccccccccc', 'f1', later(5000)), { kind: 'completed', result });
    // GP's refusal is kept as one too, with the request that met it.
    const refusal = {
      code: 'VALIDATION_ERROR' as const,
      message: 'GP refused the document',
      details: { gp: [{ code: 4647, message: 'extended price' }] },
      requestId: 'req_first',
    };
    assert.deepEqual(await claim('op_rrrrrrrrrrrrrrrr', 'f1', t0, 'k-refused'), { kind: 'claimed' });
    assert.equal(await store.completeIdempotencyKey('org_a', 'k-refused', 'op_rrrrrrrrrrrrrrrr', { kind: 'refused', refusal }), true);
    assert.deepEqual(await claim('op_ssssssssssssssss', 'f1', later(10), 'k-refused'), {
      kind: 'completed',
      result: { kind: 'refused', refusal },
    });
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
    assert.equal(
      await store.deleteExpiredIdempotencyKeys(later(86_403_000)),
      3,
      'org_b k1, org_a k2 and k-refused expired; the new k1 lives',
    );
    assert.equal(await store.deleteExpiredIdempotencyKeys(later(86_403_000)), 0);
  });

  test('idempotency keys: of many claims of one new key at once, exactly one wins', async () => {
    const [a, b] = await subject.twoOnOneDatabase();
    opened.push(a, b);
    const at = new Date();
    const claims = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a : b).claimIdempotencyKey({
        orgId: 'org_race',
        key: 'same',
        fingerprint: 'f',
        operationId: `op_race_${String(i).padStart(8, '0')}`,
        at,
        leaseUntil: new Date(at.getTime() + 60_000),
        expiresAt: new Date(at.getTime() + 86_400_000),
      }),
    );
    const kinds = (await Promise.all(claims)).map((r) => r.kind).sort();
    assert.deepEqual(kinds, ['claimed', ...Array<string>(19).fill('in_flight')]);
  });

  const change = (recordId: string, version: string, extra: Partial<NewEvent> = {}): NewEvent => ({
    orgId: 'org_feed',
    connectionId: 'conn_1',
    company: 'TWO',
    type: 'customer.updated',
    object: 'customers',
    recordId,
    version,
    changedAt: version,
    data: { id: recordId, name: `Customer ${recordId}` },
    ...extra,
  });

  test('events: one per change however often reported, read in order by a cursor, filtered, found by id in their organisation only', async () => {
    const store = await fresh();
    const at = new Date('2026-03-01T10:00:00.000Z');
    const first = await store.appendEvents(
      [
        change('A', '2026-03-01T09:00:00.000Z', { type: 'customer.created' }),
        change('B', '2026-03-01T09:00:01.000Z'),
        change('V1', '2026-03-01T09:00:02.000Z', { type: 'vendor.updated', object: 'vendors' }),
        change('C', '2026-03-01T09:00:03.000Z', { company: 'THREE' }),
      ],
      at,
    );
    assert.deepEqual(
      first.map((e) => [e.type, e.recordId]),
      [
        ['customer.created', 'A'],
        ['customer.updated', 'B'],
        ['vendor.updated', 'V1'],
        ['customer.updated', 'C'],
      ],
    );
    assert.match(first[0]!.id, /^evt_[A-Za-z0-9_-]{16}$/);
    assert.deepEqual(first[0], {
      id: first[0]!.id,
      orgId: 'org_feed',
      connectionId: 'conn_1',
      company: 'TWO',
      type: 'customer.created',
      object: 'customers',
      recordId: 'A',
      changedAt: '2026-03-01T09:00:00.000Z',
      recordedAt: '2026-03-01T10:00:00.000Z',
      data: { id: 'A', name: 'Customer A' },
    });

    // The same changes again (a second agent of the connection, or a resend after a lost acknowledgement): nothing new.
    const again = await store.appendEvents([change('B', '2026-03-01T09:00:01.000Z'), change('A', '2026-03-01T09:00:00.000Z')], at);
    assert.deepEqual(again, []);
    // A later change of B is a new event; so is the same change in another connection or organisation.
    const later = await store.appendEvents(
      [
        change('B', '2026-03-01T09:05:00.000Z'),
        change('B', '2026-03-01T09:00:01.000Z', { connectionId: 'conn_2' }),
        change('B', '2026-03-01T09:00:01.000Z', { orgId: 'org_other' }),
      ],
      new Date('2026-03-02T10:00:00.000Z'),
    );
    assert.equal(later.length, 3);
    // Events of the connection itself have no version and never collide.
    const online = {
      ...change('', ''),
      type: 'connection.online',
      company: null,
      object: null,
      recordId: null,
      version: null,
      changedAt: null,
      data: null,
    };
    assert.equal((await store.appendEvents([online, online], new Date('2026-03-02T11:00:00.000Z'))).length, 2);

    // Paged by a cursor, oldest first, nothing twice and nothing left out.
    const seen: StoredEvent[] = [];
    let after: EventPosition | null = null;
    for (;;) {
      const page: EventPage = await store.listEvents({ orgId: 'org_feed', types: [], after, limit: 2 });
      if (page.events.length === 0) {
        assert.deepEqual(page.next, after, 'an empty page leaves the reader where it was');
        break;
      }
      seen.push(...page.events);
      after = page.next;
    }
    assert.deepEqual(
      seen.map((e) => `${e.type} ${e.connectionId} ${e.recordId}`),
      [
        'customer.created conn_1 A',
        'customer.updated conn_1 B',
        'vendor.updated conn_1 V1',
        'customer.updated conn_1 C',
        'customer.updated conn_1 B',
        'customer.updated conn_2 B',
        'connection.online conn_1 null',
        'connection.online conn_1 null',
      ],
    );
    const read = async (filter: Partial<EventQuery>) =>
      (await store.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 100, ...filter })).events.map((e) => e.recordId);
    assert.deepEqual(await read({ types: ['customer.*'] }), ['A', 'B', 'C', 'B', 'B']);
    assert.deepEqual(await read({ types: ['customer.created', 'vendor.*'] }), ['A', 'V1']);
    assert.deepEqual(await read({ types: ['connection.online'] }), [null, null]);
    assert.deepEqual(await read({ object: 'vendors' }), ['V1']);
    assert.deepEqual(await read({ connectionId: 'conn_2' }), ['B']);
    assert.deepEqual(await read({ excludeConnectionId: 'conn_1' }), ['B']);
    assert.deepEqual(await read({ company: 'THREE' }), ['C']);
    assert.deepEqual(await read({ since: '2026-03-02T10:00:00.000Z', types: ['customer.*'] }), ['B', 'B']);
    const sixth = (await store.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 6 })).next;
    assert.deepEqual(await read({ after: sixth }), [null, null], 'a position read back continues after it');

    assert.deepEqual(await store.findEvent('org_feed', first[1]!.id), first[1]);
    assert.equal(await store.findEvent('org_other', first[1]!.id), null, "another organisation's event is not found");
    assert.equal(await store.findEvent('org_feed', 'evt_nothing'), null);
  });

  test('events: those recorded before the retention limit are purged, the rest kept', async () => {
    const store = await fresh();
    await store.appendEvents([change('OLD', '2026-01-01T00:00:00.000Z')], new Date('2026-01-01T00:00:00.000Z'));
    await store.appendEvents([change('NEW', '2026-02-01T00:00:00.000Z')], new Date('2026-02-01T00:00:00.000Z'));
    assert.equal(await store.deleteEventsRecordedBefore(new Date('2026-01-15T00:00:00.000Z')), 1);
    assert.equal(await store.deleteEventsRecordedBefore(new Date('2026-01-15T00:00:00.000Z')), 0);
    const left = await store.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 10 });
    assert.deepEqual(
      left.events.map((e) => e.recordId),
      ['NEW'],
    );
  });

  test('events: two stores on one database storing the same changes at once keep each change once', async () => {
    const [a, b] = await subject.twoOnOneDatabase();
    opened.push(a, b);
    const changes = Array.from({ length: 40 }, (_, i) => change(`R${String(i).padStart(2, '0')}`, '2026-03-01T09:00:00.000Z'));
    const at = new Date();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).appendEvents(i % 3 ? changes : [...changes].reverse(), at)),
    );
    assert.equal(
      results.reduce((n, r) => n + r.length, 0),
      40,
      'of every change, exactly one report was stored',
    );
    const all = await a.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 100 });
    assert.deepEqual(
      all.events.map((e) => e.recordId).sort(),
      changes.map((c) => c.recordId),
    );
  });

  // Its stores are closed by each test when it ends: a PostgreSQL server has only so many connections.
  webhooksStoreContract(subject.fresh, subject.twoOnOneDatabase);
}
