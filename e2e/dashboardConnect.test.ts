import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runGatewayCli, startAgentProcess, startGatewayProcess, type Started } from './support/processes.ts';
import { buildRelease, throwawayReleaseKey } from './support/release.ts';

/**
 * The guided connection page (issue 36 item 6) in chromium against a real gateway process serving a
 * release folder: the downloads with their checksums, the live status going from waiting to
 * connected and back to offline as a real agent process connects and stops, with no reload (a mark
 * left on the page's window survives), and the default company limited to the companies the agent reports.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}`;

let tmp: string;
let dataDir: string;
let gateway: Started & { url: string };
let browser: Browser;
let page: Page;
let agent: Started | null = null;
let connectionId: string;
let token: string;

const operator = async (...args: string[]) => {
  const run = await runGatewayCli(args, { DATA_DIR: dataDir });
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
};

/** The live part's state, as the page shows it now. */
const liveState = () => page.getAttribute('#agent-state', 'data-state');

before(async () => {
  if (skip) return;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-connect-'));
  dataDir = path.join(tmp, 'gateway');
  const releaseDir = path.join(tmp, 'release');
  buildRelease(releaseDir, '0.2.0', throwawayReleaseKey().privatePem);
  gateway = await startGatewayProcess(dataDir, { RELEASE_DIR: releaseDir });
  const link = /(http:\/\/\S+\/dashboard\/welcome\?token=lb_link_\w+)/.exec(
    await operator('user', 'create', '--org', 'Demo organisation', '--email', 'it@example.com', '--gateway-url', gateway.url),
  )![1]!;
  const created = await operator('connection', 'create', '--org', 'Demo organisation', '--name', 'Plant');
  connectionId = /Created connection (conn_[\w-]+)/.exec(created)![1]!;
  token = /^(lb_agent_\w{32})$/m.exec(created)![1]!;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.fill('input[name=password]', 'a long admin password');
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard/keys');
});

after(async () => {
  await browser?.close();
  await agent?.stop();
  await gateway?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test(
  'the page lists the release the gateway serves, each file with its SHA-256, and the links download those bytes',
  { skip },
  async () => {
    await page.goto(`${gateway.url}/dashboard/connections`);
    await page.click(`a[href="/dashboard/connections/${connectionId}/connect"]`);
    await page.waitForURL(`**/dashboard/connections/${connectionId}/connect`);
    const row = page.locator('tr:has(a:text-is("gp-agent-linux-x64"))');
    const sha = (await row.locator('code.sha256').textContent())!.trim();
    const bytes = Buffer.from(await (await fetch(`${gateway.url}/downloads/gp-agent-linux-x64`)).arrayBuffer());
    assert.equal(sha, crypto.createHash('sha256').update(bytes).digest('hex'));
    assert.match((await page.textContent('#step-download + p'))!, /^Version 0\.2\.0, served by this gateway/);
    for (const name of ['SHA256SUMS', 'SHA256SUMS.sig', 'gp-agent-release.pub.pem'])
      assert.equal(await page.locator(`a[href="/downloads/${name}"]`).count(), 1);
    assert.match((await page.textContent('#install-linux'))!, new RegExp(`install --gateway ${gateway.url} --token-file agent.token`));
    assert.equal(await page.isVisible('button[data-copy-text="install-linux"]'), true, 'a copy button per command');
    assert.equal(await liveState(), 'waiting');
    assert.match((await page.textContent('#live'))!, /Waiting for your agent/);
    assert.match((await page.textContent('#live'))!, /gp-agent diagnose --config/);
  },
);

test(
  'the status turns to connected with the agent version when an agent connects, and to offline when it stops, without a reload',
  { skip },
  async () => {
    await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
    agent = startAgentProcess(gateway.url, token, path.join(dataDir, 'demo'));
    await page.waitForSelector('#agent-state[data-state="connected"]', { timeout: 60_000 });
    const live = (await page.textContent('#live'))!;
    assert.match(
      live,
      /Connected: agent 0\.1\.0 \(commit source, Node \d+\.\d+\.\d+\) \(behind: 0\.2\.0 is available; run gp-agent update on its server\)/,
    );
    assert.match(live, /Writes\s*off/);
    assert.match(live, /Companies\s*TWO, NWIND/);
    await agent.stop();
    agent = null;
    await page.waitForSelector('#agent-state[data-state="offline"]', { timeout: 60_000 });
    assert.match((await page.textContent('#live'))!, /gp-agent diagnose --config/);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed), true, 'the page was never reloaded');
  },
);

test('the default company is chosen among the companies the agent reports; another is refused', { skip }, async () => {
  agent = startAgentProcess(gateway.url, token, path.join(dataDir, 'demo'));
  await page.waitForSelector('#agent-state[data-state="connected"]', { timeout: 60_000 });
  const options = await page
    .locator('select[name=company] option')
    .evaluateAll((all) => all.map((o) => (o as unknown as { value: string }).value));
  assert.deepEqual(options, ['', 'TWO', 'NWIND']);
  // A company the agent does not have, posted as a tampered form would: refused on the server.
  await page.evaluate(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const select = (globalThis as any).document.querySelector('select[name=company]');
    select.append(Object.assign(select.ownerDocument.createElement('option'), { value: 'ZZZ', textContent: 'ZZZ' }));
    select.value = 'ZZZ';
  });
  const [refused] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.waitForNavigation(),
    page.click('button:has-text("Set the default company of Plant")'),
  ]);
  assert.equal(refused.status(), 303, 'post/redirect/get: the answer is the page again');
  assert.match((await page.textContent('.problem'))!, /ZZZ is not a company the agent of "Plant" reports \(TWO, NWIND\)/);
  assert.equal(await page.textContent('#default-company'), 'none');
  await page.selectOption('select[name=company]', 'NWIND');
  await Promise.all([page.waitForNavigation(), page.click('button:has-text("Set the default company of Plant")')]);
  assert.equal(await page.textContent('#default-company'), 'NWIND');
  assert.match(await operator('connection', 'list', '--org', 'Demo organisation'), /conn_\S+\s+Plant\s+NWIND\s/);
});
