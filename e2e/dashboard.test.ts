import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startAgentProcess, waitFor } from './support/processes.ts';
import { browserGateway, chromiumSkip as skip, welcomeLinkIn } from './support/browserGateway.ts';

/**
 * The dashboard in a real browser (Debian's chromium driven by playwright-core) against a real
 * gateway process, with a real agent dialling in on a token the dashboard showed. Every secret the
 * run sees is collected: each is shown by the one view a form redirects to, and no page fetched with
 * GET after that may contain any of them.
 */
const rig = browserGateway('e2e-dashboard-');
let admin: BrowserContext;
let page: Page;
/** Every secret shown during the run: no GET page may contain one. */
const secrets = new Set<string>();
const PASSWORD = 'a long admin password';

const api = (key: string, pathAndQuery: string, headers: Record<string, string> = {}) =>
  fetch(`${rig.gateway.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

async function shownSecret(): Promise<string> {
  const secret = await page.inputValue('#new-secret');
  secrets.add(secret);
  return secret;
}

/**
 * A form this page could make, posted from it: the browser sends its own Origin, Sec-Fetch-Site and
 * cookies, and the page's form token unless told otherwise (the dashboard's CSP allows form posts to
 * itself and nothing else, not even fetch). Resolves with the status of the answer.
 */
async function postFromPage(on: Page, action: string, fields: Record<string, string>, withToken = true): Promise<number> {
  await on.evaluate(
    ({ action, fields, withToken }) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const document = (globalThis as any).document;
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      const token = document.querySelector('input[name=csrf]')?.value;
      for (const [name, value] of Object.entries({ ...fields, ...(withToken && token ? { csrf: token } : {}) })) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      const submit = document.createElement('button');
      submit.id = 'e2e-submit';
      form.append(submit);
      document.body.append(form);
    },
    { action, fields, withToken },
  );
  const [answer] = await Promise.all([
    on.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(action)),
    on.click('#e2e-submit'),
  ]);
  await on.waitForLoadState('load');
  return answer.status();
}

before(async () => {
  if (skip) return;
  await rig.start();
  secrets.add(rig.gateway.testKey);
  admin = await rig.browser.newContext();
  page = await admin.newPage();
});

test('the first admin signs in with the link the CLI printed, and a test key made in the page works once shown', { skip }, async () => {
  const link = welcomeLinkIn(
    await rig.operator('user', 'create', '--org', 'Demo organisation', '--email', 'Admin@Example.com', '--gateway-url', rig.gateway.url),
  );
  secrets.add(link.split('token=')[1]!);
  await page.goto(link);
  await page.fill('input[name=password]', PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/keys');
  const cookie = (await admin.cookies()).find((c) => c.name === '__Host-gp_session')!;
  assert.deepEqual([cookie.httpOnly, cookie.secure, cookie.sameSite, cookie.path], [true, true, 'Lax', '/']);

  await page.fill('input[name=name]', 'Browser test');
  await page.check('input[name=mode][value=test]');
  await page.click('button:has-text("Create key")');
  const secret = await shownSecret();
  assert.match(secret, /^lb_test_[0-9A-Za-z]{32}$/);
  assert.equal((await api(secret, '/v1/customers?limit=1')).status, 200);

  await page.goto(`${rig.gateway.url}/dashboard/keys`);
  const html = await page.content();
  assert.ok(!html.includes(secret), 'reloaded, the page no longer holds the secret');
  assert.ok(html.includes(`${secret.slice(0, 12)}…`), 'only its prefix');

  await page.click('tr:has-text("Browser test") >> text=Revoke…');
  await page.click('button:has-text("Revoke key “Browser test”")');
  await page.waitForSelector('text=is revoked');
  assert.equal((await api(secret, '/v1/customers?limit=1')).status, 401);
});

test('an older sign-in link says it no longer works once a newer one is made, before asking for a password', { skip }, async () => {
  const older = welcomeLinkIn(
    await rig.operator(
      'user',
      'create',
      '--org',
      'Demo organisation',
      '--email',
      'two-links@example.com',
      '--role',
      'viewer',
      '--gateway-url',
      rig.gateway.url,
    ),
  );
  const newer = welcomeLinkIn(
    await rig.operator('user', 'link', 'two-links@example.com', '--org', 'Demo organisation', '--gateway-url', rig.gateway.url),
  );
  for (const link of [older, newer]) secrets.add(link.split('token=')[1]!);
  const stranger = await (await rig.browser.newContext()).newPage();
  const dead = await stranger.goto(older);
  assert.equal(dead!.status(), 410);
  assert.match((await stranger.textContent('h1')) ?? '', /no longer works/);
  assert.equal(await stranger.locator('input[name=password]').count(), 0, 'no password is asked for on a dead link');
  await stranger.goto(newer);
  await stranger.fill('input[name=password]', 'the viewer’s own password');
  await stranger.click('button[type=submit]');
  await stranger.waitForURL('**/dashboard/keys');
  assert.equal((await stranger.goto(newer))!.status(), 410, 'spent');
  await stranger.context().close();
});

test('rotating a key at once in the page shows the new secret once; the old secret is refused at once', { skip }, async () => {
  await page.fill('input[name=name]', 'Rotated');
  await page.check('input[name=mode][value=test]');
  await page.click('button:has-text("Create key")');
  const old = await shownSecret();
  await page.goto(`${rig.gateway.url}/dashboard/keys`);
  await page.click('tr:has-text("Rotated") >> text=Rotate…');
  await page.check('input[name=keepOldFor][value=now]');
  await page.click('button:has-text("Rotate key “Rotated”")');
  const rotated = await shownSecret();
  assert.notEqual(rotated, old);
  assert.equal((await api(old, '/v1/companies')).status, 401);
  assert.equal((await api(rotated, '/v1/companies')).status, 200);
});

test("the usage page counts each key's requests by status class and lists them with their request ids", { skip }, async () => {
  await page.goto(`${rig.gateway.url}/dashboard/keys`);
  await page.fill('input[name=name]', 'Counted');
  await page.check('input[name=mode][value=test]');
  await page.click('button:has-text("Create key")');
  const key = await shownSecret();
  const found = await api(key, '/v1/customers?limit=1');
  const missing = await api(key, '/v1/customers/NO-SUCH-CUSTOMER');
  assert.deepEqual([found.status, missing.status], [200, 404]);
  const [ok, notFound] = [found.headers.get('x-request-id')!, missing.headers.get('x-request-id')!];
  await page.goto(`${rig.gateway.url}/dashboard/usage`);
  const keyId = (await page.getAttribute('select[name=key] option:has-text("Counted")', 'value'))!;
  await waitFor('the requests to reach the usage page', async () => {
    await page.goto(`${rig.gateway.url}/dashboard/usage?key=${keyId}&status=4xx`);
    return (await page.content()).includes(notFound) ? true : null;
  });
  const html = await page.content();
  assert.ok(!html.includes(ok), 'the 200 is filtered out');
  assert.match(html, /Requests per day, last 30 days \(UTC\): 2</, 'the chart counts both requests of the key');
  // The by-key table's row, the first of the page (the recent requests below also name the key): 4xx only, as filtered.
  assert.deepEqual((await page.locator('tr:has-text("Counted")').first().locator('td').allTextContents()).slice(1), ['0', '1', '0', '1']);
  assert.ok(await page.locator(`tr:has-text("${notFound}") td:has-text("Counted")`).count(), 'the request names its key');
});

test(
  'a connection made in the page shows its agent once a real agent dials in with the shown token; rotating the token drops it',
  { skip },
  async () => {
    await page.goto(`${rig.gateway.url}/dashboard/connections`);
    await page.fill('form[action="/dashboard/connections"] input[name=name]', 'Plant');
    await page.fill('form[action="/dashboard/connections"] input[name=defaultCompany]', 'two');
    await page.click('button:has-text("Create connection")');
    const token = await shownSecret();
    assert.match(token, /^lb_agent_/);
    assert.ok(
      (await page.textContent('.install'))!.includes(`install --gateway ${rig.gateway.url} --token-file agent.token`),
      'install steps for this gateway',
    );
    rig.agents.push(startAgentProcess(rig.gateway.url, token, path.join(rig.dataDir, 'demo')));
    await waitFor('the agent to show on the connections page', async () => {
      await page.goto(`${rig.gateway.url}/dashboard/connections`);
      const card = (await page.textContent('section.card:has-text("Plant")')) ?? '';
      return card.includes('1 agent connected') && card.includes('0.1.0') && card.includes('TWO, NWIND') ? true : null;
    });

    const card = page.locator('section.card:has-text("Plant")');
    await card.locator('input[name=objects][value=customers]').check();
    await card.locator('button:has-text("Save writable objects")').click();
    await page.waitForSelector('text=Writable on "Plant": customers');
    assert.match(await rig.operator('connection', 'list', '--org', 'Demo organisation'), /Plant\s+TWO\s+customers\s+connected/);

    // Rotating the token drops the agent on the old one; an agent with the new token is served.
    await page.click('section.card:has-text("Plant") >> text=Rotate agent token of “Plant”…');
    await page.check('input[name=keepOldFor][value=now]');
    await page.click('button:has-text("Rotate agent token of “Plant”")');
    const rotated = await shownSecret();
    assert.notEqual(rotated, token);
    await waitFor('the agent on the old token to be dropped', async () => {
      await page.goto(`${rig.gateway.url}/dashboard/connections`);
      return ((await page.textContent('section.card:has-text("Plant")')) ?? '').includes('1 agent connected') ? null : true;
    });
    rig.agents.push(startAgentProcess(rig.gateway.url, rotated, path.join(rig.dataDir, 'demo')));
    await waitFor('an agent on the new token to connect', async () => {
      await page.goto(`${rig.gateway.url}/dashboard/connections`);
      return ((await page.textContent('section.card:has-text("Plant")')) ?? '').includes('1 agent connected') ? true : null;
    });
  },
);

test(
  "an agent with writes on shows its write check per object on the connections page: GP's answer for each, nothing written",
  { skip },
  async () => {
    await page.goto(`${rig.gateway.url}/dashboard/connections`);
    await page.fill('form[action="/dashboard/connections"] input[name=name]', 'Writer');
    await page.click('button:has-text("Create connection")');
    const token = await shownSecret();
    rig.agents.push(startAgentProcess(rig.gateway.url, token, path.join(rig.dataDir, 'demo'), {}, ['--allow-writes']));
    const card = page.locator('section.card:has-text("Writer")');
    await waitFor("the agent's write check to show", async () => {
      await page.goto(`${rig.gateway.url}/dashboard/connections`);
      return (await card.locator('.write-check tbody tr').count()) >= 16 ? true : null;
    });
    // A row's text is its cells, tab-separated.
    const rows = (await card.locator('.write-check tbody tr').allInnerTexts()).map((row) => row.split('\t'));
    const two = rows.filter(([company]) => company === 'TWO');
    assert.deepEqual(
      two.map(([, object, result]) => [object, result]),
      ['customers', 'customer-addresses', 'vendors', 'vendor-addresses', 'sales-orders', 'ar-invoices', 'ap-invoices', 'gl-entries'].map(
        (object) => [object, 'works'],
      ),
    );
    assert.match(
      (await card.locator('.write-check caption').textContent())!,
      /validate-only write of each object through GP, nothing written/,
    );
  },
);

test("another organisation's key and connection ids in the forms change nothing", { skip }, async () => {
  await rig.operator('org', 'create', 'Other Co');
  const issued = await rig.operator('key', 'create', '--org', 'Other Co', '--name', 'Theirs', '--mode', 'live');
  const otherKey = /^(lb_live_\w{32})$/m.exec(issued)![1]!;
  const otherKeyId = /Created live key (key_[\w-]+)/.exec(issued)![1]!;
  const created = await rig.operator('connection', 'create', '--org', 'Other Co', '--name', 'Theirs');
  const otherConnection = /Created connection (conn_[\w-]+)/.exec(created)![1]!;
  secrets.add(otherKey);
  secrets.add(/^(lb_agent_\w{32})$/m.exec(created)![1]!);
  await page.goto(`${rig.gateway.url}/dashboard/keys`);
  // Each form answers with a redirect (post/redirect/get) to a page that says what was wrong.
  assert.equal(await postFromPage(page, `/dashboard/keys/${otherKeyId}/revoke`, {}), 303);
  await page.waitForSelector('.problem:has-text("no key with that id in your organisation")');
  assert.equal(await postFromPage(page, `/dashboard/keys/${otherKeyId}/rotate`, { keepOldFor: 'now' }), 303);
  await page.waitForSelector('.problem:has-text("no active key with that id in your organisation")');
  assert.equal(await postFromPage(page, `/dashboard/connections/${otherConnection}/whitelist`, { objects: 'customers' }), 303);
  await page.waitForSelector('.problem:has-text("no connection with the id")');
  assert.match(await rig.operator('connection', 'list', '--org', 'Other Co'), /Theirs\s+-\s+none\s/);
  assert.match(await rig.operator('key', 'list', '--org', 'Other Co'), /Theirs .* active$/m);
});

test('a viewer sees the pages but cannot change anything', { skip }, async () => {
  await page.goto(`${rig.gateway.url}/dashboard/users`);
  await page.fill('form[action="/dashboard/users"] input[name=email]', 'viewer@example.com');
  await page.click('button:has-text("Invite")');
  const link = await shownSecret();
  const viewerContext = await rig.browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(link);
  await viewer.fill('input[name=password]', 'a long viewer password');
  await viewer.click('button[type=submit]');
  await viewer.waitForURL('**/dashboard/keys');
  assert.equal(await viewer.locator('form[action="/dashboard/keys"]').count(), 0, 'no create form');
  assert.ok((await viewer.content()).includes('Rotated'), 'but the keys are listed');
  assert.equal(await postFromPage(viewer, '/dashboard/keys', { name: 'Sneaky', mode: 'live', scopes: 'read' }), 403);
  await viewer.goto(`${rig.gateway.url}/dashboard/connections`);
  assert.equal(await viewer.locator('button:has-text("Create connection")').count(), 0);
  assert.equal(await postFromPage(viewer, '/dashboard/limits', { requests: '1' }), 403);
  await viewerContext.close();
});

test('forms posted from another origin or without their token are refused', { skip }, async () => {
  await page.goto(`${rig.gateway.url}/dashboard/keys`);
  const token = await page.inputValue('form[action="/dashboard/keys"] input[name=csrf]');
  const cookies = (await admin.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const post = (headers: Record<string, string>, fields: Record<string, string>) =>
    fetch(`${rig.gateway.url}/dashboard/keys`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookies, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ name: 'Forged', mode: 'live', scopes: 'read', ...fields }),
    });
  assert.equal((await post({ origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, { csrf: token })).status, 403);
  assert.equal((await post({ origin: 'http://evil.example' }, { csrf: token })).status, 403);
  assert.equal((await post({ origin: rig.gateway.url, 'sec-fetch-site': 'same-origin' }, {})).status, 403, 'no token');
  assert.equal(
    (await post({ origin: rig.gateway.url, 'sec-fetch-site': 'same-origin' }, { csrf: 'x'.repeat(43) })).status,
    403,
    'a wrong token',
  );
  assert.equal(await postFromPage(page, '/dashboard/keys', { name: 'Forged', mode: 'live', scopes: 'read' }, false), 403);
  await page.goto(`${rig.gateway.url}/dashboard/keys`);
  assert.ok(!(await page.content()).includes('Forged'), 'no key was made');
});

test('no page fetched with GET holds a secret of this run, signed in or not', { skip }, async () => {
  assert.ok(secrets.size >= 8, `secrets collected: ${secrets.size}`);
  const anonymous = await (await rig.browser.newContext()).newPage();
  const pages = ['keys', 'connections', 'usage', 'users', 'audit', 'sign-in', 'welcome', 'no-such-page'];
  for (const [who, on] of [
    ['admin', page],
    ['anonymous', anonymous],
  ] as const) {
    for (const name of pages) {
      const response = await on.goto(`${rig.gateway.url}/dashboard/${name}`);
      assert.equal(response!.headers()['cache-control'], 'no-store');
      const html = await on.content();
      for (const secret of secrets)
        assert.ok(!html.includes(secret), `${who} GET /dashboard/${name} holds a secret (${secret.slice(0, 12)}…)`);
    }
  }
  if (process.env.SCREENSHOTS_DIR) {
    await page.setViewportSize({ width: 1100, height: 800 });
    for (const name of ['keys', 'connections', 'usage']) {
      await page.goto(`${rig.gateway.url}/dashboard/${name}`);
      await page.screenshot({ path: path.join(process.env.SCREENSHOTS_DIR, `dashboard-${name}.png`), fullPage: true });
    }
  }
});
