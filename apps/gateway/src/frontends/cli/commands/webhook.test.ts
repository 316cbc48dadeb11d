import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../../core/webhooks/secretBox.ts';
import { WebhookEndpoints } from '../../../core/webhooks/webhookEndpoints.ts';
import { tempStore } from '../../../testing/tempStore.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhookEnabled,
} from './webhook.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);
const webhooks = new WebhookEndpoints({ store, box: new SecretBox(randomBytes(32)), allowPrivateTargets: false });
const tools = { admin, store, webhooks };

test('webhook create prints the signing secret once, alone on its line; the store keeps it sealed, never in clear', async () => {
  const org = await admin.createOrganisation('Acme Ltd');
  const lines = await createWebhook(tools, { org: 'Acme Ltd', url: 'https://erp.example.com/hooks', types: 'customer.*, vendor.created' });
  const secret = lines[4]!;
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const [endpoint] = await store.listWebhookEndpoints(org.id);
  assert.deepEqual(lines, [
    `Created webhook endpoint ${endpoint!.id} for "Acme Ltd" (${org.id}): https://erp.example.com/hooks`,
    'Events: customer.*, vendor.created; connections: all.',
    'Its signing secret is shown this once. Give it to the receiver, which verifies each delivery with it:',
    '',
    secret,
    '',
    `Send a test event with: gp-gateway webhook test ${endpoint!.id} --org ${org.id}`,
  ]);
  assert.ok(!JSON.stringify(endpoint).includes(secret.slice(6)), 'the store holds no trace of the secret in clear');
  assert.deepEqual(webhooks.signingSecrets(endpoint!, new Date()), [secret], 'the gateway can still sign with it');
  assert.ok(!(await listWebhooks(tools, org.id)).join('\n').includes(secret.slice(6)), 'and it is never listed');
});

test('webhook create refuses what could never be sent to, saying why', async () => {
  await admin.createOrganisation('Refused');
  const refused = (url: string, types?: string) => createWebhook(tools, { org: 'Refused', url, ...(types ? { types } : {}) });
  await assert.rejects(refused('http://erp.example.com/'), { message: 'webhook URLs must start with https:// (http:// is refused)' });
  await assert.rejects(refused('https://127.0.0.1/'), { message: 'webhooks are not sent there: 127.0.0.1 is a loopback address' });
  await assert.rejects(refused('https://[::1]/'), { message: 'webhooks are not sent there: ::1 is a loopback address' });
  await assert.rejects(refused('https://169.254.169.254/'), {
    message: 'webhooks are not sent there: 169.254.169.254 is a cloud metadata address',
  });
  await assert.rejects(refused('not a url'), /is not a URL/);
  await assert.rejects(refused('https://erp.example.com/', 'customers.*'), /unknown event types: customers\.\*: must be an event type/);
});

test('webhook list, rotate-secret, disable, enable, test, deliveries and delete', async () => {
  const org = await admin.createOrganisation('Lifecycle');
  const created = await createWebhook(tools, { org: org.id, url: 'https://erp.example.com/a' });
  const id = created[0]!.split(' ')[3]!;
  const rotated = await rotateWebhookSecret(tools, { org: org.id, endpoint: id });
  assert.match(rotated[3]!, /^whsec_/);
  assert.notEqual(rotated[3], created[4]);
  const [row] = (await listWebhooks(tools, org.id)).slice(1);
  assert.match(row!, new RegExp(`^${id}  https://erp.example.com/a  \\*\\s+enabled \\(old secret signs too until .* UTC\\)`));
  assert.deepEqual(await setWebhookEnabled(tools, { org: org.id, endpoint: id }, false), [
    `Disabled ${id}: nothing is sent to it, and new events are not queued for it, until it is enabled.`,
  ]);
  assert.match((await listWebhooks(tools, org.id))[1]!, /DISABLED .* UTC: disabled by an admin/);
  await setWebhookEnabled(tools, { org: org.id, endpoint: id }, true);
  const queued = await sendTestEvent(tools, { org: org.id, endpoint: id });
  const eventId = queued[0]!.split(' ')[3]!;
  const deliveries = await listDeliveries(tools, { org: org.id, endpoint: id });
  assert.equal(deliveries.length, 2);
  assert.match(deliveries[1]!, new RegExp(`^wd_\\S+\\s+${id}\\s+webhook.test\\s+${eventId}\\s+pending\\s+0\\s+next .* UTC$`));
  await assert.rejects(listDeliveries(tools, { org: org.id, status: 'lost' }), {
    message: '--status must be one of pending, succeeded, failed, not "lost"',
  });
  assert.deepEqual(await deleteWebhook(tools, { org: org.id, endpoint: id }), [`Deleted ${id} with its deliveries.`]);
  assert.deepEqual(await listDeliveries(tools, { org: org.id }), ['No deliveries.']);
  await assert.rejects(deleteWebhook(tools, { org: org.id, endpoint: id }), { message: `no webhook endpoint ${id} in this organisation` });
});
