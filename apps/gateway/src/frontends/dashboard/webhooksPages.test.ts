import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../core/auth/secrets.ts';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';
import { csrfTokenOf } from './dashboardAuth.ts';

/**
 * The webhooks pages over HTTP for what a browser test cannot reach quickly (the pages themselves are
 * e2e/dashboardWebhooks.test.ts, in chromium): an endpoint the worker disabled after its failures is
 * named in a notice, a failed delivery shows its attempt and is recovered, and the service's refusal
 * of a resend is the page's problem.
 */
let t: InProcessGateway;
let orgId = '';
let endpointId = '';
let deliveryId = '';
let session = '';
const cookie = () => ({ cookie: `__Host-gp_session=${session}` });

before(async () => {
  t = await startInProcessGateway();
  orgId = (await t.admin.createOrganisation('Hooks')).id;
  const user = (await t.store.createUser({ orgId, email: 'admin@hooks.example', role: 'admin' }))!;
  session = randomBytes(24).toString('base64url');
  await t.store.createDashboardSession({ idHash: sha256Hex(session), userId: user.id, at: new Date() });
  const { endpoint } = await t.gateway.webhooks.endpoints.create(orgId, { url: 'https://receiver.invalid/hook' });
  endpointId = endpoint.id;
  // A delivery that failed for good, as the worker would leave it, then the endpoint disabled for it.
  // It is due an hour ahead, so the gateway's own worker, which claims what is due now, leaves it to this claim.
  const now = new Date(Date.now() + 3600_000);
  await t.store.enqueueWebhookDeliveries(
    [{ orgId, endpointId, eventId: 'evt_failed', eventType: 'customer.updated', body: '{"id":"evt_failed"}' }],
    now,
  );
  const [claimed] = await t.store.claimWebhookDeliveries({
    at: new Date(now.getTime() + 1000),
    leaseUntil: new Date(now.getTime() + 60_000),
    limit: 1,
    perEndpoint: 1,
    skipEndpoints: [],
  });
  assert.ok(claimed, 'claimed before the worker');
  deliveryId = claimed.id;
  await t.store.recordWebhookAttempt(
    claimed,
    { at: now.toISOString(), httpStatus: 503, latencyMs: 42, responseExcerpt: 'busy, try later', error: 'HTTP 503' },
    { kind: 'failed' },
  );
  await t.store.disableWebhookEndpoint(orgId, endpointId, 'every delivery failed for 5 days (last: HTTP 503)', now);
});

after(() => t.close());

async function get(path: string) {
  const res = await fetch(`${t.gateway.url}/dashboard${path}`, { headers: cookie(), redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

async function post(path: string, fields: Record<string, string> = {}) {
  const res = await fetch(`${t.gateway.url}/dashboard${path}`, {
    method: 'POST',
    headers: cookie(),
    body: new URLSearchParams({ ...fields, csrf: csrfTokenOf(session) }),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location') };
}

test('an endpoint disabled by its failures is named in a notice with the reason', async () => {
  const page = await get('/webhooks');
  assert.equal(page.status, 200);
  assert.match(
    page.html,
    /<p class="problem" role="status">Endpoint https:\/\/receiver\.invalid\/hook was disabled [^<]* because every delivery failed for 5 days \(last: HTTP 503\)/,
  );
  assert.match(page.html, /aria-label="Enable endpoint https:\/\/receiver\.invalid\/hook"/);
});

test('a failed delivery shows its attempt; recovered, it is pending; a resend of it then is refused as the page’s problem', async () => {
  const deliveries = `/webhooks/${endpointId}/deliveries`;
  let page = await get(deliveries);
  assert.match(page.html, /Status <strong class="status">failed<\/strong> · 1 attempt · last HTTP status 503 · latency 42 ms/);
  assert.match(page.html, /<td>503<\/td>\s*<td>42 ms<\/td>\s*<td><code>busy, try later<\/code><\/td>\s*<td>HTTP 503<\/td>/);
  assert.match(page.html, /aria-label="Resend delivery of evt_failed"/);

  assert.deepEqual(await post(`/webhooks/${endpointId}/recover`, { since: 'yesterday' }), {
    status: 303,
    location: `/dashboard${deliveries}`,
  });
  assert.match((await get(deliveries)).html, /role="alert">Give the date and time \(UTC\)/);

  const since = new Date(Date.now() - 60_000).toISOString().slice(0, 16);
  assert.equal((await post(`/webhooks/${endpointId}/recover`, { since })).status, 303);
  page = await get(deliveries);
  assert.match(page.html, /role="status">1 failed delivery since \S+ \S+ UTC is sent again now/);
  assert.match(page.html, /Status <strong class="status">pending<\/strong>/);
  assert.equal((await t.store.findWebhookDelivery(orgId, deliveryId))!.status, 'pending');

  assert.equal((await post(`/webhooks/${endpointId}/deliveries/${deliveryId}/resend`)).status, 303);
  assert.match((await get(deliveries)).html, /role="alert">delivery \S+ is pending: only a failed delivery is sent again/);
  assert.doesNotMatch((await get(deliveries)).html, /role="alert"/, 'shown once');
});

test('an endpoint of another organisation, or none, is the list page’s problem', async () => {
  const other = (await t.admin.createOrganisation('Hooks other')).id;
  const theirs = (await t.gateway.webhooks.endpoints.create(other, { url: 'https://theirs.invalid/hook' })).endpoint.id;
  for (const id of [theirs, 'we_nothing']) {
    const answer = await get(`/webhooks/${id}/deliveries`);
    assert.deepEqual([answer.status, answer.location], [303, '/dashboard/webhooks']);
    assert.match((await get('/webhooks')).html, new RegExp(`role="alert">no webhook endpoint ${id} in this organisation`));
    assert.deepEqual(
      [(await post(`/webhooks/${id}/disable`)).status, (await get('/webhooks')).html.includes(`no webhook endpoint ${id}`)],
      [303, true],
    );
  }
  assert.equal((await t.gateway.webhooks.endpoints.get(other, theirs)).disabledAt, null, 'theirs untouched');
});

test('an endpoint is edited from a form holding its fields; a refused change is the problem and changes nothing', async () => {
  const form = (await get(`/webhooks/${endpointId}/edit`)).html;
  assert.match(form, /<input type="url" name="url" required maxlength="2000" value="https:\/\/receiver\.invalid\/hook">/);
  const edited = await post(`/webhooks/${endpointId}/edit`, {
    url: 'https://receiver.invalid/hook2',
    eventTypes: 'customer.*, item.*',
    connections: '',
    description: 'Edited',
  });
  assert.deepEqual(edited, { status: 303, location: '/dashboard/webhooks' });
  assert.match((await get('/webhooks')).html, /role="status">https:\/\/receiver\.invalid\/hook2 is changed/);
  const endpoint = await t.gateway.webhooks.endpoints.get(orgId, endpointId);
  assert.deepEqual(
    [endpoint.url, endpoint.eventTypes, endpoint.connectionIds, endpoint.description],
    ['https://receiver.invalid/hook2', ['customer.*', 'item.*'], null, 'Edited'],
  );
  await post(`/webhooks/${endpointId}/edit`, { url: 'https://receiver.invalid/hook3', eventTypes: 'nonsense.*' });
  assert.match((await get('/webhooks')).html, /role="alert">unknown event types: nonsense\.\*/);
  assert.equal((await t.gateway.webhooks.endpoints.get(orgId, endpointId)).url, 'https://receiver.invalid/hook2');
});
