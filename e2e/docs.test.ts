import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startGatewayProcess, type Started } from './support/processes.ts';

/**
 * The API reference at /docs in a real browser (Debian's chromium) with every request that leaves
 * this machine refused: the viewer, its styles and the document must all come from the gateway.
 */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(`\n*** SKIPPED: the /docs browser test needs ${CHROMIUM} (apt-get install chromium; .ci/run installs it) ***\n`);
const skip = haveChromium ? false : `no ${CHROMIUM}`;

let dataDir: string;
let gateway: Started & { url: string; testKey: string };
let browser: Browser;

before(async () => {
  if (skip) return;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-docs-'));
  gateway = await startGatewayProcess(dataDir);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

after(async () => {
  await browser?.close();
  await gateway?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('/docs renders the reference offline, from the gateway alone, within its content security policy', { skip }, async () => {
  const context = await browser.newContext();
  const refused: string[] = [];
  await context.route('**/*', (route) => {
    const { hostname, protocol } = new URL(route.request().url());
    if (protocol === 'data:' || hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    refused.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto(`${gateway.url}/docs`);
  await page.locator('.swagger-ui .info .title').filter({ hasText: 'GP gateway API' }).waitFor({ timeout: 30_000 });
  // Every object's operations are listed, with their paths.
  await page.locator('.opblock-summary-path', { hasText: '/v1/customers/{id}' }).first().waitFor();
  const paths = await page.locator('.opblock-summary-path').allInnerTexts();
  for (const expected of ['/v1/customers', '/v1/sales-orders/{id}/lines', '/v1/api-keys/{id}/rotate', '/mcp']) {
    assert.ok(
      paths.some((p) => p.replace(/\u200b/g, '') === expected),
      `${expected} is listed (saw ${paths.length} paths)`,
    );
  }
  // An operation opens with its parameters: the typed filters of customers.
  await page
    .locator('.opblock-summary-path', { hasText: /^\/v1\/customers$/ })
    .first()
    .click();
  await page.locator('.parameters-col_name', { hasText: 'inactive' }).first().waitFor();

  if (process.env.SCREENSHOTS_DIR) {
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.screenshot({ path: path.join(process.env.SCREENSHOTS_DIR, 'reference.png') });
  }
  assert.deepEqual(refused, [], 'nothing was fetched from outside the gateway');
  assert.deepEqual(problems, [], 'no script error and no content security policy violation');
  await context.close();
});

test('the dashboard links to the reference', { skip }, async () => {
  const res = await fetch(`${gateway.url}/dashboard/sign-in`);
  assert.match(await res.text(), /href="\/docs"/);
});
