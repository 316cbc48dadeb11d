import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../auth/secrets.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { AdminError } from './adminService.ts';

/** The service every front end calls: what it stores, what it refuses, and what it hands back once. */
const { store, admin, dispose } = await tempStore();
after(dispose);

test('a key is issued with its secret once; the store keeps its hash and prefix, never the secret', async () => {
  const org = await admin.createOrganisation('Keys Ltd');
  const { key, secret } = await admin.issueApiKey({ orgId: org.id, name: ' Production ', mode: 'live', scopes: ['MCP', 'read', 'read'] });
  assert.match(secret, /^lb_live_[0-9A-Za-z]{32}$/);
  assert.deepEqual(
    [key.name, key.mode, key.scopes, key.prefix, key.secretHash],
    ['Production', 'live', ['read', 'mcp'], secret.slice(0, 12), sha256Hex(secret)],
  );
  assert.deepEqual((await store.findApiKeyWithConnection(sha256Hex(secret), null))?.key, key);
  await assert.rejects(admin.issueApiKey({ orgId: org.id, name: '  ', mode: 'live', scopes: ['read'] }), AdminError);
  await assert.rejects(admin.issueApiKey({ orgId: org.id, name: 'x', mode: 'test', scopes: [] }), {
    message: 'give at least one scope: read, write, mcp',
  });
  await assert.rejects(admin.issueApiKey({ orgId: org.id, name: 'x', mode: 'test', scopes: ['admin'] }), {
    message: 'unknown scope "admin"; scopes are read, write, mcp',
  });
});

test('rotation gives a non-revoked key of the organisation a new secret; the old one stops working', async () => {
  const org = await admin.createOrganisation('Rotation Ltd');
  const other = await admin.createOrganisation('Elsewhere Ltd');
  const live = await admin.issueApiKey({ orgId: org.id, name: 'live', mode: 'live', scopes: ['read'] });
  const rotated = (await admin.rotateApiKey(org.id, live.key.id, { liveAllowed: true }))!;
  assert.notEqual(rotated.secret, live.secret);
  assert.deepEqual(
    { ...rotated.key, prefix: '', secretHash: '', rotatedAt: null },
    { ...live.key, prefix: '', secretHash: '', rotatedAt: null },
  );
  assert.equal(await store.findApiKeyWithConnection(sha256Hex(live.secret), null), null);
  assert.equal((await store.findApiKeyWithConnection(sha256Hex(rotated.secret), null))?.key.id, live.key.id);

  assert.equal(await admin.rotateApiKey(org.id, live.key.id, { liveAllowed: false }), null, 'a live key is not handed to a test key');
  assert.equal(await admin.rotateApiKey(other.id, live.key.id, { liveAllowed: true }), null, "another organisation's key");
  assert.equal(await admin.rotateApiKey(org.id, 'key_unknown', { liveAllowed: true }), null);
  await admin.revokeApiKey(live.key.id);
  assert.equal(await admin.rotateApiKey(org.id, live.key.id, { liveAllowed: true }), null, 'a revoked key');
});

test('a connection comes with its agent token once; company ids and whitelists are checked', async () => {
  const org = await admin.createOrganisation('Connections Ltd');
  const { connection, agentToken } = await admin.createConnection({ orgId: org.id, name: 'Head office', defaultCompany: ' two ' });
  assert.match(agentToken, /^lb_agent_[0-9A-Za-z]{32}$/);
  assert.deepEqual([connection.defaultCompany, connection.agentTokenHash], ['TWO', sha256Hex(agentToken)]);
  assert.equal((await store.findConnectionByAgentTokenHash(sha256Hex(agentToken)))?.id, connection.id);
  await assert.rejects(admin.createConnection({ orgId: org.id, name: 'Bad', defaultCompany: 'TOOLONG' }), AdminError);

  assert.deepEqual((await admin.setDefaultCompany(org.id, connection.id, 'nwind')).defaultCompany, 'NWIND');
  assert.deepEqual((await admin.setWriteWhitelist(org.id, connection.id, ['Customers', 'gl-entries', 'customers'])).writeWhitelist, [
    'customers',
    'gl-entries',
  ]);
  await assert.rejects(admin.setWriteWhitelist(org.id, connection.id, ['companies', 'widgets']), (error: AdminError) => {
    assert.deepEqual(error.problems, ['companies is read-only: v1 does not write it', 'there is no object named "widgets"']);
    return true;
  });
  await assert.rejects(admin.setWriteWhitelist(org.id, 'sandbox', ['customers']), {
    message: 'the sandbox is read-only; it has no write whitelist',
  });
  const foreign = await admin.createOrganisation('Not theirs Ltd');
  await assert.rejects(admin.setWriteWhitelist(foreign.id, connection.id, ['customers']), AdminError, "another organisation's connection");
  assert.deepEqual(
    (await store.findConnection(org.id, connection.id))?.writeWhitelist,
    ['customers', 'gl-entries'],
    'refusals changed nothing',
  );
});

