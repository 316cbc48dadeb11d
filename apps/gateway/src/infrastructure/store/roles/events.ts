import type { NewWebhookDelivery, WebhookEndpoint } from './webhooks.ts';

/** One event to keep: a change an agent found in GP, or a connection coming online or going offline. */
export interface NewEvent {
  orgId: string;
  connectionId: string;
  /** The company database (INTERID); null for events of the connection itself. */
  company: string | null;
  /** `customer.created`, `connection.online`, … (packages/protocol/src/changes.ts). */
  type: string;
  /** The object the record is of (`customers`); null for events of the connection itself. */
  object: string | null;
  recordId: string | null;
  /**
   * What makes this change one: events with the same organisation, connection, company, object,
   * record id and version are one event, kept once however often and by however many agents it is
   * reported. Null for events that are never the same as another (a connection's).
   */
  version: string | null;
  /** When GP changed the record, ISO-8601 UTC; null when GP did not say (the connection's events). */
  changedAt: string | null;
  /** The record as the API serves it, the id alone for a delete, or the event's own details. */
  data: unknown;
}

/** An event as kept: what was stored, less the version that made it one, with its id and when it was stored. */
export type StoredEvent = Omit<NewEvent, 'version'> & {
  /** `evt_` and 16 random base64url characters. */
  id: string;
  /** When the gateway stored it, ISO-8601 UTC. */
  recordedAt: string;
};

/**
 * Where a reader of the feed stands: the last event it was given, as the store orders events
 * (commit order on PostgreSQL, docs/decisions.md#change-feed). Opaque to everyone but the store.
 */
export type EventPosition = [number, number];

export interface EventQuery {
  orgId: string;
  /** Event types (`customer.created`) and nouns' patterns (`customer.*`); none: every type. */
  types: readonly string[];
  object?: string | undefined;
  connectionId?: string | undefined;
  /** Leaves this connection's events out (live keys do not see the sandbox's). */
  excludeConnectionId?: string | undefined;
  company?: string | undefined;
  /** Only events recorded at or after this instant (ISO-8601 UTC). */
  since?: string | undefined;
  after: EventPosition | null;
  limit: number;
}

export interface EventPage {
  events: StoredEvent[];
  /**
   * Where the next read continues: the position of the last event returned, or `after` unchanged
   * when there was none (a follower asks again from the same place later; the feed has no end,
   * only a present). Null only when there was no event and no `after`.
   */
  next: EventPosition | null;
}

/**
 * The organisation the sandbox's events are kept under. The demo database is one, shared by every
 * organisation's sandbox, so each of its changes is kept once and read by every test key
 * (docs/decisions.md#change-feed); real organisation ids are `org_…`.
 */
export const SANDBOX_EVENTS_ORG = 'sandbox';

/**
 * The webhook deliveries of new events (core/webhooks/fanOut.ts), queued in the transaction that
 * stores the events, so that no instance can die between the two: given the events that were new
 * and the enabled endpoints of their organisations, the deliveries to queue.
 */
export type EventDeliveries = (events: readonly StoredEvent[], endpoints: readonly WebhookEndpoint[]) => NewWebhookDelivery[];

/** Events are kept this long unless the operator says otherwise (EVENTS_RETENTION_DAYS). */
export const EVENTS_RETENTION_DAYS = 30;

/**
 * The change feed (docs/api.md#events): events in the order they became visible, never skipping
 * one that commits late, deduplicated by change. `appendEvents` answers with the events that were
 * new, in the order stored; given `deliveries`, it queues their webhook deliveries in the same
 * transaction (all or nothing). A consumer that must survive a restart follows `listEvents` with a
 * position of its own, which misses nothing either.
 */
export interface EventsStore {
  /**
   * Keeps the events not already kept (by change, see NewEvent.version), and the webhook deliveries
   * `deliveries` makes of them, in one transaction; the new events, as stored.
   */
  appendEvents(events: readonly NewEvent[], at: Date, deliveries?: EventDeliveries): Promise<StoredEvent[]>;
  /**
   * The organisation's events after `after` that match, oldest first: only those that every earlier
   * writer has committed, so a later read never finds one before a position already passed.
   */
  listEvents(query: EventQuery): Promise<EventPage>;
  findEvent(orgId: string, id: string): Promise<StoredEvent | null>;
  /** Deletes the events recorded before `before`; how many. */
  deleteEventsRecordedBefore(before: Date): Promise<number>;
}
