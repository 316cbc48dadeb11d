import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Webhook } from 'standardwebhooks';
import { tempStore } from '../../testing/tempStore.ts';
import { customerChange, webhookRig, type WebhookRig } from '../../testing/webhookRig.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhookReceiver.ts';
import type { Store } from '../../infrastructure/store/store.ts';
import { toApiEvent } from '../events/apiEvent.ts';
import { RETRY_DELAYS_MS } from './schedule.ts';

/**
 * The delivery worker against a real receiver process on loopback (WEBHOOKS_ALLOW_PRIVATE_TARGETS
 * as in development: the receiver is on 127.0.0.1), with clocks scaled so that the 28-hour retry
 * schedule runs in seconds. Every wait is for an attempt or a request, never for time.
 */
let receiver: WebhookReceiver;
let store: Store;
let dispose: () => Promise<void>;
let orgId: string;
const rigs: WebhookRig[] = [];

before(async () => {
  receiver = await startWebhookReceiver();
  ({ store, dispose } = await tempStore());
});
after(async () => {
  await Promise.all(rigs.map((r) => r.stop()));
  await receiver.stop();
  await dispose();
});

/** The webhook core for one test, in an organisation of its own; the previous test's worker is stopped first. */
async function rig(options: Parameters<typeof webhookRig>[1] = {}): Promise<WebhookRig> {
  await Promise.all(rigs.splice(0).map((r) => r.stop()));
  orgId = (await store.createOrganisation(`Hooks ${Math.random()}`)).id;
  const made = webhookRig(store, options);
  rigs.push(made);
  return made;
}

/** An endpoint on the receiver under `name`, whose secrets the receiver is given. */
async function endpoint(r: WebhookRig, name: string, behaviour: string, eventTypes: string[] = ['customer.*']) {
  const created = await r.endpoints.create(orgId, { url: `${receiver.origin}/${name}/${behaviour}`, eventTypes });
  await receiver.secrets(name, [created.secret]);
  return created;
}

const to = (name: string) => receiver.received.filter((d) => d.name === name);

