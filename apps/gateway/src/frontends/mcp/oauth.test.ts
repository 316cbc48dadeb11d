import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mintOAuthSecret, sha256Hex } from '../../core/auth/secrets.ts';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';
import type { OAuthScope } from '../../infrastructure/store/store.ts';

/**
 * OAuth for /mcp over real HTTP against the in-process gateway: the metadata a client discovers,
 * registration, what the authorization and token endpoints refuse (PKCE other than S256, another
 * resource, a wrong verifier, a replayed code), and what /mcp refuses of a token (another audience,
 * expired, revoked) or lets it reach (its own connection only). The browser flow is e2e/oauth.test.ts.
 */
let t: InProcessGateway;
let orgId = '';
let userId = '';
let liveConnectionId = '';
let clientId = '';
const REDIRECT = 'http://127.0.0.1:9/callback';
/** A client named by its metadata document's URL, served from memory (never fetched). */
const DOCUMENT_CLIENT = 'https://host.example/oauth/client.json';
const documentsAsked: string[] = [];

before(async () => {
  t = await startInProcessGateway({
    oauthClientDocuments: async (url) => {
      documentsAsked.push(url);
      if (url !== DOCUMENT_CLIENT) throw new Error('not found');
      return { client_id: DOCUMENT_CLIENT, client_name: 'Document host', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
    },
  });
  const org = await t.admin.createOrganisation('OAuth');
  orgId = org.id;
  userId = (await t.store.createUser({ orgId, email: 'oauth-user@example.com', role: 'admin' }))!.id;
  liveConnectionId = (await t.admin.createConnection({ orgId, name: 'HQ', defaultCompany: 'TWO' })).connection.id;
  const registered = await fetch(`${t.gateway.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Unit host', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' }),
  });
  assert.equal(registered.status, 201);
  const client = (await registered.json()) as Record<string, unknown>;
  assert.equal(client.client_secret, undefined, 'no secret is made, even when asked for');
  assert.equal(client.token_endpoint_auth_method, 'none');
  clientId = client.client_id as string;
});

after(() => t.close());

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
const VERIFIER = 'a-code-verifier-of-at-least-forty-three-characters-long';

/** A grant as the consent page makes one, with its code; the code's value. */
async function approvedCode(
  options: { connectionId?: string; scopes?: OAuthScope[]; resource?: string; client?: string } = {},
): Promise<string> {
  const code = mintOAuthSecret('code');
  await t.store.createOAuthGrant({
    orgId,
    userId,
    clientId: options.client ?? clientId,
    clientName: 'Unit host',
    connectionId: options.connectionId ?? 'sandbox',
    scopes: options.scopes ?? ['read'],
    resource: options.resource ?? `${t.gateway.url}/mcp`,
    codeHash: code.hash,
    codeChallenge: challengeOf(VERIFIER),
    redirectUri: REDIRECT,
    codeExpiresAt: new Date(Date.now() + 60_000),
    at: new Date(),
  });
  return code.secret;
}

async function token(fields: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${t.gateway.url}/token`, { method: 'POST', body: new URLSearchParams({ client_id: clientId, ...fields }) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const exchange = async (code: string, verifier = VERIFIER) =>
  token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT });

async function mcp(
  bearer: string | null,
  message: object = { jsonrpc: '2.0', id: 7, method: 'tools/list' },
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${t.gateway.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...headers,
    },
    body: JSON.stringify(message),
  });
  return { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate') ?? '', body: (await res.json()) as any };
}

/** The authorization endpoint's answer to a request with these parameters (a redirect, never followed). */
async function authorizeWith(params: Record<string, string>): Promise<URL> {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, state: 's1', ...params });
  const res = await fetch(`${t.gateway.url}/authorize?${query}`, { redirect: 'manual' });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!);
}

