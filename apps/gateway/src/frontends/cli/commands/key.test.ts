import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/auth/secrets.ts';
import { tempStore } from '../../../testing/tempStore.ts';
import { createKey, listKeys, parseScopes, revokeKey, rotateKey } from './key.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);

test('key create prints the secret once, alone on its line, and stores only its hash', async () => {
  const org = await admin.createOrganisation('Acme Ltd');
  const lines = await createKey(admin, { org: 'Acme Ltd', name: 'Production', mode: 'live', scopes: 'write, read' });
  const secret = lines[3]!;
  assert.match(secret, /^lb_live_[0-9A-Za-z]{32}$/);
  const [key] = await store.listApiKeys(org.id);
  assert.deepEqual(lines, [
    `Created live key ${key!.id} "Production" for "Acme Ltd" (${org.id}), scopes: read, write; it reaches the organisation's live connections.`,
    'The secret is shown this once; only its hash is kept, so copy it now:',
    '',
    secret,
    '',
  ]);
  assert.deepEqual(
    [key!.secretHash, key!.prefix, key!.scopes, key!.mode],
    [sha256Hex(secret), secret.slice(0, 12), ['read', 'write'], 'live'],
  );
  assert.equal(lines.join('\n').split(secret).length, 2, 'printed exactly once');
});

test('scopes are checked and put in a fixed order', () => {
  assert.deepEqual(parseScopes('mcp,READ'), ['read', 'mcp']);
  assert.throws(() => parseScopes('read,admin'), { message: 'unknown scope "admin"; scopes are read, write, mcp' });
  assert.throws(() => parseScopes(' , '), { message: 'give at least one scope: read, write, mcp' });
});

test('key list shows keys without secrets or hashes; key revoke says what it did, once', async () => {
  const org = await admin.createOrganisation('Listed');
  await createKey(admin, { org: org.id, name: 'Laptop', mode: 'test', scopes: 'read' });
  const [key] = await store.listApiKeys(org.id);
  const revoked = await revokeKey(admin, key!.id);
  assert.deepEqual(revoked, [
    `Revoked test key ${key!.id} "Laptop" (${key!.prefix}…) of "Listed" (${org.id}).`,
    'Requests with it are refused (401) from now on; this cannot be undone.',
  ]);
  const revokedAt = (await store.findApiKey(org.id, key!.id))!.revokedAt!;
  assert.deepEqual(await revokeKey(admin, key!.id), [
    `Key ${key!.id} "Laptop" was already revoked on ${revokedAt.slice(0, 19).replace('T', ' ')} UTC; nothing changed.`,
  ]);
  await assert.rejects(revokeKey(admin, 'key_nope'), {
    message: 'there is no key with the id "key_nope". List an organisation\'s keys with: gp-gateway key list --org <org>',
  });
  const lines = await listKeys(admin, 'Listed');
  assert.equal(lines.length, 3);
  assert.match(lines[1]!, /^ID +NAME +MODE +SCOPES +PREFIX +CREATED +LAST USED +STATUS$/);
  assert.match(lines[2]!, new RegExp(`^${key!.id} +Laptop +test +read +${key!.prefix} +.* UTC +never +revoked .* UTC$`));
  assert.equal(lines.join('\n').includes(key!.secretHash), false);
});

test('key list prints a name stored before the text rule escaped: it can neither clear the screen nor forge a row (issue 36)', async () => {
  const org = await admin.createOrganisation('Old names');
  // As an older release could store it: straight into the store, past the admin's checks.
  const raw = 'Evil\u001b[2J\u001b[H\r\nkey_forged  Forged  live\u202e\u0085';
  const key = await store.createApiKey({
    orgId: org.id,
    name: raw,
    mode: 'live',
    scopes: ['read'],
    prefix: 'lb_live_AAAA',
    secretHash: 'x'.repeat(64),
  });
  const lines = await listKeys(admin, org.id);
  assert.equal(lines.length, 3, 'one header, one row');
  assert.match(
    lines[2]!,
    new RegExp(`^${key.id} +Evil\\\\x1b\\[2J\\\\x1b\\[H\\\\x0d\\\\x0akey_forged  Forged  live\\\\u202e\\\\x85 +live +read `),
  );
  assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202e]/.test(lines.join('')), 'no control character is printed');
  const [header, row] = [lines[1]!, lines[2]!];
  assert.equal(row.indexOf(' live '), header.indexOf('MODE') - 1, 'the columns still line up');
});

test('key rotate prints the new secret once; with --keep-old-for the old one works until the time printed, and key list shows it', async () => {
  const org = await admin.createOrganisation('Rotated keys');
  const secret = (await createKey(admin, { org: org.id, name: 'CI', mode: 'live', scopes: 'read' }))[3]!;
  const [key] = await store.listApiKeys(org.id);
  const before = Date.now();
  const lines = await rotateKey(admin, { org: 'Rotated keys', id: key!.id, keepOldFor: '24h' });
  const fresh = lines[3]!;
  assert.match(fresh, /^lb_live_[0-9A-Za-z]{32}$/);
  const until = /The old one keeps working until (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC, then gets 401\.$/.exec(lines[0]!)?.[1];
  assert.ok(until, lines[0]);
  assert.ok(Math.abs(Date.parse(`${until.replace(' ', 'T')}Z`) - (before + 24 * 3600_000)) < 60_000, until);
  assert.equal(lines.join('\n').split(fresh).length, 2, 'printed exactly once');
  const stored = (await store.findApiKeyWithConnection(sha256Hex(secret), null))!.key;
  assert.deepEqual([stored.secretHash, stored.previousSecretHash], [sha256Hex(fresh), sha256Hex(secret)], 'only hashes are kept');
  assert.match((await listKeys(admin, org.id)).join('\n'), new RegExp(`CI .* active \\(old secret until ${until} UTC\\)$`, 'm'));

  const now = await rotateKey(admin, { org: org.id, id: key!.id });
  assert.match(now[0]!, /The old one gets 401 from now on\.$/);
  assert.equal((await store.findApiKey(org.id, key!.id))!.previousSecretHash, null, 'by default nothing is kept');
  await assert.rejects(rotateKey(admin, { org: 'Acme Ltd', id: key!.id }), /has no active key with the id/);
});