test('limits are checked against their bounds; null goes back to the default', async () => {
  const org = await admin.createOrganisation('Limits Ltd');
  assert.deepEqual((await admin.setLimits(org.id, { requestsPerWindow: 300, windowSeconds: 60 })).limits, {
    requestsPerWindow: 300,
    windowSeconds: 60,
    maxInFlightPerConnection: null,
  });
  await assert.rejects(admin.setLimits(org.id, { maxInFlightPerConnection: 0 }), {
    message: 'requests in flight per connection must be a whole number from 1 to 1,000',
  });
  await assert.rejects(admin.setLimits(org.id, { windowSeconds: 1.5 }), AdminError);
  assert.deepEqual((await admin.setLimits(org.id, { requestsPerWindow: null })).limits, {
    requestsPerWindow: null,
    windowSeconds: 60,
    maxInFlightPerConnection: null,
  });
  await assert.rejects(admin.createOrganisation('Limits Ltd'), { message: `an organisation named "Limits Ltd" already exists: ${org.id}` });
});

test('an agent token is rotated (shown once) or revoked; the store then holds the new hash or none', async () => {
  const org = await admin.createOrganisation('Tokens Ltd');
  const foreign = await admin.createOrganisation('Thieves Ltd');
  const { connection, agentToken } = await admin.createConnection({ orgId: org.id, name: 'Head office' });
  const rotated = await admin.rotateAgentToken(org.id, connection.id);
  assert.match(rotated.agentToken, /^lb_agent_[0-9A-Za-z]{32}$/);
  assert.notEqual(rotated.agentToken, agentToken);
  assert.equal(await store.findConnectionByAgentTokenHash(sha256Hex(agentToken)), null);
  assert.equal((await store.findConnectionByAgentTokenHash(sha256Hex(rotated.agentToken)))?.id, connection.id);
  assert.deepEqual(
    await store.agentTokenHashesHeld([sha256Hex(agentToken), sha256Hex(rotated.agentToken)]),
    new Set([sha256Hex(rotated.agentToken)]),
  );

  assert.equal((await admin.revokeAgentToken(org.id, connection.id)).agentTokenHash, null);
  assert.equal(await store.findConnectionByAgentTokenHash(sha256Hex(rotated.agentToken)), null);
  assert.deepEqual(await store.agentTokenHashesHeld([sha256Hex(rotated.agentToken)]), new Set());
  const again = await admin.rotateAgentToken(org.id, connection.id);
  assert.equal(
    (await store.findConnectionByAgentTokenHash(sha256Hex(again.agentToken)))?.id,
    connection.id,
    'a revoked token is re-issued by rotation',
  );

  await assert.rejects(admin.rotateAgentToken(foreign.id, connection.id), {
    message: `the organisation has no connection with the id "${connection.id}"`,
  });
  await assert.rejects(admin.revokeAgentToken(foreign.id, connection.id), AdminError);
  await assert.rejects(admin.rotateAgentToken(org.id, 'sandbox'), {
    message: 'the sandbox is served by the built-in agent; it has no agent token',
  });
  assert.equal((await store.findConnectionByAgentTokenHash(sha256Hex(again.agentToken)))?.id, connection.id, 'refusals changed nothing');
  assert.deepEqual(
    (await admin.listAudit(org.id)).map((e) => e.action).filter((a) => a.startsWith('connection.agent-token')),
    ['connection.agent-token.rotated', 'connection.agent-token.revoked', 'connection.agent-token.rotated'],
  );
});