test('the protected resource and its authorization server describe themselves (RFC 9728, RFC 8414)', async () => {
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    const resource = (await t.get(path)).body;
    assert.equal(resource.resource, `${t.gateway.url}/mcp`, path);
    assert.deepEqual(resource.authorization_servers, [t.gateway.url]);
    assert.deepEqual(resource.scopes_supported, ['read', 'write']);
  }
  const server = (await t.get('/.well-known/oauth-authorization-server')).body;
  // RFC 8414 3.3: the metadata URL less its well-known part.
  assert.equal(server.issuer, t.gateway.url);
  assert.deepEqual(server.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(server.grant_types_supported, ['authorization_code', 'refresh_token']);
  assert.deepEqual(server.token_endpoint_auth_methods_supported, ['none']);
  assert.equal(server.registration_endpoint, `${t.gateway.url}/register`);
  assert.equal(server.client_id_metadata_document_supported, true);
});

test('without a credential /mcp answers 401 naming the resource metadata', async () => {
  const answer = await mcp(null);
  assert.equal(answer.status, 401);
  assert.equal(
    answer.wwwAuthenticate,
    `Bearer realm="gp-gateway", resource_metadata="${t.gateway.url}/.well-known/oauth-protected-resource/mcp"`,
  );
  assert.equal(answer.body.id, 7);
  assert.equal(answer.body.error.data.code, 'UNAUTHORIZED');
});

test('the authorization endpoint takes PKCE S256 only, and refuses a resource other than /mcp', async () => {
  const plain = await authorizeWith({ code_challenge: VERIFIER, code_challenge_method: 'plain' });
  assert.equal(plain.origin + plain.pathname, REDIRECT);
  assert.equal(plain.searchParams.get('error'), 'invalid_request');
  assert.equal((await authorizeWith({})).searchParams.get('error'), 'invalid_request', 'no challenge at all');

  const elsewhere = await authorizeWith({
    code_challenge: challengeOf(VERIFIER),
    code_challenge_method: 'S256',
    resource: 'https://elsewhere.example/mcp',
  });
  assert.equal(elsewhere.searchParams.get('error'), 'invalid_target');

  const consent = await authorizeWith({
    code_challenge: challengeOf(VERIFIER),
    code_challenge_method: 'S256',
    resource: `${t.gateway.url}/mcp`,
    scope: 'read write',
  });
  assert.equal(consent.pathname, '/dashboard/oauth/authorize');
  assert.equal(consent.searchParams.get('scope'), 'read write');

  // Scopes of no meaning here (offline_access asks for a refresh token, always given) are ignored, not refused.
  const other = await authorizeWith({
    code_challenge: challengeOf(VERIFIER),
    code_challenge_method: 'S256',
    scope: 'offline_access openid write',
  });
  assert.equal(other.pathname, '/dashboard/oauth/authorize');
  assert.equal(other.searchParams.get('scope'), 'write');
  assert.equal(consent.searchParams.get('client_id'), clientId);
});