describe('delivery', () => {
  test('every delivery is signed as Standard Webhooks: the receiver verifies each with the library, and refuses a tampered one', async () => {
    const r = await rig();
    const { endpoint: ep, secret } = await endpoint(r, 'signed', 'ok');
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await r.store([customerChange(orgId), customerChange(orgId), customerChange(orgId, 'conn_1', 'vendor.created')]);
    await r.until((a) => a.filter((x) => x.delivery.endpointId === ep.id && x.outcome.kind === 'succeeded').length === 2);
    const got = to('signed');
    assert.deepEqual(
      got.map((d) => d.webhookId).sort(),
      stored
        .filter((e) => e.type.startsWith('customer.'))
        .map((e) => e.id)
        .sort(),
      'webhook-id is the event id; the vendor event is not of the types asked for',
    );
    assert.ok(got.every((d) => d.verified));
    const body = JSON.parse(got[0]!.body);
    const event = stored.find((e) => e.id === got[0]!.webhookId)!;
    assert.deepEqual(body, toApiEvent(event), 'the body is the event as GET /v1/events serves it');
    assert.ok(Math.abs(Number(got[0]!.timestamp) - Date.now() / 1000) < 60, 'webhook-timestamp is the real time in seconds');

    // The same bytes with the body changed do not verify: answered 401.
    const tampered = got[0]!.body.replace('Customer', 'Kustomer');
    const heard = receiver.received.length;
    const answer = await fetch(`${receiver.origin}/signed/ok`, {
      method: 'POST',
      headers: { 'webhook-id': got[0]!.webhookId, 'webhook-timestamp': got[0]!.timestamp, 'webhook-signature': got[0]!.signature },
      body: tampered,
    });
    assert.equal(answer.status, 401);
    // The receiver process announces what it received on its own channel, which may trail its answer.
    await receiver.until(() => receiver.received.length > heard);
    assert.equal(receiver.received.at(-1)!.verified, false);
  });

  test('a rotated secret: both signatures are sent during the overlap, each verifies; the old one alone after 24 hours', async () => {
    const r = await rig();
    const { endpoint: ep, secret: old } = await endpoint(r, 'rotating', 'ok');
    const { secret: fresh, endpoint: rotated } = await r.endpoints.rotate(orgId, ep.id);
    assert.notEqual(fresh, old);
    assert.equal(rotated.rotating, true);
    await r.store([customerChange(orgId)]);
    await receiver.until(() => to('rotating').length === 1);
    const [during] = to('rotating');
    assert.equal(during!.signature.split(' ').length, 2, 'two signatures during the overlap');
    const headers = { 'webhook-id': during!.webhookId, 'webhook-timestamp': during!.timestamp, 'webhook-signature': during!.signature };
    assert.doesNotThrow(() => new Webhook(old).verify(during!.body, headers), 'a receiver still holding the old secret verifies');
    assert.doesNotThrow(() => new Webhook(fresh).verify(during!.body, headers), 'and one holding the new one');

    r.clock.advance(24 * 3600_000 + 1);
    await receiver.secrets('rotating', [fresh]);
    await r.store([customerChange(orgId)]);
    await receiver.until(() => to('rotating').length === 2);
    const afterOverlap = to('rotating')[1]!;
    assert.equal(afterOverlap.signature.split(' ').length, 1, 'the new secret alone once the overlap is over');
    assert.ok(afterOverlap.verified);
    assert.equal((await r.endpoints.get(orgId, ep.id)).rotating, false);
  });

  test('a disabled endpoint receives nothing; the others are delivered to', async () => {
    const r = await rig();
    const { endpoint: off } = await endpoint(r, 'disabled', 'ok');
    const { endpoint: on } = await endpoint(r, 'enabled', 'ok');
    await r.endpoints.disable(orgId, off.id);
    const stored = await r.store([customerChange(orgId), customerChange(orgId)]);
    await r.until((a) => a.filter((x) => x.delivery.endpointId === on.id).length === 2);
    assert.deepEqual(to('disabled'), []);
    assert.deepEqual(
      (await store.listWebhookDeliveries({ orgId, endpointId: off.id, before: null, limit: 10 })).deliveries,
      [],
      'none was even queued',
    );
    assert.deepEqual(
      to('enabled')
        .map((d) => d.webhookId)
        .sort(),
      stored.map((e) => e.id).sort(),
    );
  });

  test('a slow endpoint never delays another: at most its own slots are taken, the others are delivered meanwhile', async () => {
    const r = await rig({ perEndpoint: 2 });
    const { endpoint: slow } = await endpoint(r, 'slow', 'hang');
    const { endpoint: fast } = await endpoint(r, 'fast', 'ok');
    await r.store(Array.from({ length: 8 }, () => customerChange(orgId)));
    await r.until((a) => a.filter((x) => x.delivery.endpointId === fast.id && x.outcome.kind === 'succeeded').length === 8);
    assert.equal(to('slow').length, 2, 'the slow endpoint holds its two slots, and no more');
    assert.ok(to('slow').every((d) => d.concurrent <= 2));
    await receiver.release('slow');
    await r.until((a) => a.filter((x) => x.delivery.endpointId === slow.id && x.outcome.kind === 'succeeded').length === 8);
    assert.ok(
      to('slow').every((d) => d.concurrent <= 2),
      'never more than two at once',
    );
  });
});

