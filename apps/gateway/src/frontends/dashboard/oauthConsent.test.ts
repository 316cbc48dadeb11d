import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../../core/auth/passwords.ts';
import { sha256Hex } from '../../core/auth/secrets.ts';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';
import { csrfTokenOf } from './dashboardAuth.ts';

/**
 * The consent page's refusals over HTTP (the flow itself is e2e/oauth.test.ts, in chromium): a request
 * that does not check out is shown and never redirected, sign-in returns only to the consent page,
 * a viewer cannot let an app write, the connection must be the organisation's, and the page lets its
 * form go to the client's redirect origin only.
 */
let t: InProcessGateway;
let clientId = '';
let hq = '';
let foreign = '';
const REDIRECT = 'http://127.0.0.1:9/callback';
const sessions: Record<'admin' | 'viewer', string> = { admin: '', viewer: '' };
const PASSWORD = 'a long enough password';

before(async () => {
  t = await startInProcessGateway();
  const org = await t.admin.createOrganisation('Consent');
  const other = await t.admin.createOrganisation('Consent other');
  hq = (await t.admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' })).connection.id;
  foreign = (await t.admin.createConnection({ orgId: other.id, name: 'Theirs', defaultCompany: 'TWO' })).connection.id;
  for (const role of ['admin', 'viewer'] as const) {
    const user = (await t.store.createUser({ orgId: org.id, email: `${role}@consent.example`, role }))!;
    await t.store.setUserPassword(user.id, await hashPassword(PASSWORD));
    sessions[role] = randomBytes(24).toString('base64url');
    await t.store.createDashboardSession({ idHash: sha256Hex(sessions[role]), userId: user.id, at: new Date() });
  }
  const registered = await fetch(`${t.gateway.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Consent host', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  clientId = ((await registered.json()) as { client_id: string }).client_id;
});

after(() => t.close());

const request = (extra: Record<string, string> = {}) => ({
  client_id: clientId,
  redirect_uri: REDIRECT,
  code_challenge: createHash('sha256').update('verifier').digest('base64url'),
  code_challenge_method: 'S256',
  scope: 'read write',
  resource: `${t.gateway.url}/mcp`,
  state: 'st',
  ...extra,
});

async function page(query: Record<string, string>, as: 'admin' | 'viewer' | null) {
  const res = await fetch(`${t.gateway.url}/dashboard/oauth/authorize?${new URLSearchParams(query)}`, {
    headers: as ? { cookie: `__Host-gp_session=${sessions[as]}` } : {},
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

async function post(path: string, fields: Record<string, string | string[]>, as: 'admin' | 'viewer' | null) {
  const form = new URLSearchParams();
  const formToken = 'f'.repeat(40);
  for (const [name, value] of Object.entries({ ...fields, csrf: as ? csrfTokenOf(sessions[as]) : formToken })) {
    for (const one of [value].flat()) form.append(name, one);
  }
  const res = await fetch(`${t.gateway.url}/dashboard${path}`, {
    method: 'POST',
    headers: { cookie: as ? `__Host-gp_session=${sessions[as]}` : `__Host-gp_form=${formToken}` },
    body: form,
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

test('the consent page names the client, offers the organisation’s connections and lets its form reach the redirect origin only', async () => {
  const shown = await page(request(), 'admin');
  assert.equal(shown.status, 200);
  assert.match(shown.html, /Connect Consent host\?/);
  assert.match(shown.html, new RegExp(`value="${hq}"`));
  assert.match(shown.html, /value="sandbox"/);
  assert.doesNotMatch(shown.html, new RegExp(`value="${foreign}"`));
  assert.match(shown.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
});

test('a request that does not check out is shown, never redirected', async () => {
  const bads: Record<string, string>[] = [
    { redirect_uri: 'https://evil.example/callback' },
    { client_id: 'no-such-client' },
    { code_challenge_method: 'plain' },
  ];
  for (const bad of bads) {
    const shown = await page(request(bad), 'admin');
    assert.equal(shown.status, 400, JSON.stringify(bad));
    assert.equal(shown.headers.get('location'), null);
    assert.match(shown.html, /This sign-in request cannot be used/);
  }
});

test('signed out, the page asks to sign in and then returns to the consent page, never elsewhere', async () => {
  const shown = await page(request(), null);
  assert.equal(shown.status, 200);
  assert.match(shown.html, /action="\/dashboard\/oauth\/sign-in"/);
  const back = `/dashboard/oauth/authorize?${new URLSearchParams(request())}`;
  const signedIn = await post('/oauth/sign-in', { email: 'admin@consent.example', password: PASSWORD, next: back }, null);
  assert.equal(signedIn.status, 303);
  assert.equal(signedIn.location, back);
  const elsewhere = await post(
    '/oauth/sign-in',
    { email: 'admin@consent.example', password: PASSWORD, next: 'https://evil.example/' },
    null,
  );
  assert.equal(elsewhere.location, '/dashboard/keys');
  const wrong = await post('/oauth/sign-in', { email: 'admin@consent.example', password: 'not the password', next: back }, null);
  assert.equal(wrong.status, 401);
});

test('a viewer may let an app read but not write; the connection must be the organisation’s', async () => {
  const write = await post(
    '/oauth/authorize',
    { ...request(), connection: 'sandbox', scopes: ['read', 'write'], decision: 'approve' },
    'viewer',
  );
  assert.equal(write.status, 403);
  assert.match(write.html, /Only an admin of your organisation can let an app write/);
  const theirs = await post('/oauth/authorize', { ...request(), connection: foreign, decision: 'approve' }, 'admin');
  assert.equal(theirs.status, 400);
  const read = await post('/oauth/authorize', { ...request(), connection: hq, decision: 'approve' }, 'viewer');
  assert.equal(read.status, 303);
  const location = new URL(read.location!);
  assert.equal(location.origin + location.pathname, REDIRECT);
  assert.match(location.searchParams.get('code') ?? '', /^lb_oac_/);
  assert.equal(location.searchParams.get('state'), 'st');
  assert.equal(location.searchParams.get('iss'), t.gateway.url);
});

test('denying returns access_denied with the state and no code', async () => {
  const denied = await post('/oauth/authorize', { ...request(), connection: 'sandbox', decision: 'deny' }, 'admin');
  assert.equal(denied.status, 303);
  const location = new URL(denied.location!);
  assert.equal(location.searchParams.get('error'), 'access_denied');
  assert.equal(location.searchParams.get('state'), 'st');
  assert.equal(location.searchParams.get('code'), null);
});

test('a password that opens accounts in two organisations asks which one, then returns to the consent page', async () => {
  for (const name of ['Consent north', 'Consent south']) {
    const org = await t.admin.createOrganisation(name);
    const user = (await t.store.createUser({ orgId: org.id, email: 'both@consent.example', role: 'admin' }))!;
    await t.store.setUserPassword(user.id, await hashPassword(PASSWORD));
  }
  const consent = `/dashboard/oauth/authorize?${new URLSearchParams(request())}`;
  const asked = await post('/oauth/sign-in', { email: 'both@consent.example', password: PASSWORD, next: consent }, null);
  assert.equal(asked.status, 200, asked.html);
  assert.match(asked.html, /Sign in to Consent north/);
  const hidden = (name: string) => /name="(?:[^"]+)" value="([^"]*)"/.exec(asked.html.slice(asked.html.indexOf(`name="${name}"`)))![1]!;
  const unescape = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"');
  assert.equal(unescape(hidden('next')), consent, 'the choice carries the consent page along');
  const chosen = await post('/sign-in/choose', { ticket: hidden('ticket'), user: hidden('user'), next: unescape(hidden('next')) }, null);
  assert.deepEqual([chosen.status, chosen.location], [303, consent]);
  const elsewhere = await post(
    '/oauth/sign-in',
    { email: 'both@consent.example', password: PASSWORD, next: 'https://evil.example/' },
    null,
  );
  assert.match(elsewhere.html, /name="next" value="\/dashboard\/keys"/, 'anywhere but the consent page is the dashboard');
});