test('names follow the text rule of API write bodies: control, format and bidi characters are refused (issue 32)', async () => {
  const org = await admin.createOrganisation('Names Ltd');
  for (const name of ['Evil\u001b[2J', 'Evil\u202eoC', 'Evil\u200b', 'Evil\u0085']) {
    await assert.rejects(admin.createOrganisation(name), AdminError, JSON.stringify(name));
    await assert.rejects(admin.issueApiKey({ orgId: org.id, name, mode: 'live', scopes: ['read'] }), AdminError);
    await assert.rejects(admin.createConnection({ orgId: org.id, name, defaultCompany: null }), AdminError);
  }
  assert.equal((await admin.createOrganisation('Société Générale – 東京')).name, 'Société Générale – 東京');
});

test('a refused name or email says which character and where; names longer than the forms allow are refused (issue 36)', async () => {
  const org = await admin.createOrganisation('Lengths Ltd');
  await assert.rejects(admin.issueApiKey({ orgId: org.id, name: 'Evil\u001b[2J', mode: 'live', scopes: ['read'] }), {
    message: 'the name contains a control character (U+001B) at position 5',
  });
  await assert.rejects(admin.createConnection({ orgId: org.id, name: 'HQ\u202egpj.exe' }), {
    message: 'the name contains a bidirectional control character (U+202E) at position 3',
  });
  for (const name of ['x'.repeat(5000), 'x'.repeat(30_000)]) {
    const length = name.length.toLocaleString('en');
    const message = `the name must be at most 100 characters (it has ${length})`;
    await assert.rejects(admin.createOrganisation(name), { message });
    await assert.rejects(admin.issueApiKey({ orgId: org.id, name, mode: 'live', scopes: ['read'] }), { message });
    await assert.rejects(admin.createConnection({ orgId: org.id, name }), { message });
  }
  assert.equal((await admin.createConnection({ orgId: org.id, name: '東'.repeat(100) })).connection.name.length, 100);
  await assert.rejects(admin.inviteUser({ orgId: org.id, email: 'a\u0000b@example.com', role: 'viewer' }), {
    message: 'the email contains a control character (U+0000) at position 2',
  });
  await assert.rejects(admin.inviteUser({ orgId: org.id, email: `${'a'.repeat(250)}@example.com`, role: 'viewer' }), {
    message: 'the email must be at most 254 characters',
  });
  assert.deepEqual(await admin.listApiKeys(org.id), [], 'nothing refused was stored');
  assert.deepEqual(await admin.listUsers(org.id), []);
});

test('inviting an email another organisation uses works and says nothing of the other organisation (issue 36 item 4)', async () => {
  const first = await admin.createOrganisation('First tenant');
  const second = await admin.createOrganisation('Second tenant');
  const theirs = await admin.inviteUser({ orgId: first.id, email: 'shared@example.com', role: 'admin' });
  const ours = await admin.inviteUser({ orgId: second.id, email: 'Shared@Example.com', role: 'viewer' });
  assert.deepEqual([ours.user.orgId, ours.user.email, ours.user.role], [second.id, 'shared@example.com', 'viewer']);
  assert.notEqual(ours.user.id, theirs.user.id);
  assert.notEqual(ours.signInToken, theirs.signInToken);
  assert.deepEqual(
    (await admin.listUsers(second.id)).map((u) => u.email),
    ['shared@example.com'],
  );
  assert.equal((await admin.listUsers(first.id))[0]!.role, 'admin', "the other organisation's user is untouched");
  // Twice in one organisation is refused, naming only that organisation.
  await assert.rejects(admin.inviteUser({ orgId: second.id, email: 'shared@example.com', role: 'admin' }), {
    message: 'shared@example.com is already a user of this organisation',
  });
});