test('a code is exchanged once, with its verifier: a wrong verifier is refused, a replayed code ends the grant', async () => {
  const code = await approvedCode();
  const wrong = await exchange(code, 'another-verifier-of-at-least-forty-three-characters-long');
  assert.deepEqual([wrong.status, wrong.body.error], [400, 'invalid_grant']);
  const first = await exchange(code);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.match(first.body.access_token, /^lb_oat_[0-9A-Za-z]{32}$/);
  assert.match(first.body.refresh_token, /^lb_ort_[0-9A-Za-z]{32}$/);
  assert.deepEqual([first.body.token_type, first.body.expires_in, first.body.scope], ['Bearer', 3600, 'read']);
  // As the conformance suite's authorization-code scenario checks a token response.
  assert.match(first.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(first.headers.get('cache-control'), 'no-store');
  assert.equal((await mcp(first.body.access_token)).status, 200);

  const again = await exchange(code);
  assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
  assert.equal((await mcp(first.body.access_token)).status, 401, "the replay revoked the first exchange's tokens");
});

test('a token issued for another resource is refused at /mcp (audience), and so is an expired one', async () => {
  const foreign = await exchange(await approvedCode({ resource: 'https://elsewhere.example/mcp' }));
  assert.equal(foreign.status, 200);
  const refused = await mcp(foreign.body.access_token);
  assert.equal(refused.status, 401);
  assert.match(refused.body.error.message, /not issued for/);
  assert.match(refused.wwwAuthenticate, /error="invalid_token"/);
  assert.match(refused.wwwAuthenticate, /resource_metadata="/);

  const code = await approvedCode();
  const access = mintOAuthSecret('access');
  await t.store.redeemOAuthCode(
    sha256Hex(code),
    clientId,
    {
      accessHash: access.hash,
      accessExpiresAt: new Date(Date.now() - 1000),
      refreshHash: mintOAuthSecret('refresh').hash,
      refreshExpiresAt: new Date(Date.now() + 60_000),
    },
    new Date(),
  );
  const expired = await mcp(access.secret);
  assert.equal(expired.status, 401);
  assert.match(expired.body.error.message, /expired/);
});

test('a token reaches only its grant: not /v1, not another connection, not write without the write scope', async () => {
  const { body } = await exchange(await approvedCode({ connectionId: liveConnectionId, scopes: ['read'] }));
  assert.equal((await t.get('/v1/companies', { authorization: `Bearer ${body.access_token}` })).status, 401, 'tokens are for /mcp');
  const tools = (await mcp(body.access_token)).body.result.tools.map((tool: { name: string }) => tool.name);
  assert.ok(!tools.includes('create_record'));
  const events = await mcp(
    body.access_token,
    { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'list_events', arguments: { connectionId: 'sandbox' } } },
    { 'x-connection-id': 'sandbox' },
  );
  assert.equal(events.status, 200);
  assert.equal(events.body.result.isError, true);
  assert.match(events.body.result.content[0].text, new RegExp(`reaches the connection ${liveConnectionId} only`));
  const own = await mcp(body.access_token, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'list_events', arguments: {} } });
  assert.equal(own.body.result.isError, undefined, JSON.stringify(own.body));
});

test('revoking through the revocation endpoint (RFC 7009) refuses the token at once', async () => {
  const { body } = await exchange(await approvedCode());
  assert.equal((await mcp(body.access_token)).status, 200);
  const revoked = await fetch(`${t.gateway.url}/revoke`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: clientId, token: body.refresh_token }),
  });
  assert.equal(revoked.status, 200);
  assert.equal((await mcp(body.access_token)).status, 401);
  const refresh = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
  assert.deepEqual([refresh.status, refresh.body.error], [400, 'invalid_grant']);
});

test('a client named by a metadata document URL authorizes and exchanges its code without registering', async () => {
  const consent = await authorizeWith({ client_id: DOCUMENT_CLIENT, code_challenge: challengeOf(VERIFIER), code_challenge_method: 'S256' });
  assert.equal(consent.pathname, '/dashboard/oauth/authorize');
  assert.equal(consent.searchParams.get('client_id'), DOCUMENT_CLIENT);
  const code = await approvedCode({ client: DOCUMENT_CLIENT });
  const exchanged = await token({ client_id: DOCUMENT_CLIENT, grant_type: 'authorization_code', code, code_verifier: VERIFIER });
  assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
  assert.equal((await mcp(exchanged.body.access_token)).status, 200);
  assert.ok(documentsAsked.includes(DOCUMENT_CLIENT));

  const unknown = await fetch(
    `${t.gateway.url}/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'https://other.example/c.json', redirect_uri: REDIRECT, code_challenge: challengeOf(VERIFIER), code_challenge_method: 'S256' })}`,
    { redirect: 'manual' },
  );
  assert.equal(unknown.status, 400, 'an unknown client is answered, never redirected');
  assert.equal(((await unknown.json()) as { error: string }).error, 'invalid_client');
});
