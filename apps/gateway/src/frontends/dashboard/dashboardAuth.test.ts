import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { sha256Hex } from '../../core/auth/secrets.ts';
import { InMemoryTokenBucketLimiter } from '../../core/limits/tokenBucketLimiter.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { csrfTokenOf, DashboardAuth, SESSION_IDLE_MS } from './dashboardAuth.ts';

const { store, admin, file, dispose } = await tempStore();
after(dispose);

async function userWithPassword(email: string, password: string) {
  const org = await admin.createOrganisation(`Org of ${email}`);
  const invited = await admin.inviteUser({ orgId: org.id, email, role: 'admin' });
  const auth = new DashboardAuth(store, new InMemoryTokenBucketLimiter());
  const accepted = await auth.acceptSignInLink(invited.signInToken, password);
  assert.ok(accepted.ok);
  return { org, invited, auth, firstSession: accepted.sessionId };
}

test('a sign-in link sets the password once; it signs the user in; used or unknown links are refused', async () => {
  const org = await admin.createOrganisation('Links');
  const invited = await admin.inviteUser({ orgId: org.id, email: 'New@Example.com', role: 'viewer' });
  const auth = new DashboardAuth(store, new InMemoryTokenBucketLimiter());
  assert.deepEqual(await auth.acceptSignInLink(invited.signInToken, 'short'), {
    ok: false,
    problem: 'the password needs at least 10 characters',
  });
  const accepted = await auth.acceptSignInLink(invited.signInToken, 'a good long password');
  assert.ok(accepted.ok && accepted.user.email === 'new@example.com');
  assert.equal((await auth.session(accepted.sessionId))?.user.role, 'viewer');
  for (const token of [invited.signInToken, 'lb_link_unknown']) {
    const again = await auth.acceptSignInLink(token, 'another long password');
    assert.ok(!again.ok && /expired or was already used/.test(again.problem));
  }
  const [stored] = await store.findUsersForSignIn('new@example.com');
  assert.ok(stored?.passwordHash?.startsWith('scrypt$') && !stored.passwordHash.includes('good long'));
});

test('a user has one live sign-in link: a newer link, a password set or a sign-in ends the older ones', async () => {
  const org = await admin.createOrganisation('One link');
  const invited = await admin.inviteUser({ orgId: org.id, email: 'one-link@example.com', role: 'admin' });
  const auth = new DashboardAuth(store, new InMemoryTokenBucketLimiter());
  assert.equal(await auth.linkIsLive(invited.signInToken), true);
  const newer = await admin.newSignInLink(org.id, invited.user.id);
  assert.equal(await auth.linkIsLive(invited.signInToken), false, 'the older link ends when a newer one is made');
  const stolen = await auth.acceptSignInLink(invited.signInToken, 'the thief’s password');
  assert.ok(!stolen.ok, 'whoever holds the older link cannot set the password');
  assert.ok((await auth.acceptSignInLink(newer.signInToken, 'the owner’s password')).ok);
  assert.equal(await auth.linkIsLive(newer.signInToken), false, 'spent');

  // A link made, then the owner signs in with the password they know: the link is of no more use.
  const forgotten = await admin.newSignInLink(org.id, invited.user.id);
  assert.equal((await auth.signIn('one-link@example.com', 'the owner’s password', '10.9.0.1')).ok, true);
  assert.equal(await auth.linkIsLive(forgotten.signInToken), false, 'a sign-in ends the links');
  assert.equal(await auth.linkIsLive('lb_link_unknown'), false);
});

test('sign-in: one answer for a wrong password and an unknown email; each success is a new session', async () => {
  const { auth, firstSession } = await userWithPassword('signin@example.com', 'the right password');
  assert.deepEqual(await auth.signIn('signin@example.com', 'the wrong password', '10.0.0.1'), { ok: false, reason: 'refused' });
  assert.deepEqual(await auth.signIn('nobody@example.com', 'the right password', '10.0.0.1'), { ok: false, reason: 'refused' });
  const first = await auth.signIn('SIGNIN@example.com', 'the right password', '10.0.0.1');
  const second = await auth.signIn('signin@example.com', 'the right password', '10.0.0.1');
  assert.ok(first.ok && second.ok);
  assert.equal(new Set([firstSession, first.sessionId, second.sessionId]).size, 3, 'never a session id twice');
  assert.notEqual(csrfTokenOf(first.sessionId), csrfTokenOf(second.sessionId));
  assert.notEqual(csrfTokenOf(first.sessionId), sha256Hex(first.sessionId), 'the page token is not the stored hash');
  await auth.signOut(first.sessionId);
  assert.equal(await auth.session(first.sessionId), null);
  assert.ok(await auth.session(second.sessionId));
  await auth.signOutEverywhere(second.user.id);
  assert.equal(await auth.session(second.sessionId), null);
});

test('failed sign-ins are throttled per account and address; the owner elsewhere still signs in, and successes spend nothing', async () => {
  const { auth } = await userWithPassword('guessed@example.com', 'the right password');
  for (let i = 0; i < 5; i++)
    assert.deepEqual(await auth.signIn('guessed@example.com', `guess ${i}`, '10.0.1.1'), { ok: false, reason: 'refused' });
  const throttled = await auth.signIn('guessed@example.com', 'guess 6', '10.0.1.1');
  assert.ok(!throttled.ok && throttled.reason === 'throttled' && throttled.retryAfterSeconds > 0);
  assert.equal(
    (await auth.signIn('guessed@example.com', 'the right password', '10.0.2.1')).ok,
    true,
    'the guesser does not lock the owner out',
  );

  // An office behind one address: its people's sign-ins spend nothing, however many.
  const office = await userWithPassword('office@example.com', 'the office password');
  for (let i = 0; i < 30; i++) assert.equal((await office.auth.signIn('office@example.com', 'the office password', '10.0.3.1')).ok, true);
  // Guessing across accounts from one address stops after twenty failures in all.
  const results = [];
  for (let i = 0; i < 21; i++) results.push(await office.auth.signIn(`someone${i % 4}@example.com`, 'a guess', '10.0.4.1'));
  assert.deepEqual(
    results.map((r) => (r.ok ? 'ok' : r.reason)),
    [...Array(20).fill('refused'), 'throttled'],
  );
});

