import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { auditSentence } from '../../frontends/dashboard/auditSentence.ts';
import { tempStore } from '../../testing/tempStore.ts';
import { SecretBox } from './secretBox.ts';
import { WebhookEndpoints } from './webhookEndpoints.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);
const webhooks = new WebhookEndpoints({ store, box: new SecretBox(randomBytes(32)), allowPrivateTargets: false });

test("each change of an endpoint is in its organisation's audit log, by who made it, and no secret is", async () => {
  const org = await admin.createOrganisation('Audited Ltd');
  const other = await admin.createOrganisation('Elsewhere Ltd');
  const ann = webhooks.by({ name: 'ann@audited.example', address: '192.0.2.7' });
  const { endpoint, secret } = await ann.create(org.id, { url: 'https://erp.example.com/hooks', eventTypes: ['customer.*'] });
  await ann.update(org.id, endpoint.id, { eventTypes: ['vendor.*'], description: 'Vendors only' });
  const { secret: rotated } = await webhooks.rotate(org.id, endpoint.id);
  await ann.disable(org.id, endpoint.id);
  await ann.disable(org.id, endpoint.id); // already disabled: nothing changes, nothing is recorded
  await ann.enable(org.id, endpoint.id);
  await webhooks.disableFailing(org.id, endpoint.id, 'every delivery failed for 5 days (last: answered 500)');
  await ann.delete(org.id, endpoint.id);
  await assert.rejects(ann.delete(org.id, endpoint.id), /no webhook endpoint/);

  const entries = (await store.listAudit(org.id, 50)).reverse();
  assert.deepEqual(
    entries.map((e) => [e.actor, e.action, e.target, e.address]),
    [
      ['ann@audited.example', 'webhook.created', `${endpoint.id} "https://erp.example.com/hooks"`, '192.0.2.7'],
      ['ann@audited.example', 'webhook.updated', `${endpoint.id} "https://erp.example.com/hooks"`, '192.0.2.7'],
      ['operator CLI', 'webhook.secret.rotated', `${endpoint.id} "https://erp.example.com/hooks"`, null],
      ['ann@audited.example', 'webhook.disabled', `${endpoint.id} "https://erp.example.com/hooks"`, '192.0.2.7'],
      ['ann@audited.example', 'webhook.enabled', `${endpoint.id} "https://erp.example.com/hooks"`, '192.0.2.7'],
      ['gateway', 'webhook.disabled', `${endpoint.id} "https://erp.example.com/hooks"`, null],
      ['ann@audited.example', 'webhook.deleted', `${endpoint.id} "https://erp.example.com/hooks"`, '192.0.2.7'],
    ],
  );
  assert.deepEqual(entries[1]!.details, {
    url: 'https://erp.example.com/hooks',
    events: ['vendor.*'],
    connections: null,
    description: 'Vendors only',
  });
  assert.equal(
    auditSentence(entries[2]!),
    'operator CLI rotated the signing secret of the webhook endpoint “https://erp.example.com/hooks”, keeping the old one signing for 24 h',
  );
  const logged = JSON.stringify(entries);
  for (const s of [secret, rotated]) assert.ok(!logged.includes(s.slice(6)), 'no signing secret in the audit log');
  assert.deepEqual(await store.listAudit(other.id, 50), [], "another organisation's log has none of it");
});