describe('retries, on the schedule (clock 20,000 times faster)', () => {
  const FACTOR = 20_000;

  /** The gaps between an endpoint's attempts, in clock milliseconds. */
  function gaps(r: WebhookRig, endpointId: string): number[] {
    const times = r.attempts.filter((a) => a.delivery.endpointId === endpointId).map((a) => Date.parse(a.attempt.at));
    return times.slice(1).map((t, i) => t - times[i]!);
  }

  test('a receiver answering 500 is tried 8 times over the schedule, then the delivery has failed', async () => {
    const r = await rig({ factor: FACTOR });
    const { endpoint: ep } = await endpoint(r, 'five-hundred', 'status/500');
    const [event] = await r.store([customerChange(orgId)]);
    await r.until((a) => a.some((x) => x.delivery.endpointId === ep.id && x.outcome.kind === 'failed'));
    const mine = r.attempts.filter((a) => a.delivery.endpointId === ep.id);
    assert.equal(mine.length, 8);
    assert.deepEqual(
      mine.map((a) => [a.attempt.httpStatus, a.attempt.error]),
      Array.from({ length: 8 }, () => [500, 'answered 500']),
    );
    assert.equal(mine[0]!.attempt.responseExcerpt, 'answered 500 by the test receiver');
    gaps(r, ep.id).forEach((gap, i) => {
      const scheduled = RETRY_DELAYS_MS[i]!;
      assert.ok(gap >= scheduled * 0.9, `retry ${i + 1} waited ${gap} ms, the schedule says ${scheduled} ms less 10% jitter`);
      // Real milliseconds of work between attempts count 20,000 times over: the upper bound is loose.
      assert.ok(gap <= scheduled * 1.1 + 3_600_000, `retry ${i + 1} waited ${gap} ms, the schedule says ${scheduled} ms`);
    });
    assert.ok(
      to('five-hundred').every((d) => d.webhookId === event!.id),
      'the same webhook-id on every attempt',
    );
    const delivery = (await store.listWebhookDeliveries({ orgId, endpointId: ep.id, before: null, limit: 10 })).deliveries[0]!;
    assert.deepEqual([delivery.status, delivery.attempts], ['failed', 8]);
    assert.equal((await store.listWebhookAttempts(orgId, delivery.id)).length, 8);
  });

  test('a receiver that fails twice and recovers is delivered on the third attempt', async () => {
    const r = await rig({ factor: FACTOR });
    const { endpoint: ep } = await endpoint(r, 'recovering', 'fail/2');
    await r.store([customerChange(orgId)]);
    await r.until((a) => a.some((x) => x.delivery.endpointId === ep.id && x.outcome.kind === 'succeeded'));
    assert.deepEqual(
      r.attempts.filter((a) => a.delivery.endpointId === ep.id).map((a) => a.attempt.httpStatus),
      [500, 500, 204],
    );
    assert.equal((await r.endpoints.get(orgId, ep.id)).failingSince, null, 'the success ended its failing streak');
  });

  test("a 429's Retry-After is waited for when longer than the schedule", async () => {
    const r = await rig({ factor: FACTOR });
    const { endpoint: ep } = await endpoint(r, 'throttled', 'retry-after/429/3600');
    await r.store([customerChange(orgId)]);
    await r.until((a) => a.filter((x) => x.delivery.endpointId === ep.id).length >= 2);
    const [gap] = gaps(r, ep.id);
    assert.ok(gap! >= 3_600_000, `the second attempt came ${gap} ms after the first: Retry-After asked for an hour`);
  });

  test('no answer within the time allowed, and a refused connection, are failed attempts tried again', async () => {
    const r = await rig({ factor: FACTOR, attemptTimeoutMs: 300 });
    const { endpoint: hanging } = await endpoint(r, 'timeout', 'hang');
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const refused = (await r.endpoints.create(orgId, { url: `http://127.0.0.1:${closedPort}/hooks`, eventTypes: ['customer.*'] })).endpoint;
    await r.store([customerChange(orgId)]);
    await r.until(
      (a) =>
        a.filter((x) => x.delivery.endpointId === hanging.id).length >= 2 &&
        a.filter((x) => x.delivery.endpointId === refused.id).length >= 2,
    );
    const first = (id: string) => r.attempts.find((a) => a.delivery.endpointId === id)!;
    assert.deepEqual([first(hanging.id).attempt.httpStatus, first(hanging.id).attempt.error], [null, 'no answer within 0.3 s']);
    assert.deepEqual([first(refused.id).attempt.httpStatus, first(refused.id).attempt.error], [null, 'connection refused']);
    assert.equal(first(refused.id).outcome.kind, 'retry');
    await receiver.release('timeout');
  });

  test('a short lease (WEBHOOKS_LEASE_SECONDS) makes each attempt give up at a third of it, so that no attempt outlives its lease', async () => {
    const r = await rig({ leaseMs: 900 });
    await endpoint(r, 'short-lease', 'hang');
    await r.store([customerChange(orgId)]);
    await r.until((a) => a.length >= 1);
    assert.deepEqual([r.attempts[0]!.attempt.httpStatus, r.attempts[0]!.attempt.error], [null, 'no answer within 0.3 s']);
    assert.equal(r.attempts[0]!.outcome.kind, 'retry');
    await receiver.release('short-lease');
  });

  test('an endpoint failing for 5 days is disabled, and endpoint.disabled goes to the endpoints that asked for it', async () => {
    const r = await rig({ factor: FACTOR });
    const { endpoint: dead } = await endpoint(r, 'dead', 'status/503');
    const { endpoint: watcher } = await endpoint(r, 'watcher', 'ok', ['endpoint.disabled']);
    await r.store([customerChange(orgId)]);
    await r.until((a) => a.some((x) => x.delivery.endpointId === dead.id));
    // Five days pass with every delivery to it failing; the next failure disables it.
    r.clock.advance(5 * 24 * 3600_000);
    await r.store([customerChange(orgId)]);
    await receiver.until(() => to('watcher').length === 1);
    const disabled = await r.endpoints.get(orgId, dead.id);
    assert.ok(disabled.disabledAt !== null);
    assert.match(disabled.disabledReason!, /^every delivery failed for 5 days \(last: answered 503\)$/);
    const notice = JSON.parse(to('watcher')[0]!.body);
    assert.equal(notice.type, 'endpoint.disabled');
    assert.deepEqual(notice.data, { endpointId: dead.id, url: dead.url, reason: disabled.disabledReason });
    assert.ok(to('watcher')[0]!.verified);
    await r.endpoints.delete(orgId, watcher.id);
  });
});

