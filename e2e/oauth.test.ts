import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { seriousViolations } from './support/axe.ts';
import { runGatewayCli, startGatewayProcess, type Started } from './support/processes.ts';

/**
 * OAuth for /mcp as a host adds the gateway (Claude, ChatGPT): the MCP SDK's own client, given only
 * the /mcp URL, finds the authorization server from the 401, registers itself, sends the user to the
 * dashboard's consent page (in chromium), and calls tools with the token it obtains; then a refresh,
 * a revocation from the dashboard, and the refusals a careless or hostile client meets. axe-core
 * checks the sign-in and consent pages as the other dashboard pages are checked (dashboardOperations.test.ts).
 */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(`\n*** SKIPPED: the OAuth browser tests need ${CHROMIUM} (apt-get install chromium; .ci/run installs it) ***\n`);
const skip = haveChromium ? false : `no ${CHROMIUM}`;

const EMAIL = 'oauth-admin@example.com';
const PASSWORD = 'a long admin password';

let dataDir: string;
let gateway: Started & { url: string; testKey: string };
let browser: Browser;
let page: Page;
/** The client's redirect URI: a loopback server that hands each request's query to whoever waits for it. */
let callback: http.Server;
let callbackUrl: string;
let nextCallback: ((query: URLSearchParams) => void) | null = null;
/** axe-core's serious and critical findings on the OAuth sign-in page, the first time a flow showed it. */
let signInViolations: string[] | null = null;
const clients: Client[] = [];