test('a session idle for 12 hours is over; a changed password ends every session', async () => {
  const { auth, invited, firstSession } = await userWithPassword('idle@example.com', 'the right password');
  const fresh = await auth.signIn('idle@example.com', 'the right password', '10.0.3.1');
  assert.ok(fresh.ok);
  const db = new Database(file);
  db.prepare('UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?').run(
    new Date(Date.now() - SESSION_IDLE_MS - 1000).toISOString(),
    sha256Hex(firstSession),
  );
  db.close();
  assert.equal(await auth.session(firstSession), null, 'idle too long');
  assert.ok(await auth.session(fresh.sessionId));
  const link = await admin.newSignInLink(invited.user.orgId, invited.user.id);
  assert.ok((await auth.acceptSignInLink(link.signInToken, 'a brand new password')).ok);
  assert.equal(await auth.session(fresh.sessionId), null, 'the password change signed it out');
});

test('one email in two organisations: each password opens its own; one password for both asks which, and the choice is proven', async () => {
  const [north, south] = [await admin.createOrganisation('North Ltd'), await admin.createOrganisation('South Ltd')];
  const auth = new DashboardAuth(store, new InMemoryTokenBucketLimiter());
  const join = async (orgId: string, password: string) => {
    const invited = await admin.inviteUser({ orgId, email: 'both@example.com', role: 'admin' });
    assert.ok((await auth.acceptSignInLink(invited.signInToken, password)).ok);
    return invited.user;
  };
  const northUser = await join(north.id, 'the north password');
  const southUser = await join(south.id, 'the south password');
  const intoNorth = await auth.signIn('both@example.com', 'the north password', '10.1.0.1');
  const intoSouth = await auth.signIn('both@example.com', 'the south password', '10.1.0.1');
  assert.ok(intoNorth.ok && intoSouth.ok);
  assert.deepEqual([intoNorth.user.id, intoSouth.user.id], [northUser.id, southUser.id]);
  assert.deepEqual(await auth.signIn('both@example.com', 'neither password', '10.1.0.1'), { ok: false, reason: 'refused' });

  // The same password for both: no session yet; the person picks, with the ticket as proof.
  const southLink = await admin.newSignInLink(south.id, southUser.id);
  assert.ok((await auth.acceptSignInLink(southLink.signInToken, 'the north password')).ok);
  const both = await auth.signIn('both@example.com', 'the north password', '10.1.0.1');
  assert.ok(!both.ok && both.reason === 'choose');
  assert.deepEqual(
    both.choices.map((c) => [c.userId, c.orgId]),
    [
      [northUser.id, north.id],
      [southUser.id, south.id],
    ],
  );
  const chosen = await auth.chooseOrganisation(both.ticket, southUser.id);
  assert.equal(chosen?.user.orgId, south.id);
  assert.equal((await auth.session(chosen!.sessionId))?.user.id, southUser.id);

  // A ticket proves nothing for a user it does not name, once altered, from another key, or after a password change.
  const stranger = await admin.inviteUser({ orgId: north.id, email: 'stranger@example.com', role: 'viewer' });
  assert.equal(await auth.chooseOrganisation(both.ticket, stranger.user.id), null);
  const [payload, mac] = both.ticket.split('.');
  const widened = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  widened.users[stranger.user.id] = 'x';
  assert.equal(
    await auth.chooseOrganisation(`${Buffer.from(JSON.stringify(widened)).toString('base64url')}.${mac}`, stranger.user.id),
    null,
  );
  assert.equal(await new DashboardAuth(store, new InMemoryTokenBucketLimiter()).chooseOrganisation(both.ticket, northUser.id), null);
  assert.equal(await auth.chooseOrganisation('garbage', northUser.id), null);
  const northLink = await admin.newSignInLink(north.id, northUser.id);
  assert.ok((await auth.acceptSignInLink(northLink.signInToken, 'a changed north password')).ok);
  assert.equal(await auth.chooseOrganisation(both.ticket, northUser.id), null, 'void once the password changed');
});

test("a form's message is shown once, by its own page, to its own session; the store holds it sealed", async () => {
  const { auth, firstSession } = await userWithPassword('flash@example.com', 'a long flash password');
  const other = await userWithPassword('flash-other@example.com', 'a long flash password');
  const secret = 'lb_live_0123456789abcdefghijklmnopqrstuv';
  await auth.keepFlash(firstSession, { page: 'keys', notice: 'made', secret: { title: 'The secret', value: secret, explanation: 'once' } });
  const db = new Database(file, { readonly: true });
  const sealed = db.prepare('SELECT flash FROM dashboard_sessions WHERE id_hash = ?').pluck().get(sha256Hex(firstSession)) as string;
  db.close();
  assert.ok(sealed && !sealed.includes(secret) && !Buffer.from(sealed, 'base64url').toString('latin1').includes(secret), 'sealed');
  assert.equal(await auth.takeFlash(other.firstSession, 'keys'), null, 'another session has none');
  assert.equal(await auth.takeFlash(firstSession, 'users'), null, 'another page does not take it ...');
  assert.equal((await auth.takeFlash(firstSession, 'keys'))?.secret?.value, secret, '... its own page does');
  assert.equal(await auth.takeFlash(firstSession, 'keys'), null, 'once');
});
