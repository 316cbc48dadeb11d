import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { AGENT_PRESENCE_STALE_MS, type ApiKey, type KeyRotation, type Store } from '../../infrastructure/store/store.ts';
import { createOrganisationWithSandbox } from '../../core/admin/sandbox.ts';
import { hash, type RoleSuite } from './support.ts';

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

/** Rotates a live `key` of its organisation to a new secret. */
const rotate = (store: Store, key: ApiKey, change: Pick<KeyRotation, 'prefix' | 'secretHash' | 'at' | 'keepOldUntil'>) =>
  store.rotateApiKey({ orgId: key.orgId, id: key.id, mode: 'live', ...change });

/** Reads until `check` holds or `withinMs` passes (one read when 0); the last value read. */
async function readUntil<T>(read: () => Promise<T>, check: (value: T) => boolean, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() >= deadline) return value;
    await sleep(1);
  }
}

/** What the store must do for organisations, API keys, connections, agent tokens and agent presence (roles/keys.ts), on each engine. */
export function keysStoreContract({ fresh, twoOnOne, changeHeardWithinMs }: RoleSuite): void {
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
    const { key } = await orgWithKey(store, 'Rotating');
    assert.deepEqual((await store.findApiKeyWithConnection(key.secretHash, null))?.key, key, 'the key, remembered before rotation');
    const rotated = await rotate(store, key, { prefix: 'lb_live_BBBB', secretHash: hash('9'), at: new Date('2026-02-03T04:05:06Z') });
    assert.deepEqual(rotated, { ...key, prefix: 'lb_live_BBBB', secretHash: hash('9'), rotatedAt: '2026-02-03T04:05:06.000Z' });
    assert.equal(await store.findApiKeyWithConnection(key.secretHash, null), null, 'the old secret finds nothing');
    assert.deepEqual((await store.findApiKeyWithConnection(hash('9'), null))?.key ?? null, rotated);
  });

  test('rotation with an overlap: the old secret finds the key (with its end) in the one lookup, until a later rotation or the end is brought forward', async () => {
    const store = await fresh();
    const { org, key } = await orgWithKey(store, 'Overlapping');
    assert.equal((await store.findApiKeyWithConnection(key.secretHash, 'sandbox'))?.connection?.id, 'sandbox', 'remembered before');
    const until = new Date('2031-01-01T00:00:00Z');
    const rotated = await rotate(store, key, {
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
    const again = await rotate(store, key, { prefix: 'lb_live_CCCC', secretHash: hash('8'), at: new Date(), keepOldUntil: until });
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
    const plain = await rotate(store, key, { prefix: 'lb_live_D', secretHash: hash('7'), at: new Date() });
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
    const [gateway, operator] = await twoOnOne();
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
    const within = changeHeardWithinMs;

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
    await rotate(operator, key, {
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
    const rotated = await rotate(operator, key, { prefix: 'lb_live_R', secretHash: hash('r'), at: new Date() });
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
}