before(async () => {
  if (skip) return;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-oauth-'));
  gateway = await startGatewayProcess(dataDir);
  callback = http.createServer((req, res) => {
    res.end('You can close this window.');
    nextCallback?.(new URL(req.url!, 'http://127.0.0.1').searchParams);
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const created = await runGatewayCli(['user', 'create', '--org', 'Demo organisation', '--email', EMAIL, '--gateway-url', gateway.url], {
    DATA_DIR: dataDir,
  });
  assert.equal(created.code, 0, created.stderr);
  const link = /(http:\/\/\S+\/dashboard\/welcome\?token=lb_link_\w+)/.exec(created.stdout)![1]!;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  // The password is set in one browser; the OAuth flow signs in afresh in another, as a user would.
  const setup = await browser.newPage();
  await setup.goto(link);
  await setup.fill('input[name=password]', PASSWORD);
  await setup.click('button[type=submit]');
  await setup.waitForURL('**/dashboard/keys');
  await setup.context().close();
  page = await (await browser.newContext()).newPage();
});

after(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await browser?.close();
  callback?.close();
  await gateway?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An MCP host's OAuth state, in memory: what the SDK's client asks its host to keep. */
class HostProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;

  get redirectUrl() {
    return callbackUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E host',
      redirect_uris: [callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const mcpUrl = () => new URL(`${gateway.url}/mcp`);

async function connect(provider: HostProvider): Promise<Client> {
  const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
  clients.push(client);
  return client;
}

/**
 * What a host does the first time: connect, be told to authorize, open the authorization URL in the
 * browser, where the user (signed in or not) approves with these choices; the query the browser
 * brought back to the redirect URI, and the transport to finish with.
 */
async function authorize(
  provider: HostProvider,
  choose: (consent: Page) => Promise<void>,
): Promise<{ query: URLSearchParams; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await assert.rejects(new Client({ name: 'e2e-oauth', version: '1.0.0' }).connect(transport), UnauthorizedError);
  assert.ok(provider.authorizationUrl, 'the client was sent to authorize');
  const returned = new Promise<URLSearchParams>((resolve) => (nextCallback = resolve));
  await page.goto(provider.authorizationUrl.href);
  if (await page.locator('form[action="/dashboard/oauth/sign-in"]').count()) {
    signInViolations ??= await seriousViolations(page);
    await page.fill('input[name=email]', EMAIL);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
  }
  await page.waitForSelector('h1:has-text("Connect E2E host?")');
  await choose(page);
  return { query: await returned, transport };
}

const approveSandboxWithWrite = async (consent: Page) => {
  await consent.check('input[name=connection][value=sandbox]');
  assert.equal(await consent.isChecked('input[name=scopes][value=write]'), true, 'the client asked for write, and an admin may grant it');
  await consent.click('button[value=approve]');
};

async function tokenRequest(fields: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${gateway.url}/token`, { method: 'POST', body: new URLSearchParams(fields) });
  return { status: res.status, body: await res.json() };
}

const mcpCall = (token: string) =>
  fetch(mcpUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

let host: HostProvider;

test(
  'an MCP client with nothing but the /mcp URL registers, is approved on the consent page and calls tools with its token',
  { skip },
  async () => {
    const unauthenticated = await fetch(mcpUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(unauthenticated.status, 401);
    assert.match(
      unauthenticated.headers.get('www-authenticate') ?? '',
      new RegExp(`^Bearer .*resource_metadata="${gateway.url}/.well-known/oauth-protected-resource/mcp"`),
    );

    host = new HostProvider();
    const { query, transport } = await authorize(host, async (consent) => {
      assert.match((await consent.textContent('main')) ?? '', /read: list and read every record/);
      assert.deepEqual(await seriousViolations(consent), [], 'axe-core on the consent page');
      await approveSandboxWithWrite(consent);
    });
    assert.deepEqual(signInViolations, [], 'axe-core on the sign-in page the flow showed');
    // RFC 9207: the issuer, as its metadata names it (and as the MCP conformance suite checks).
    const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
    assert.equal(metadata.issuer, gateway.url);
    assert.equal(query.get('iss'), metadata.issuer);
    assert.match(query.get('code') ?? '', /^lb_oac_/);
    assert.ok(host.information?.client_id, 'registered by RFC 7591');
    assert.equal((host.information as { client_secret?: string }).client_secret, undefined, 'a public client: no secret');
    await transport.finishAuth(query.get('code')!);
    assert.match(host.saved?.access_token ?? '', /^lb_oat_/);
    assert.equal(host.saved?.scope, 'read write');

    const client = await connect(host);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('create_record'), `write was granted: ${tools.join(', ')}`);
    const result = (await client.callTool({ name: 'list_records', arguments: { object: 'customers', limit: 2 } })) as CallToolResult;
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((JSON.parse((result.content[0] as { text: string }).text) as { data: unknown[] }).data.length, 2);

    await page.goto(`${gateway.url}/dashboard/connected-apps`);
    const row = page.locator('tr:has-text("E2E host")');
    assert.deepEqual((await row.locator('td').allTextContents()).slice(0, 4), ['E2E host', EMAIL, 'sandbox', 'read, write']);
    assert.notEqual((await row.locator('td').nth(5).textContent())?.trim(), 'never', 'its last use is shown');
  },
);

test(
  'a refresh rotates both tokens: the old access and refresh tokens are refused, and a replayed refresh token ends the grant',
  { skip },
  async () => {
    const before = host.saved!;
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: before.refresh_token!,
      client_id: host.information!.client_id,
    });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.notEqual(refreshed.body.refresh_token, before.refresh_token);
    assert.equal(refreshed.body.expires_in, 3600);
    assert.equal((await mcpCall(refreshed.body.access_token)).status, 200);
    const old = await mcpCall(before.access_token);
    assert.equal(old.status, 401);
    assert.match(old.headers.get('www-authenticate') ?? '', /error="invalid_token"/);

    const replayed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: before.refresh_token!,
      client_id: host.information!.client_id,
    });
    assert.equal(replayed.status, 400);
    assert.equal(replayed.body.error, 'invalid_grant');
    assert.equal((await mcpCall(refreshed.body.access_token)).status, 401, 'a stolen refresh token used twice ends the whole grant');
  },
);

test('disconnecting an app in the dashboard refuses its very next call', { skip }, async () => {
  const second = new HostProvider();
  const { query, transport } = await authorize(second, async (consent) => {
    await consent.check('input[name=connection][value=sandbox]');
    await consent.uncheck('input[name=scopes][value=write]');
    await consent.click('button[value=approve]');
  });
  await transport.finishAuth(query.get('code')!);
  assert.equal(second.saved?.scope, 'read');
  const client = await connect(second);
  assert.ok(!(await client.listTools()).tools.some((t) => t.name === 'create_record'), 'read only: no write tool');

  await page.goto(`${gateway.url}/dashboard/connected-apps`);
  await page.click('tr:has-text("E2E host") >> button:has-text("Disconnect")');
  await page.waitForSelector('text=is disconnected');
  assert.equal((await mcpCall(second.saved!.access_token)).status, 401);
  // The SDK's client tries its refresh token, which was revoked with the grant.
  await assert.rejects(client.callTool({ name: 'list_records', arguments: { object: 'customers', limit: 1 } }), {
    name: 'InvalidGrantError',
    message: /refresh token is invalid, expired, revoked/,
  });
});

test('denying sends the user back to the client with access_denied', { skip }, async () => {
  const third = new HostProvider();
  const { query } = await authorize(third, (consent) => consent.click('button[value=deny]'));
  assert.equal(query.get('error'), 'access_denied');
  assert.equal(query.get('code'), null);
});

test('API keys keep working on /mcp beside OAuth', { skip }, async () => {
  const res = await mcpCall(gateway.testKey);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { result: { tools: unknown[] } };
  assert.ok(body.result.tools.length > 0);
});
