import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openStore } from '@gp-gateway/gateway';
import { seriousViolations } from './support/axe.ts';
import { runGatewayCli, startGatewayProcess, type Started } from './support/processes.ts';

/**
 * Issue 36 items 3, 4 and 5 against a real gateway process, its operator CLI and chromium: names are
 * checked on the server whatever the form's maxlength says, the CLI prints a name stored raw
 * escaped, every link starts with GATEWAY_URL whatever Host the request came with, and an email
 * another organisation uses is invited like any other.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}`;
if (skip) console.warn(`\n*** SKIPPED: the dashboard browser tests need ${CHROMIUM} ***\n`);

/** The public address: nothing listens there; the links must name it all the same. */
const PUBLIC = 'https://gw.example.test';
let dataDir: string;
let gateway: Started & { url: string; testKey: string };
let browser: Browser;
let context: BrowserContext;
let page: Page;

const env = () => ({ DATA_DIR: dataDir, GATEWAY_URL: PUBLIC });
const operator = async (...args: string[]) => {
  const run = await runGatewayCli(args, env());
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
};
const LINK = /(\S+)\/dashboard\/welcome\?token=(lb_link_\w+)/;
/** A printed link, checked to start with the public address, as the local gateway's URL to open here. */
function openable(text: string): string {
  const [, base, token] = LINK.exec(text)!;
  assert.equal(base, PUBLIC, `the link names GATEWAY_URL: ${text}`);
  return `${gateway.url}/dashboard/welcome?token=${token}`;
}

async function setPassword(link: string, password: string): Promise<void> {
  await page.goto(link);
  await page.fill('input[name=password]', password);
  await Promise.all([page.waitForURL('**/dashboard/keys'), page.click('button[type=submit]')]);
}

/**
 * On a freshly loaded page (so no earlier message is on it), fills a form's name field past its
 * maxlength, as a client that ignores it would, submits, and answers the status of the post and the
 * problem the page it leads to shows.
 */
async function submitName(pageUrl: string, selector: string, value: string, button: string): Promise<[number, string]> {
  await page.goto(pageUrl);
  await page.evaluate((s) => (globalThis as any).document.querySelector(s).removeAttribute('maxlength'), selector);
  await page.fill(selector, value);
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click(button)]);
  const problem = await page.waitForSelector('[role=alert]');
  return [answer.status(), ((await problem.textContent()) ?? '').trim()];
}

