import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventDeliveries, NewEvent, NewWebhookDelivery, Store, WebhookAttempt } from '../infrastructure/store/store.ts';

/**
 * What the store must do for webhooks on each engine (roles/webhooks.ts), run by storeContract.ts:
 * `fresh` opens a store on a new database, `twoOnOne` two stores on one (as two instances).
 */
export function webhooksStoreContract(openFresh: () => Promise<Store>, openTwoOnOne: () => Promise<[Store, Store]>): void {
  /** Stores opened by the running test, closed when it ends. */
  let open: Store[] = [];
  afterEach(async () => {
    await Promise.all(open.map((s) => s.close()));
    open = [];
  });
  const fresh = async () => {
    const store = await openFresh();
    open.push(store);
    return store;
  };
  const twoOnOne = async () => {
    const pair = await openTwoOnOne();
    open.push(...pair);
    return pair;
  };

  const T0 = new Date('2026-05-01T10:00:00.000Z');
  const later = (ms: number) => new Date(T0.getTime() + ms);

  /** The endpoint withEndpoint creates, as given to the store. */
  const ENDPOINT = {
    url: 'https://hooks.example.com/gp',
    eventTypes: ['customer.*'],
    connectionIds: null,
    description: 'ERP sync',
    sealedSecret: 'sealed-1',
  };

  async function withEndpoint(store: Store, orgName = 'Hooks') {
    const org = await store.createOrganisation(orgName);
    const endpoint = await store.createWebhookEndpoint({ orgId: org.id, ...ENDPOINT, at: T0 });
    return { org, endpoint };
  }

  const delivery = (orgId: string, endpointId: string, eventId: string): NewWebhookDelivery => ({
    orgId,
    endpointId,
    eventId,
    eventType: 'customer.updated',
    body: JSON.stringify({ id: eventId }),
  });

  const attempt = (at: Date, httpStatus: number | null, error: string | null = null): WebhookAttempt => ({
    at: at.toISOString(),
    httpStatus,
    latencyMs: 12.5,
    responseExcerpt: httpStatus === null ? null : `answered ${httpStatus}`,
    error,
  });

  test('webhook endpoints: created, changed, disabled once, deleted, each in its organisation only', async () => {
    const store = await fresh();
    const { org, endpoint } = await withEndpoint(store);
    const other = await store.createOrganisation('Other');
    assert.deepEqual(endpoint, {
      id: endpoint.id,
      orgId: org.id,
      ...ENDPOINT,
      sealedPreviousSecret: null,
      previousSecretExpiresAt: null,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
    });
    assert.match(endpoint.id, /^we_[A-Za-z0-9_-]{16}$/);
    assert.deepEqual(await store.listWebhookEndpoints(org.id), [endpoint]);
    assert.deepEqual(await store.listWebhookEndpoints(other.id), []);
    assert.equal(await store.findWebhookEndpoint(other.id, endpoint.id), null, "another organisation's endpoint is not found");
    assert.equal(await store.updateWebhookEndpoint(other.id, endpoint.id, { url: 'https://evil.example' }, T0), null);

    const changed = await store.updateWebhookEndpoint(
      org.id,
      endpoint.id,
      {
        connectionIds: ['conn_1'],
        sealedSecret: 'sealed-2',
        sealedPreviousSecret: 'sealed-1',
        previousSecretExpiresAt: later(1000).toISOString(),
      },
      later(1),
    );
    assert.deepEqual(changed, {
      ...endpoint,
      connectionIds: ['conn_1'],
      sealedSecret: 'sealed-2',
      sealedPreviousSecret: 'sealed-1',
      previousSecretExpiresAt: later(1000).toISOString(),
      updatedAt: later(1).toISOString(),
    });

    const disabled = await store.disableWebhookEndpoint(org.id, endpoint.id, 'failing for 5 days', later(2));
    assert.equal(disabled?.disabledAt, later(2).toISOString());
    assert.equal(disabled?.disabledReason, 'failing for 5 days');
    assert.equal(await store.disableWebhookEndpoint(org.id, endpoint.id, 'again', later(3)), null, 'disabled once');

    assert.equal(await store.deleteWebhookEndpoint(other.id, endpoint.id), false);
    assert.equal(await store.deleteWebhookEndpoint(org.id, endpoint.id), true);
    assert.deepEqual(await store.listWebhookEndpoints(org.id), []);
  });

  test('webhook deliveries: one per endpoint and event, claimed with a lease, retried on its schedule, settled once', async () => {
    const store = await fresh();
    const { org, endpoint } = await withEndpoint(store);
    assert.equal(
      await store.enqueueWebhookDeliveries([delivery(org.id, endpoint.id, 'evt_1'), delivery(org.id, endpoint.id, 'evt_2')], T0),
      2,
    );
    assert.equal(
      await store.enqueueWebhookDeliveries([delivery(org.id, endpoint.id, 'evt_1')], T0),
      0,
      'an event is queued once per endpoint',
    );
    assert.equal(await store.countDueWebhookDeliveries(T0), 2);

    const claim = (at: Date, leaseMs = 60_000) =>
      store.claimWebhookDeliveries({ at, leaseUntil: new Date(at.getTime() + leaseMs), limit: 10, perEndpoint: 10, skipEndpoints: [] });
    const first = await claim(T0);
    assert.deepEqual(
      first.map((d) => [d.eventId, d.status, d.attempts, d.body]),
      [
        ['evt_1', 'pending', 0, '{"id":"evt_1"}'],
        ['evt_2', 'pending', 0, '{"id":"evt_2"}'],
      ],
    );
    assert.deepEqual(await claim(later(1)), [], 'leased deliveries are not claimed again while the lease lasts');

    // evt_1 fails and is due again in 5 s; evt_2 is delivered.
    const [one, two] = first;
    let ep = await store.recordWebhookAttempt(one!, attempt(later(10), 500), { kind: 'retry', retryAt: later(5_000) });
    assert.equal(ep?.failingSince, later(10).toISOString(), 'the endpoint is failing since its first failure');
    ep = await store.recordWebhookAttempt(two!, attempt(later(20), 204), { kind: 'succeeded' });
    assert.equal(ep?.failingSince, null, 'a success ends the failing streak');
    assert.deepEqual(await claim(later(4_999)), [], 'not before its retry is due');
    const again = await claim(later(5_000));
    assert.deepEqual(
      again.map((d) => [d.eventId, d.attempts]),
      [['evt_1', 1]],
    );

    // A stale claim (its lease since taken over) records its attempt but changes nothing.
    await store.recordWebhookAttempt(one!, attempt(later(5_001), 200), { kind: 'succeeded' });
    const stillPending = await store.findWebhookDelivery(org.id, one!.id);
    assert.deepEqual([stillPending?.status, stillPending?.attempts], ['pending', 1]);
    await store.recordWebhookAttempt(again[0]!, attempt(later(5_002), null, 'connection refused'), { kind: 'failed' });
    const failed = await store.findWebhookDelivery(org.id, one!.id);
    assert.deepEqual(
      [failed?.status, failed?.attempts, failed?.nextAttemptAt, failed?.settledAt],
      ['failed', 2, null, later(5_002).toISOString()],
    );
    assert.deepEqual(
      (await store.listWebhookAttempts(org.id, one!.id)).map((a) => [a.httpStatus, a.error, a.responseExcerpt, a.latencyMs]),
      [
        [500, null, 'answered 500', 12.5],
        [200, null, 'answered 200', 12.5],
        [null, 'connection refused', null, 12.5],
      ],
    );
    const other = await store.createOrganisation('Other');
    assert.deepEqual(await store.listWebhookAttempts(other.id, one!.id), [], "another organisation's attempts are not read");

    // A failed delivery is sent again on request.
    assert.equal(await store.retryWebhookDeliveries({ orgId: org.id, endpointId: endpoint.id, since: T0 }, later(6_000)), 1);
    assert.deepEqual(
      (await claim(later(6_000))).map((d) => d.eventId),
      ['evt_1'],
    );
  });

  test('webhook deliveries: an expired lease is taken over; disabled endpoints and full ones are skipped; at most so many per endpoint', async () => {
    const store = await fresh();
    const { org, endpoint } = await withEndpoint(store);
    const second = await store.createWebhookEndpoint({
      orgId: org.id,
      url: 'https://other.example.com/',
      eventTypes: [],
      connectionIds: null,
      description: '',
      sealedSecret: 's',
      at: T0,
    });
    await store.enqueueWebhookDeliveries(
      Array.from({ length: 5 }, (_, i) => delivery(org.id, endpoint.id, `evt_a${i}`)),
      T0,
    );
    await store.enqueueWebhookDeliveries(
      Array.from({ length: 3 }, (_, i) => delivery(org.id, second.id, `evt_b${i}`)),
      later(1),
    );
    const claim = (at: Date, perEndpoint: number, skipEndpoints: string[] = []) =>
      store.claimWebhookDeliveries({ at, leaseUntil: new Date(at.getTime() + 1_000), limit: 100, perEndpoint, skipEndpoints });
    const perEndpoint = await claim(later(2), 2);
    assert.deepEqual(
      perEndpoint.map((d) => d.eventId),
      ['evt_a0', 'evt_a1', 'evt_b0', 'evt_b1'],
      'two of each endpoint, oldest due first',
    );
    assert.deepEqual(
      perEndpoint.map((d) => [d.endpoint.id, d.endpoint.url]),
      [...Array(2).fill([endpoint.id, endpoint.url]), ...Array(2).fill([second.id, second.url])],
      'each with its endpoint',
    );
    const quota = await store.claimWebhookDeliveries({
      at: later(3),
      leaseUntil: later(4),
      limit: 100,
      perEndpoint: 2,
      quotas: new Map([[endpoint.id, 1]]),
      skipEndpoints: [],
    });
    assert.deepEqual(
      quota.map((d) => d.eventId),
      ['evt_a2', 'evt_b2'],
      'an endpoint with a quota gets that many, the others perEndpoint',
    );
    assert.deepEqual(
      (await claim(later(5), 10, [endpoint.id])).map((d) => d.eventId),
      ['evt_b2'],
      'a skipped endpoint gives none',
    );
    const takenOver = await claim(later(1_002), 10);
    assert.deepEqual(
      takenOver.map((d) => d.eventId).sort(),
      ['evt_a0', 'evt_a1', 'evt_a2', 'evt_a3', 'evt_a4', 'evt_b0', 'evt_b1'],
      'expired leases are claimed again, with the rest',
    );
    assert.notEqual(takenOver[0]!.lease, perEndpoint[0]!.lease);

    await store.disableWebhookEndpoint(org.id, endpoint.id, 'by an admin', later(1_003));
    assert.deepEqual(
      (await claim(later(5_000), 10)).map((d) => d.eventId).sort(),
      ['evt_b0', 'evt_b1', 'evt_b2'],
      "a disabled endpoint's deliveries wait",
    );
    assert.equal(await store.countDueWebhookDeliveries(later(5_000)), 3);
  });

  test('webhook attempts recorded together: in one transaction, in order, the failing streak as if one by one', async () => {
    const store = await fresh();
    const { org, endpoint } = await withEndpoint(store);
    const gone = await withEndpoint(store, 'Gone');
    await store.enqueueWebhookDeliveries(
      ['evt_1', 'evt_2', 'evt_3', 'evt_4'].map((id) => delivery(org.id, endpoint.id, id)),
      T0,
    );
    await store.enqueueWebhookDeliveries([delivery(gone.org.id, gone.endpoint.id, 'evt_gone')], T0);
    const claimed = await store.claimWebhookDeliveries({
      at: later(1),
      leaseUntil: later(60_000),
      limit: 10,
      perEndpoint: 10,
      skipEndpoints: [],
    });
    const byEvent = new Map(claimed.map((d) => [d.eventId, d]));
    // The other organisation's endpoint is deleted with its delivery before the attempt is recorded.
    await store.deleteWebhookEndpoint(gone.org.id, gone.endpoint.id);
    const endpoints = await store.recordWebhookAttempts([
      { delivery: byEvent.get('evt_1')!, attempt: attempt(later(10), 500), outcome: { kind: 'retry', retryAt: later(5_000) } },
      { delivery: byEvent.get('evt_2')!, attempt: attempt(later(20), 204), outcome: { kind: 'succeeded' } },
      { delivery: byEvent.get('evt_gone')!, attempt: attempt(later(25), 204), outcome: { kind: 'succeeded' } },
      { delivery: byEvent.get('evt_3')!, attempt: attempt(later(30), 503), outcome: { kind: 'retry', retryAt: later(5_000) } },
      { delivery: byEvent.get('evt_4')!, attempt: attempt(later(40), null, 'refused'), outcome: { kind: 'failed' } },
    ]);
    assert.deepEqual([...endpoints.keys()], [endpoint.id], 'the deleted endpoint is not there');
    assert.equal(
      endpoints.get(endpoint.id)!.failingSince,
      later(30).toISOString(),
      'failing since the first failure after the last success',
    );
    const states = await Promise.all(
      ['evt_1', 'evt_2', 'evt_3', 'evt_4'].map((id) => store.findWebhookDelivery(org.id, byEvent.get(id)!.id)),
    );
    assert.deepEqual(
      states.map((d) => [d?.status, d?.attempts]),
      [
        ['pending', 1],
        ['succeeded', 1],
        ['pending', 1],
        ['failed', 1],
      ],
    );
    assert.deepEqual(
      (await store.listWebhookAttempts(org.id, byEvent.get('evt_4')!.id)).map((a) => a.error),
      ['refused'],
    );
    const recovered = await store.recordWebhookAttempts([
      { delivery: byEvent.get('evt_1')!, attempt: attempt(later(50), 500), outcome: { kind: 'retry', retryAt: later(9_000) } },
    ]);
    assert.equal(recovered.get(endpoint.id)!.failingSince, later(30).toISOString(), 'a later failure keeps the streak where it started');
  });

  test('webhook deliveries are listed newest first by a keyset position, filtered by endpoint, status and time', async () => {
    const store = await fresh();
    const { org, endpoint } = await withEndpoint(store);
    const second = await store.createWebhookEndpoint({ ...endpoint, orgId: org.id, sealedSecret: 's', at: T0 });
    for (let i = 0; i < 5; i++) await store.enqueueWebhookDeliveries([delivery(org.id, endpoint.id, `evt_${i}`)], later(i * 1000));
    await store.enqueueWebhookDeliveries([delivery(org.id, second.id, 'evt_x')], later(9_000));
    const read = async (query: { endpointId?: string; status?: 'pending' | 'succeeded' | 'failed'; since?: string }) => {
      const seen: string[] = [];
      let before: number | null = null;
      do {
        const page = await store.listWebhookDeliveries({ orgId: org.id, ...query, before, limit: 2 });
        seen.push(...page.deliveries.map((d) => d.eventId));
        before = page.next;
      } while (before !== null);
      return seen;
    };
    assert.deepEqual(await read({}), ['evt_x', 'evt_4', 'evt_3', 'evt_2', 'evt_1', 'evt_0']);
    assert.deepEqual(await read({ endpointId: endpoint.id, since: later(2_000).toISOString() }), ['evt_4', 'evt_3', 'evt_2']);
    assert.deepEqual(await read({ status: 'succeeded' }), []);
    const other = await store.createOrganisation('Other');
    assert.deepEqual((await store.listWebhookDeliveries({ orgId: other.id, before: null, limit: 10 })).deliveries, []);
  });

  const change = (orgId: string, recordId: string): NewEvent => ({
    orgId,
    connectionId: 'conn_1',
    company: 'TWO',
    type: 'customer.updated',
    object: 'customers',
    recordId,
    version: `changed:${recordId}`,
    changedAt: T0.toISOString(),
    data: { id: recordId },
  });

  test('new events and their webhook deliveries are stored in one transaction: both or neither', async () => {
    const store = await fresh();
    const { org, endpoint } = await withEndpoint(store);
    const other = await withEndpoint(store, 'Elsewhere');
    const disabled = await store.createWebhookEndpoint({ ...endpoint, at: T0, sealedSecret: 'sealed-2' });
    await store.disableWebhookEndpoint(org.id, disabled.id, 'by an admin', T0);
    const offered: string[][] = [];
    const everyEndpoint: EventDeliveries = (events, endpoints) => {
      offered.push(endpoints.map((e) => e.id));
      return events.flatMap((event) => endpoints.map((e) => delivery(event.orgId, e.id, event.id)));
    };

    const stored = await store.appendEvents([change(org.id, 'A'), change(org.id, 'B')], T0, everyEndpoint);
    assert.deepEqual(offered, [[endpoint.id]], "only the enabled endpoints of the events' organisation are offered");
    const queued = await store.listWebhookDeliveries({ orgId: org.id, before: null, limit: 10 });
    assert.deepEqual(
      queued.deliveries.map((d) => [d.eventId, d.endpointId, d.status]).sort(),
      [
        [stored[0]!.id, endpoint.id, 'pending'],
        [stored[1]!.id, endpoint.id, 'pending'],
      ].sort(),
    );
    assert.deepEqual((await store.listWebhookDeliveries({ orgId: other.org.id, before: null, limit: 10 })).deliveries, []);

    // The same change reported again is no new event, so it queues nothing (and the plan is not asked).
    assert.deepEqual(await store.appendEvents([change(org.id, 'A')], later(1), everyEndpoint), []);
    assert.equal(offered.length, 1);

    // Deliveries that cannot be queued (here, of an endpoint that is not there) take their events with them.
    const broken: EventDeliveries = (events) => events.map((event) => delivery(event.orgId, 'we_not_there', event.id));
    await assert.rejects(store.appendEvents([change(org.id, 'C')], later(2), broken));
    const feed = await store.listEvents({ orgId: org.id, types: [], after: null, limit: 10 });
    assert.deepEqual(
      feed.events.map((e) => e.recordId),
      ['A', 'B'],
      'the event whose deliveries failed is not in the feed',
    );
    // ... so the change, reported again, is new and delivered then.
    const again = await store.appendEvents([change(org.id, 'C')], later(3), everyEndpoint);
    assert.equal(again.length, 1);
    assert.equal((await store.listWebhookDeliveries({ orgId: org.id, before: null, limit: 10 })).deliveries.length, 3);
  });

  test('webhook deliveries: claims made at once by two stores on one database never hold one delivery twice', async () => {
    const [a, b] = await twoOnOne();
    const { org, endpoint } = await withEndpoint(a);
    await a.enqueueWebhookDeliveries(
      Array.from({ length: 60 }, (_, i) => delivery(org.id, endpoint.id, `evt_${i}`)),
      T0,
    );
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).claimWebhookDeliveries({ at: later(1), leaseUntil: later(60_000), limit: 12, perEndpoint: 100, skipEndpoints: [] }),
      ),
    );
    const ids = claims.flat().map((d) => d.eventId);
    assert.equal(new Set(ids).size, ids.length, 'no delivery was claimed twice');
    // PostgreSQL's SKIP LOCKED may leave a claim short of its limit while others hold rows; a claim
    // made afterwards finds every delivery not yet claimed, so that each is claimed exactly once.
    const rest = await a.claimWebhookDeliveries({
      at: later(2),
      leaseUntil: later(60_000),
      limit: 100,
      perEndpoint: 100,
      skipEndpoints: [],
    });
    assert.deepEqual([...ids, ...rest.map((d) => d.eventId)].sort(), Array.from({ length: 60 }, (_, i) => `evt_${i}`).sort());
  });
}
