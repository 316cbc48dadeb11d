import { test } from 'node:test';
import assert from 'node:assert/strict';
import {} from '../../infrastructure/store/store.ts';
import { hash, type RoleSuite } from './support.ts';

/** What the store must do for dashboard users, their sessions and sign-in links, and the audit log (roles/users.ts), on each engine. */
export function usersStoreContract({ fresh }: RoleSuite): void {
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
}