describe('targets that are refused', () => {
  test('a redirect is not followed, even to loopback where the development setting would send', async () => {
    const r = await rig();
    const target = `${receiver.origin}/redirected/ok`;
    const { endpoint: ep } = await endpoint(r, 'redirecting', `redirect?to=${encodeURIComponent(target)}`);
    await r.store([customerChange(orgId)]);
    await r.until((a) => a.some((x) => x.delivery.endpointId === ep.id));
    const [attempt] = r.attempts.filter((a) => a.delivery.endpointId === ep.id);
    assert.equal(attempt!.attempt.httpStatus, 302);
    assert.equal(attempt!.attempt.error, `answered 302 (a redirect to ${target}): redirects are not followed`);
    assert.deepEqual(to('redirected'), [], 'nothing reached the address it pointed to');
    await r.endpoints.delete(orgId, ep.id);
  });

  test('without the development setting, a name resolving to loopback is refused at the attempt with a clear message, and nothing is sent', async () => {
    const asked: string[] = [];
    const r = await rig({
      allowPrivateTargets: false,
      resolve: async (host) => {
        asked.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const { endpoint: ep } = await r.endpoints.create(orgId, { url: 'https://hooks.integrator.example/gp', eventTypes: ['customer.*'] });
    const before = receiver.received.length;
    await r.store([customerChange(orgId)]);
    await r.until((a) => a.some((x) => x.delivery.endpointId === ep.id));
    const [attempt] = r.attempts.filter((a) => a.delivery.endpointId === ep.id);
    assert.deepEqual(
      [attempt!.attempt.httpStatus, attempt!.attempt.error],
      [null, 'refused: hooks.integrator.example resolves to 127.0.0.1 is a loopback address'],
    );
    assert.deepEqual(asked, ['hooks.integrator.example'], 'resolved at the attempt');
    assert.equal(receiver.received.length, before);
    await r.endpoints.delete(orgId, ep.id);
  });
});
