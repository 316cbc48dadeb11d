import { test } from 'node:test';
import assert from 'node:assert/strict';
import {} from '../../infrastructure/store/store.ts';
import { createOrganisationWithSandbox } from '../../core/admin/sandbox.ts';
import { hash, type RoleSuite } from './support.ts';

/** What the store must do for OAuth clients, grants and tokens for `/mcp` (roles/oauth.ts), on each engine. */
export function oauthStoreContract({ fresh }: RoleSuite): void {
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
}
