import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type EventPage, type EventPosition, type EventQuery, type NewEvent, type StoredEvent } from '../../infrastructure/store/store.ts';
import type { RoleSuite } from './support.ts';

/** What the store must do for the change feed (roles/events.ts), on each engine. */
export function eventsStoreContract({ fresh, twoOnOne }: RoleSuite): void {
  const change = (recordId: string, version: string, extra: Partial<NewEvent> = {}): NewEvent => ({
    orgId: 'org_feed',
    connectionId: 'conn_1',
    company: 'TWO',
    type: 'customer.updated',
    object: 'customers',
    recordId,
    version,
    changedAt: version,
    data: { id: recordId, name: `Customer ${recordId}` },
    ...extra,
  });

  test('events: one per change however often reported, read in order by a cursor, filtered, found by id in their organisation only', async () => {
    const store = await fresh();
    const at = new Date('2026-03-01T10:00:00.000Z');
    const first = await store.appendEvents(
      [
        change('A', '2026-03-01T09:00:00.000Z', { type: 'customer.created' }),
        change('B', '2026-03-01T09:00:01.000Z'),
        change('V1', '2026-03-01T09:00:02.000Z', { type: 'vendor.updated', object: 'vendors' }),
        change('C', '2026-03-01T09:00:03.000Z', { company: 'THREE' }),
      ],
      at,
    );
    assert.deepEqual(
      first.map((e) => [e.type, e.recordId]),
      [
        ['customer.created', 'A'],
        ['customer.updated', 'B'],
        ['vendor.updated', 'V1'],
        ['customer.updated', 'C'],
      ],
    );
    assert.match(first[0]!.id, /^evt_[A-Za-z0-9_-]{16}$/);
    assert.deepEqual(first[0], {
      id: first[0]!.id,
      orgId: 'org_feed',
      connectionId: 'conn_1',
      company: 'TWO',
      type: 'customer.created',
      object: 'customers',
      recordId: 'A',
      changedAt: '2026-03-01T09:00:00.000Z',
      recordedAt: '2026-03-01T10:00:00.000Z',
      data: { id: 'A', name: 'Customer A' },
    });

    // The same changes again (a second agent of the connection, or a resend after a lost acknowledgement): nothing new.
    const again = await store.appendEvents([change('B', '2026-03-01T09:00:01.000Z'), change('A', '2026-03-01T09:00:00.000Z')], at);
    assert.deepEqual(again, []);
    // A later change of B is a new event; so is the same change in another connection or organisation.
    const later = await store.appendEvents(
      [
        change('B', '2026-03-01T09:05:00.000Z'),
        change('B', '2026-03-01T09:00:01.000Z', { connectionId: 'conn_2' }),
        change('B', '2026-03-01T09:00:01.000Z', { orgId: 'org_other' }),
      ],
      new Date('2026-03-02T10:00:00.000Z'),
    );
    assert.equal(later.length, 3);
    // Events of the connection itself have no version and never collide.
    const online = {
      ...change('', ''),
      type: 'connection.online',
      company: null,
      object: null,
      recordId: null,
      version: null,
      changedAt: null,
      data: null,
    };
    assert.equal((await store.appendEvents([online, online], new Date('2026-03-02T11:00:00.000Z'))).length, 2);

    // Paged by a cursor, oldest first, nothing twice and nothing left out.
    const seen: StoredEvent[] = [];
    let after: EventPosition | null = null;
    for (;;) {
      const page: EventPage = await store.listEvents({ orgId: 'org_feed', types: [], after, limit: 2 });
      if (page.events.length === 0) {
        assert.deepEqual(page.next, after, 'an empty page leaves the reader where it was');
        break;
      }
      seen.push(...page.events);
      after = page.next;
    }
    assert.deepEqual(
      seen.map((e) => `${e.type} ${e.connectionId} ${e.recordId}`),
      [
        'customer.created conn_1 A',
        'customer.updated conn_1 B',
        'vendor.updated conn_1 V1',
        'customer.updated conn_1 C',
        'customer.updated conn_1 B',
        'customer.updated conn_2 B',
        'connection.online conn_1 null',
        'connection.online conn_1 null',
      ],
    );
    const read = async (filter: Partial<EventQuery>) =>
      (await store.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 100, ...filter })).events.map((e) => e.recordId);
    assert.deepEqual(await read({ types: ['customer.*'] }), ['A', 'B', 'C', 'B', 'B']);
    assert.deepEqual(await read({ types: ['customer.created', 'vendor.*'] }), ['A', 'V1']);
    assert.deepEqual(await read({ types: ['connection.online'] }), [null, null]);
    assert.deepEqual(await read({ object: 'vendors' }), ['V1']);
    assert.deepEqual(await read({ connectionId: 'conn_2' }), ['B']);
    assert.deepEqual(await read({ excludeConnectionId: 'conn_1' }), ['B']);
    assert.deepEqual(await read({ company: 'THREE' }), ['C']);
    assert.deepEqual(await read({ since: '2026-03-02T10:00:00.000Z', types: ['customer.*'] }), ['B', 'B']);
    const sixth = (await store.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 6 })).next;
    assert.deepEqual(await read({ after: sixth }), [null, null], 'a position read back continues after it');

    assert.deepEqual(await store.findEvent('org_feed', first[1]!.id), first[1]);
    assert.equal(await store.findEvent('org_other', first[1]!.id), null, "another organisation's event is not found");
    assert.equal(await store.findEvent('org_feed', 'evt_nothing'), null);
  });

  test('events: those recorded before the retention limit are purged, the rest kept', async () => {
    const store = await fresh();
    await store.appendEvents([change('OLD', '2026-01-01T00:00:00.000Z')], new Date('2026-01-01T00:00:00.000Z'));
    await store.appendEvents([change('NEW', '2026-02-01T00:00:00.000Z')], new Date('2026-02-01T00:00:00.000Z'));
    assert.equal(await store.deleteEventsRecordedBefore(new Date('2026-01-15T00:00:00.000Z')), 1);
    assert.equal(await store.deleteEventsRecordedBefore(new Date('2026-01-15T00:00:00.000Z')), 0);
    const left = await store.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 10 });
    assert.deepEqual(
      left.events.map((e) => e.recordId),
      ['NEW'],
    );
  });

  test('events: two stores on one database storing the same changes at once keep each change once', async () => {
    const [a, b] = await twoOnOne();
    const changes = Array.from({ length: 40 }, (_, i) => change(`R${String(i).padStart(2, '0')}`, '2026-03-01T09:00:00.000Z'));
    const at = new Date();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).appendEvents(i % 3 ? changes : [...changes].reverse(), at)),
    );
    assert.equal(
      results.reduce((n, r) => n + r.length, 0),
      40,
      'of every change, exactly one report was stored',
    );
    const all = await a.listEvents({ orgId: 'org_feed', types: [], after: null, limit: 100 });
    assert.deepEqual(
      all.events.map((e) => e.recordId).sort(),
      changes.map((c) => c.recordId),
    );
  });
}