before(async () => {
  if (skip) return;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-names-'));
  // GATEWAY_URL set, the gateway would listen on every interface: the test keeps it on loopback.
  gateway = await startGatewayProcess(dataDir, { GATEWAY_URL: PUBLIC, HOST: '127.0.0.1' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  // Headers a proxy might add, or a client forge: links must not follow them either.
  context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' } });
  page = await context.newPage();
  await setPassword(
    openable(await operator('user', 'create', '--org', 'Demo organisation', '--email', 'admin@example.com')),
    'a long admin password',
  );
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test(
  'the dashboard refuses names with control characters or 5,000 characters, saying which and where, and keeps nothing',
  { skip },
  async () => {
    const cases: [string, string][] = [
      ['Evil\u001b[2J', 'the name contains a control character (U+001B) at position 5'],
      ['Invoice\u202efdp.exe', 'the name contains a bidirectional control character (U+202E) at position 8'],
      ['x'.repeat(5000), 'the name must be at most 100 characters (it has 5,000)'],
    ];
    // Every form answers with a redirect (post/redirect/get); the page it leads to says what was wrong.
    for (const [name, message] of cases) {
      const keys = `${gateway.url}/dashboard/keys`;
      assert.deepEqual(await submitName(keys, 'input[name=name]', name, 'button:has-text("Create key")'), [303, message]);
      const connections = `${gateway.url}/dashboard/connections`;
      const field = 'form[action="/dashboard/connections"] input[name=name]';
      assert.deepEqual(await submitName(connections, field, name, 'button:has-text("Create connection")'), [303, message]);
    }
    const run = await runGatewayCli(['key', 'list', '--org', 'Demo organisation'], env());
    assert.equal(run.stdout.split('\n').filter((l) => l.startsWith('key_')).length, 1, 'only the quick start key');
    assert.ok(!run.stdout.includes('Evil') && !run.stdout.includes('xxxxx'));
  },
);

test('the operator CLI refuses the same names, and prints a name stored raw by an older release escaped', { skip }, async () => {
  for (const [name, message] of [
    ['Evil\u001b[2J', /the name contains a control character \(U\+001B\) at position 5/],
    ['x'.repeat(5000), /the name must be at most 100 characters \(it has 5,000\)/],
  ] as const) {
    const refused = await runGatewayCli(['key', 'create', '--org', 'Demo organisation', '--name', name, '--mode', 'test'], env());
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, message);
  }
  const store = await openStore({ dataDir, databaseUrl: null });
  try {
    const org = (await store.findOrganisationByName('Demo organisation'))!;
    await store.createApiKey({
      orgId: org.id,
      name: 'Old\u001b[2J\u001b[H\r\nkey_forged  Forged\u0007',
      mode: 'test',
      scopes: ['read'],
      prefix: 'lb_test_OLD0',
      secretHash: 'f'.repeat(64),
    });
  } finally {
    await store.close();
  }
  const listed = await runGatewayCli(['key', 'list', '--org', 'Demo organisation'], env());
  assert.equal(listed.code, 0, listed.stderr);
  assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(listed.stdout), 'nothing but line ends among the control characters');
  assert.match(listed.stdout, /^key_\S+ +Old\\x1b\[2J\\x1b\[H\\x0d\\x0akey_forged {2}Forged\\x07 +test /m);
  assert.equal(listed.stdout.split('\n').filter((l) => l.startsWith('key_forged')).length, 0, 'no forged row');
});

test(
  'an email another organisation uses is invited like any other; its link names GATEWAY_URL whatever the Host, and works',
  { skip },
  async () => {
    await operator('org', 'create', 'Other tenant');
    const theirLink = openable(
      await operator('user', 'create', '--org', 'Other tenant', '--email', 'shared@example.com', '--role', 'admin'),
    );

    await page.goto(`${gateway.url}/dashboard/users`);
    await page.fill('input[name=email]', 'shared@example.com');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('button:has-text("Invite")'),
    ]);
    assert.equal(answer.status(), 303, 'answered with a redirect to the page that shows the link once');
    await page.waitForSelector('#new-secret');
    const html = await page.content();
    assert.ok(!/already|another organisation|Other tenant/i.test(html), 'nothing said of the other organisation');
    const link = await page.inputValue('#new-secret');
    // The browser sent Host: localhost:<port> (and X-Forwarded-Host: evil.example): the link names neither.
    const opened = openable(link);

    const invitee = await browser.newContext();
    const other = await invitee.newPage();
    try {
      for (const welcome of [opened, theirLink]) {
        await other.goto(welcome);
        await other.fill('input[name=password]', 'the same password for both');
        await Promise.all([other.waitForURL('**/dashboard/keys'), other.click('form[action="/dashboard/welcome"] button[type=submit]')]);
      }
      // One password for both accounts: after it is checked, the person picks the organisation.
      await other.click('button:has-text("Sign out")');
      await other.goto(`${gateway.url}/dashboard/sign-in`);
      await other.fill('input[name=email]', 'shared@example.com');
      await other.fill('input[name=password]', 'the same password for both');
      await Promise.all([
        other.waitForSelector('h1:has-text("Choose an organisation")'),
        other.click('form[action="/dashboard/sign-in"] button[type=submit]'),
      ]);
      assert.deepEqual(await other.locator('button[name=user]').allTextContents(), [
        'Sign in to Other tenant',
        'Sign in to Demo organisation',
      ]);
      assert.deepEqual(await seriousViolations(other), [], 'the choice page passes axe-core');
      await Promise.all([other.waitForURL('**/dashboard/keys'), other.click('button:has-text("Sign in to Demo organisation")')]);
      assert.match((await other.textContent('header')) ?? '', /shared@example\.com · viewer · Demo organisation/);
    } finally {
      await invitee.close();
    }
  },
);
