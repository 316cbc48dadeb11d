import { randomBytes } from 'node:crypto';
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { EventDeliveries, EventPage, EventPosition, EventQuery, EventsStore, NewEvent, StoredEvent } from '../roles/events.ts';
import { chunks } from './chunks.ts';
import type { StoreEngine } from './engine.ts';
import { jsonText, parsedJson } from './rows.ts';
import type { EventsTable, StoreSchema } from './schema.ts';
import { enabledEndpointsOf, insertDeliveries } from './webhookRows.ts';

const newEventId = () => `evt_${randomBytes(12).toString('base64url')}`;

function toEvent(row: Selectable<EventsTable>): StoredEvent {
  return {
    id: row.id,
    orgId: row.org_id,
    connectionId: row.connection_id,
    company: row.company,
    type: row.type,
    object: row.object,
    recordId: row.record_id,
    changedAt: row.changed_at,
    recordedAt: row.recorded_at,
    data: row.data === null ? null : parsedJson(row.data),
  };
}

const positionOf = (row: Selectable<EventsTable>): EventPosition => [Number(row.txid), Number(row.seq)];

/**
 * The change feed on either engine (EventsStore). Readers page by (txid, seq). On PostgreSQL a
 * sequence value is taken when a row is inserted, not when it commits, so a reader ordering by it
 * alone could pass an event whose transaction commits after a later one's; instead each row records
 * its transaction id, and a read returns only rows of transactions older than its snapshot's xmin:
 * every transaction that old has ended, and every one still to commit has a larger id, so it sorts
 * after the reader's position. SQLite commits one writer at a time, in `seq` order; its txid is 0.
 */
export class EventsTables implements EventsStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  async appendEvents(events: readonly NewEvent[], at: Date, deliveries?: EventDeliveries): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const recordedAt = at.toISOString();
    return this.engine.transaction(async (trx) => {
      const stored: StoredEvent[] = [];
      for (const part of chunks(events)) {
        const rows = await trx
          .insertInto('events')
          .values(
            part.map((e) => ({
              id: newEventId(),
              org_id: e.orgId,
              connection_id: e.connectionId,
              company: e.company,
              type: e.type,
              object: e.object,
              record_id: e.recordId,
              version: e.version,
              changed_at: e.changedAt,
              recorded_at: recordedAt,
              data: e.data === null || e.data === undefined ? null : jsonText(e.data),
            })),
          )
          // One event per change (the unique index events_one_per_change): a second report inserts nothing.
          .onConflict((conflict) => conflict.doNothing())
          .returningAll()
          .execute();
        stored.push(...rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(toEvent));
      }
      if (deliveries && stored.length > 0) {
        const endpoints = await enabledEndpointsOf(trx, [...new Set(stored.map((e) => e.orgId))]);
        if (endpoints.length > 0) await insertDeliveries(trx, deliveries(stored, endpoints), at);
      }
      return stored;
    });
  }

  async listEvents(query: EventQuery): Promise<EventPage> {
    const rows = await this.engine.db
      .selectFrom('events')
      .selectAll()
      .where('org_id', '=', query.orgId)
      .$if(query.after !== null, (q) => q.where(sql<SqlBool>`(txid, seq) > (${query.after![0]}, ${query.after![1]})`))
      .$if(this.engine.kind === 'postgres', (q) => q.where(sql<SqlBool>`txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`))
      .$if(query.types.length > 0, (q) => q.where((eb) => typeFilter(eb, query.types)))
      .$if(query.object !== undefined, (q) => q.where('object', '=', query.object!))
      .$if(query.connectionId !== undefined, (q) => q.where('connection_id', '=', query.connectionId!))
      .$if(query.excludeConnectionId !== undefined, (q) => q.where('connection_id', '<>', query.excludeConnectionId!))
      .$if(query.company !== undefined, (q) => q.where('company', '=', query.company!))
      .$if(query.since !== undefined, (q) => q.where('recorded_at', '>=', query.since!))
      .orderBy('txid')
      .orderBy('seq')
      .limit(query.limit)
      .execute();
    const last = rows.at(-1);
    return { events: rows.map(toEvent), next: last ? positionOf(last) : query.after };
  }

  async findEvent(orgId: string, id: string): Promise<StoredEvent | null> {
    const row = await this.engine.db.selectFrom('events').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return row ? toEvent(row) : null;
  }

  async deleteEventsRecordedBefore(before: Date): Promise<number> {
    const result = await this.engine.db.deleteFrom('events').where('recorded_at', '<', before.toISOString()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** `type IN (…) OR type LIKE 'customer.%' …`: patterns name a noun (validated upstream: no `%` or `_` in them). */
function typeFilter(eb: ExpressionBuilder<StoreSchema, 'events'>, types: readonly string[]): Expression<SqlBool> {
  const exact = types.filter((t) => !t.endsWith('.*'));
  const prefixes = types.filter((t) => t.endsWith('.*')).map((t) => `${t.slice(0, -1)}%`);
  return eb.or([...(exact.length ? [eb('type', 'in', exact)] : []), ...prefixes.map((p) => eb('type', 'like', p))]);
}
