import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findPostgresBinaries, startPostgresServer, type PostgresServer } from '@gp-gateway/testing';
import { openPostgresStore } from '../../infrastructure/store/openStore.ts';
import type { Store } from '../../infrastructure/store/store.ts';
import { customerChange, webhookRig, type WebhookRig } from '../../testing/webhookRig.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhookReceiver.ts';

/**
 * Webhook workers of two gateway instances on one PostgreSQL store (a throwaway server from Debian's
 * `postgresql` package; skipped, saying so, without it): they share the queue without ever sending
 * one delivery twice at once, and a delivery claimed by an instance that died is taken over once
 * its lease runs out, with the same webhook-id.
 */
const binaries = findPostgresBinaries();
const missing = 'missing' in binaries ? binaries.missing : null;
if (missing) console.warn(`\n*** SKIPPED: webhook workers on PostgreSQL: ${missing}. ***\n`);

describe('webhook workers on PostgreSQL', { skip: missing ?? false }, () => {
  let server: PostgresServer;
  let receiver: WebhookReceiver;
  const stores: Store[] = [];
  const rigs: WebhookRig[] = [];
  before(async () => {
    server = await startPostgresServer();
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await Promise.all(rigs.map((r) => r.stop()));
    await Promise.all(stores.map((s) => s.close()));
    await receiver?.stop();
    await server?.stop();
  });
  const open = async (url: string) => {
    const store = await openPostgresStore({ connectionString: url });
    stores.push(store);
    return store;
  };
  const to = (name: string) => receiver.received.filter((d) => d.name === name);

  test('two instances share the queue: every delivery is sent once, by one of them', async () => {
    const url = await server.createDatabase();
    const [a, b] = [await open(url), await open(url)];
    const orgId = (await a.createOrganisation('Shared')).id;
    // Both instances seal with one key, as WEBHOOK_SECRETS_KEY makes them.
    const key = Buffer.alloc(32, 7);
    const first = webhookRig(a, { key, perEndpoint: 8 });
    const second = webhookRig(b, { key, perEndpoint: 8 });
    rigs.push(first, second);
    const { secret } = await first.endpoints.create(orgId, { url: `${receiver.origin}/shared/ok`, eventTypes: ['customer.*'] });
    await receiver.secrets('shared', [secret]);
    const stored = await first.store(Array.from({ length: 200 }, () => customerChange(orgId)));
    second.worker.nudge();
    await receiver.until(() => to('shared').length >= 200);
    await Promise.all([first, second].map((r) => r.stop()));
    const ids = to('shared').map((d) => d.webhookId);
    assert.equal(ids.length, 200, 'no delivery was sent twice');
    assert.deepEqual(new Set(ids), new Set(stored.map((e) => e.id)));
    assert.ok(to('shared').every((d) => d.verified));
    const attempts = [...first.attempts, ...second.attempts];
    assert.equal(attempts.length, 200, 'one attempt per delivery across both instances');
    console.log(`instance A sent ${first.attempts.length}, instance B ${second.attempts.length}`);
  });

  test('a delivery claimed by an instance that died is taken over when its lease runs out, with the same webhook-id', async () => {
    const url = await server.createDatabase();
    const [dead, alive] = [await open(url), await open(url)];
    const orgId = (await dead.createOrganisation('Takeover')).id;
    const key = Buffer.alloc(32, 9);
    const rig = webhookRig(alive, { key });
    rigs.push(rig);
    await rig.worker.stop(); // Not yet: the dead instance claims first.
    const { secret } = await rig.endpoints.create(orgId, { url: `${receiver.origin}/takeover/ok`, eventTypes: ['customer.*'] });
    await receiver.secrets('takeover', [secret]);
    const [event] = await rig.store([customerChange(orgId)]);
    // The instance claims it (a one-minute lease) and dies before sending.
    const now = rig.clock.now();
    const claimed = await dead.claimWebhookDeliveries({
      at: now,
      leaseUntil: new Date(now.getTime() + 60_000),
      limit: 10,
      perEndpoint: 10,
      skipEndpoints: [],
    });
    assert.equal(claimed.length, 1);
    await dead.close();

    const meanwhile = await alive.claimWebhookDeliveries({
      at: rig.clock.now(),
      leaseUntil: rig.clock.now(),
      limit: 10,
      perEndpoint: 10,
      skipEndpoints: [],
    });
    assert.deepEqual(meanwhile, [], 'no other instance may take it while the lease lasts');
    rig.worker.start();
    rig.clock.advance(60_001);
    rig.worker.nudge();
    await receiver.until(() => to('takeover').length === 1);
    assert.equal(to('takeover')[0]!.webhookId, event!.id);
    assert.ok(to('takeover')[0]!.verified);
  });
});
