import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Change } from '@gp-gateway/protocol';
import { startWriteHarness, type WriteHarness } from '../../../testing/writeHarness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testing/webhookReceiver.ts';

/**
 * Webhooks through the whole gateway: an agent over a real WebSocket reports changes, the feed stores
 * them, each new event is delivered to a receiver process that verifies its signature, and
 * `GET /v1/webhook-deliveries` lists the deliveries with a cursor and filters.
 */
let h: WriteHarness;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
  h = await startWriteHarness({ webhooks: { allowPrivateTargets: true } });
});
after(async () => {
  await h.close();
  await receiver.stop();
});

const change = (id: string): Change => ({
  kind: 'deleted',
  id,
  version: `2026-03-01T09:00:0${id.length}.000Z`,
  changedAt: '2026-03-01T09:00:00.000Z',
  record: null,
});

async function get(path: string) {
  const res = await fetch(`${h.gateway.url}${path}`, { headers: { authorization: `Bearer ${h.keys.reader}` } });
  return { status: res.status, body: (await res.json()) as any };
}

test('changes an agent reports are delivered, signed, to the endpoint, and listed newest first by GET /v1/webhook-deliveries', async () => {
  const { endpoint, secret } = await h.gateway.webhooks.endpoints.create(h.orgId, {
    url: `${receiver.origin}/rest/ok`,
    eventTypes: ['customer.deleted'],
  });
  await receiver.secrets('rest', [secret]);
  const agent = await h.agent('hq');
  assert.deepEqual(await agent.reportChanges('customers', 'TWO', [change('A'), change('BB'), change('CCC')]), { stored: 3 });
  await receiver.until((r) => r.filter((d) => d.name === 'rest').length === 3);
  assert.ok(receiver.received.every((d) => d.verified));
  assert.deepEqual(receiver.received.map((d) => JSON.parse(d.body).recordId).sort(), ['A', 'BB', 'CCC']);

  // Delivered is recorded a moment after the receiver answered: read until all three say so.
  let first = await get('/v1/webhook-deliveries?limit=2');
  while (first.body.data.some((d: any) => d.status !== 'succeeded')) first = await get('/v1/webhook-deliveries?limit=2');
  assert.equal(first.status, 200);
  assert.equal(first.body.data.length, 2);
  assert.deepEqual(Object.keys(first.body.data[0]).sort(), [
    'attempts',
    'createdAt',
    'endpointId',
    'eventId',
    'eventType',
    'id',
    'nextAttemptAt',
    'settledAt',
    'status',
  ]);
  assert.ok(first.body.data.every((d: any) => d.endpointId === endpoint.id && d.attempts === 1 && d.eventType === 'customer.deleted'));
  const second = await get(`/v1/webhook-deliveries?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
  assert.equal(second.body.data.length, 1);
  assert.equal(second.body.nextCursor, null, 'the last page says so');
  const ids = [...first.body.data, ...second.body.data].map((d: any) => d.eventId);
  assert.deepEqual(new Set(ids), new Set(receiver.received.map((d) => d.webhookId)));

  assert.deepEqual((await get(`/v1/webhook-deliveries?endpointId=${endpoint.id}&status=failed`)).body, { data: [], nextCursor: null });
});

test('bad filters and a cursor reused with other filters are refused in the error envelope', async () => {
  const bad = await get('/v1/webhook-deliveries?status=lost');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  assert.match(bad.body.error.message, /status: must be one of: pending, succeeded, failed/);
  const page = await get('/v1/webhook-deliveries?limit=1');
  assert.ok(page.body.nextCursor);
  const reused = await get(`/v1/webhook-deliveries?limit=1&status=succeeded&cursor=${encodeURIComponent(page.body.nextCursor)}`);
  assert.equal(reused.status, 400);
  assert.match(reused.body.error.message, /cursor: is not a cursor of this list/);
  assert.equal((await get('/v1/webhook-deliveries?since=yesterday')).status, 400);
});
