import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { waitFor } from './support/processes.ts';
import { browserGateway, chromiumSkip as skip, welcomeLinkIn } from './support/browserGateway.ts';
import { seriousViolations } from './support/axe.ts';

/**
 * The dashboard's operations detail in chromium against a real gateway process (issue 36 item 7): the
 * first-run checklist's ready curl copied with its button, and a request followed from its usage row
 * to its own page. Paging the audit log and the by-key filters are HTTP-level tests of their pages
 * (apps/gateway/src/frontends/dashboard/pages/audit.test.ts, usage.test.ts): a browser adds nothing there.
 */
const rig = browserGateway('e2e-dashdetail-');
let page: Page;

const go = (pathAndQuery: string) => page.goto(`${rig.gateway.url}/dashboard/${pathAndQuery}`);

before(async () => {
  if (skip) return;
  await rig.start();
  const context = await rig.browser.newContext();
  // The page's own origin may write and read the clipboard, as a person's click allows it to write.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.gateway.url });
  page = await context.newPage();
  await page.goto(
    welcomeLinkIn(
      await rig.operator('user', 'create', '--org', 'Demo organisation', '--email', 'detail@example.com', '--gateway-url', rig.gateway.url),
    ),
  );
  await page.fill('input[name=password]', 'a long admin password');
  await Promise.all([page.waitForURL('**/dashboard/keys'), page.click('button[type=submit]')]);
});

test("the first-run checklist's curl has a copy button that puts the command on the clipboard", { skip }, async () => {
  await go('keys');
  const curl = (await page.textContent('#first-call'))!;
  assert.match(curl, new RegExp(`^curl -H "Authorization: Bearer \\$KEY" .* "${rig.gateway.url}/v1/companies"$`));
  const button = page.locator('button[data-copy-text="first-call"]');
  assert.equal(await button.isVisible(), true, 'shown once the script runs');
  assert.equal(await button.textContent(), 'Copy the first call');
  await button.click();
  await page.waitForSelector('button[data-copy-text="first-call"]:text-is("Copied")');
  assert.equal(
    await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    ),
    curl,
  );
});

test("a request's row on the usage page opens the request's own page, with its path and error message", { skip }, async () => {
  // One record asked with a list's query: refused, with a message the request's page shows.
  const missing = await fetch(`${rig.gateway.url}/v1/customers/NO-SUCH-CUSTOMER?limit=5`, {
    headers: { authorization: `Bearer ${rig.gateway.testKey}` },
  });
  assert.equal(missing.status, 400);
  const requestId = missing.headers.get('x-request-id')!;
  const { error } = (await missing.json()) as { error: { code: string; message: string } };

  const link = `a[href="/dashboard/usage/requests/${requestId}"]`;
  await waitFor('the request to reach the usage page', async () => {
    await go('usage');
    return (await page.locator(link).count()) ? true : null;
  });
  await Promise.all([page.waitForURL(`**/dashboard/usage/requests/${requestId}`), page.click(link)]);
  const cell = async (name: string) => (await page.textContent(`tr:has(th:text-is("${name}")) td`))?.trim();
  assert.equal(await page.textContent('h1'), `Request ${requestId}`);
  assert.equal(await cell('Method'), 'GET');
  assert.equal(await cell('Path'), '/v1/customers/NO-SUCH-CUSTOMER', 'the path without its query');
  assert.equal(await cell('Record'), 'NO-SUCH-CUSTOMER');
  assert.equal(await cell('Status'), '400');
  assert.equal(await cell('Error code'), error.code);
  assert.equal(await cell('Error message'), error.message);
  assert.equal(await cell('Request id'), requestId);
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the request page');

  // A request id the organisation never made: the page says so, and links back to usage.
  const unknown = await go('usage/requests/req_AAAAAAAAAAAAAAAA');
  assert.equal(unknown!.status(), 404);
  assert.match((await page.textContent('main'))!, /No such request/);
  assert.equal(await page.getAttribute('main a:text-is("Back")', 'href'), '/dashboard/usage');
});
