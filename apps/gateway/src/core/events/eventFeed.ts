import {
  EVENT_NOUNS,
  eventTypeOf,
  objectSpec,
  type ChangesFrame,
  type EventObjectName,
  type Event,
  type EventsQuery,
  type FilterValues,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { ApiError } from '../../errors/apiError.ts';
import { NO_METRICS, type GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';
import {
  SANDBOX_CONNECTION_ID,
  SANDBOX_EVENTS_ORG,
  type ApiKey,
  type EventPosition,
  type NewEvent,
  type Store,
  type StoredEvent,
} from '../../infrastructure/store/store.ts';
import type { CursorBinding, CursorCodec } from '../reads/cursor.ts';
import { toApiEvent } from './apiEvent.ts';

/** The first page of a reader that gave no cursor: before every event. */
const START: EventPosition = [0, 0];
const BAD_CURSOR = 'is not a cursor of this feed; pass nextCursor back unchanged with the same filters';
const UNKNOWN_CONNECTION = 'no such connection';

export interface EventPageAnswer {
  data: Event[];
  /** Always a cursor: the feed has no last page, only a present; pass it back to read what came since. */
  nextCursor: string;
}

/**
 * The change feed (docs/api.md#events): turns what agents report into events in the store, records
 * connections coming online and going offline and the outcome of API writes, and reads the feed for
 * the API with signed cursors.
 */
export class EventFeed {
  private readonly store: Store;
  private readonly cursors: CursorCodec;
  private readonly log: Logger;
  private readonly metrics: GatewayMetrics;
  private readonly append: (events: readonly NewEvent[], at: Date) => Promise<StoredEvent[]>;

  /**
   * `append`: stores events, the new ones answered; the store's `appendEvents` unless given (the
   * webhooks' fan-out, core/webhooks/fanOut.ts, which queues their deliveries in the same transaction).
   */
  constructor(options: {
    store: Store;
    cursors: CursorCodec;
    log: Logger;
    metrics?: GatewayMetrics;
    append?: (events: readonly NewEvent[], at: Date) => Promise<StoredEvent[]>;
  }) {
    this.store = options.store;
    this.cursors = options.cursors;
    this.log = options.log;
    this.metrics = options.metrics ?? NO_METRICS;
    this.append = options.append ?? ((events, at) => this.store.appendEvents(events, at));
  }

  /**
   * Stores what an agent of the connection found; how many events were new. A change whose record
   * is not its object's resource is dropped and logged (an agent's data is never trusted blindly):
   * the rest are kept.
   */
  async ingest(orgId: string, connectionId: string, frame: ChangesFrame): Promise<number> {
    const resource = objectSpec(frame.object)!.resource;
    const events: NewEvent[] = [];
    for (const change of frame.changes) {
      let data: unknown = { id: change.id };
      if (change.kind !== 'deleted') {
        const parsed = resource.safeParse(change.record);
        if (!parsed.success) {
          this.log.warn(
            { connectionId, object: frame.object, id: change.id.slice(0, 64), problem: parsed.error.issues[0]?.message },
            'agent reported a change whose record is not a valid resource; dropped',
          );
          continue;
        }
        data = parsed.data;
      }
      events.push({
        orgId,
        connectionId,
        company: frame.company,
        type: eventTypeOf(frame.object, change.kind),
        object: frame.object,
        recordId: change.id,
        version: `${change.kind === 'deleted' ? 'deleted' : 'changed'}:${change.version}`,
        changedAt: change.changedAt,
        data,
      });
    }
    const at = new Date();
    const stored = await this.append(events, at);
    for (const event of stored) {
      const lag = event.changedAt === null ? null : (at.getTime() - Date.parse(event.changedAt)) / 1000;
      this.metrics.eventStored(event.type.slice(event.type.lastIndexOf('.') + 1), lag);
    }
    return stored.length;
  }

  /**
   * The outcome of an API write (core/writes/recordWriter.ts, once GP committed it): `<noun>.created`
   * with the created record, at once, under the version the agent's detection reports for the same
   * row (`changed:` and its DEX_ROW_TS, which the record serves as `modifiedAt`), so that the write
   * and its later detection are one event, whichever arrives first. A record without `modifiedAt`
   * (addresses, documents: their resources do not serve DEX_ROW_TS) has no such version: it is left
   * to detection, which reports it within one polling interval. Never fails the write: a store that
   * cannot take the event now leaves it to detection too.
   */
  async written(orgId: string, connectionId: string, company: string, object: string, record: Buffer): Promise<void> {
    const spec = objectSpec(object);
    if (!spec || !isEventObject(object)) return;
    try {
      const parsed = spec.resource.safeParse(JSON.parse(record.toString('utf8')));
      if (!parsed.success) return;
      const data = parsed.data as Record<string, unknown>;
      const { id, modifiedAt } = data;
      if (typeof id !== 'string' || typeof modifiedAt !== 'string') return;
      await this.append(
        [
          {
            orgId,
            connectionId,
            company,
            type: eventTypeOf(object, 'created'),
            object,
            recordId: id,
            version: `changed:${dexRowTsOf(modifiedAt)}`,
            changedAt: modifiedAt,
            data,
          },
        ],
        new Date(),
      );
    } catch (error) {
      this.log.warn({ err: error, connectionId, object }, 'could not record the write as an event; detection reports it');
    }
  }

  /** The connection's first agent on this instance arrived, or its last one left. */
  async connection(orgId: string, connectionId: string, state: 'online' | 'offline', details: Record<string, unknown>): Promise<void> {
    try {
      await this.append(
        [
          {
            orgId,
            connectionId,
            company: null,
            type: `connection.${state}`,
            object: null,
            recordId: null,
            version: null,
            changedAt: null,
            data: details,
          },
        ],
        new Date(),
      );
    } catch (error) {
      // The feed is for integrators; an agent is served whether or not its arrival could be recorded.
      this.log.warn({ err: error, connectionId, state }, 'could not record the connection event');
    }
  }

  /** A page of the organisation's feed for this key: live keys see live connections, test keys the sandbox. */
  async list(key: ApiKey, query: EventsQuery): Promise<EventPageAnswer> {
    const connectionId = this.connectionFilter(key, query.connectionId);
    const binding = bindingOf(key, query);
    const decoded = query.cursor === null ? START : this.cursors.decode(query.cursor, binding);
    if (decoded === null || decoded.length !== 2 || !decoded.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)) {
      throw ApiError.validation([{ path: 'cursor', message: BAD_CURSOR }]);
    }
    const after = decoded as EventPosition;
    const page = await this.store.listEvents({
      orgId: feedOrgOf(key),
      types: query.types,
      object: query.object,
      connectionId,
      excludeConnectionId: key.mode === 'live' && connectionId === undefined ? SANDBOX_CONNECTION_ID : undefined,
      company: query.company,
      since: query.since,
      after,
      limit: query.limit,
    });
    return { data: page.events.map(toApiEvent), nextCursor: this.cursors.encode(binding, page.next ?? after) };
  }

  async get(key: ApiKey, id: string): Promise<Event> {
    const found = await this.store.findEvent(feedOrgOf(key), id);
    if (!found || (found.connectionId === SANDBOX_CONNECTION_ID) !== (key.mode === 'test')) {
      throw new ApiError('NOT_FOUND', 'No event has that id.');
    }
    return toApiEvent(found);
  }

  /** The connection a key may filter on: test keys only the sandbox, live keys only live connections. */
  private connectionFilter(key: ApiKey, asked: string | undefined): string | undefined {
    if (key.mode === 'test') {
      if (asked !== undefined && asked !== SANDBOX_CONNECTION_ID)
        throw ApiError.validation([{ path: 'connectionId', message: UNKNOWN_CONNECTION }]);
      return SANDBOX_CONNECTION_ID;
    }
    if (asked === SANDBOX_CONNECTION_ID) throw ApiError.validation([{ path: 'connectionId', message: UNKNOWN_CONNECTION }]);
    return asked;
  }
}

/** Whose events a key reads: its organisation's, or, for a test key, the sandbox's, which every organisation shares. */
const feedOrgOf = (key: ApiKey) => (key.mode === 'test' ? SANDBOX_EVENTS_ORG : key.orgId);

/** A cursor of the feed is bound to the organisation, the key's mode and every filter. */
function bindingOf(key: ApiKey, query: EventsQuery): CursorBinding {
  const filters: FilterValues = { mode: key.mode, types: [...query.types].sort() };
  if (query.object !== undefined) filters.object = query.object;
  if (query.since !== undefined) filters.since = query.since;
  return { orgId: key.orgId, connectionId: query.connectionId ?? '*', company: query.company ?? null, object: 'events', filters };
}

const isEventObject = (object: string): object is EventObjectName => Object.hasOwn(EVENT_NOUNS, object);

/**
 * `2026-03-01T09:00:00.123Z` (a record's modifiedAt) as the agent reads DEX_ROW_TS and reports it as
 * a change's version (`2026-03-01 09:00:00.123`): both dialects read it with three decimals.
 */
function dexRowTsOf(modifiedAt: string): string {
  return modifiedAt.replace('T', ' ').replace('Z', '');
}
