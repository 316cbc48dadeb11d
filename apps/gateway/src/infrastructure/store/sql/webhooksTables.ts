import { randomBytes } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, type Expression } from 'kysely';
import type {
  ClaimedWebhookDelivery,
  NewWebhookDelivery,
  NewWebhookEndpoint,
  WebhookAttempt,
  WebhookAttemptOutcome,
  WebhookClaimRequest,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhooksStore,
} from '../roles/webhooks.ts';
import { chunks } from './chunks.ts';
import type { StoreEngine } from './engine.ts';
import { jsonText, parsedJson } from './rows.ts';
import type { StoreSchema, WebhookDeliveriesTable, WebhookEndpointsTable } from './schema.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

function toEndpoint(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  return {
    id: row.id,
    orgId: row.org_id,
    url: row.url,
    eventTypes: parsedJson<string[]>(row.event_types),
    connectionIds: row.connection_ids === null ? null : parsedJson<string[]>(row.connection_ids),
    description: row.description,
    sealedSecret: row.secret,
    sealedPreviousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    id: row.id,
    orgId: row.org_id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    settledAt: row.settled_at,
  };
}

/** A pending delivery that is due and that no live lease holds. */
function claimable(eb: ExpressionBuilder<StoreSchema, 'webhook_deliveries'>, at: string): Expression<SqlBool> {
  return eb.and([
    eb('webhook_deliveries.status', '=', 'pending'),
    eb('webhook_deliveries.next_attempt_at', '<=', at),
    eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<=', at)]),
  ]);
}

/** The enabled endpoints of these organisations (the fan-out of new events, eventsTables.ts, in its transaction). */
export async function enabledEndpointsOf(db: Kysely<StoreSchema>, orgIds: readonly string[]): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('org_id', 'in', [...orgIds])
    .where('disabled_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toEndpoint);
}

/** Queues the deliveries not already queued (one per endpoint and event), due at `at`, on `db` or a transaction; how many were new. */
export async function insertDeliveries(db: Kysely<StoreSchema>, deliveries: readonly NewWebhookDelivery[], at: Date): Promise<number> {
  if (deliveries.length === 0) return 0;
  const due = at.toISOString();
  let added = 0;
  for (const part of chunks(deliveries)) {
    const result = await db
      .insertInto('webhook_deliveries')
      .values(
        part.map((d) => ({
          id: newId('wd'),
          org_id: d.orgId,
          endpoint_id: d.endpointId,
          event_id: d.eventId,
          event_type: d.eventType,
          body: d.body,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: due,
          lease: null,
          lease_until: null,
          created_at: due,
          settled_at: null,
        })),
      )
      .onConflict((conflict) => conflict.columns(['endpoint_id', 'event_id']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return added;
}

/**
 * Webhooks on either engine (WebhooksStore). A claim is one UPDATE of the chosen rows that sets a
 * fresh lease and checks again that each is still claimable: on PostgreSQL the rows are chosen
 * `FOR UPDATE SKIP LOCKED`, so two instances claiming at once take different rows and neither waits;
 * on SQLite the statement runs with the file's write lock, one writer at a time.
 */
export class WebhooksTables implements WebhooksStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  async createWebhookEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const at = endpoint.at.toISOString();
    const row = await this.engine.db
      .insertInto('webhook_endpoints')
      .values({
        id: newId('we'),
        org_id: endpoint.orgId,
        url: endpoint.url,
        event_types: jsonText(endpoint.eventTypes),
        connection_ids: endpoint.connectionIds === null ? null : jsonText(endpoint.connectionIds),
        description: endpoint.description,
        secret: endpoint.sealedSecret,
        previous_secret: null,
        previous_secret_expires_at: null,
        disabled_at: null,
        disabled_reason: null,
        failing_since: null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toEndpoint(row);
  }

  async listWebhookEndpoints(orgId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.engine.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toEndpoint);
  }

  async findWebhookEndpoint(orgId: string, id: string): Promise<WebhookEndpoint | null> {
    const row = await this.engine.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  }

  async updateWebhookEndpoint(orgId: string, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpoint | null> {
    const set: Partial<WebhookEndpointsTable> = { updated_at: at.toISOString() };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.eventTypes !== undefined) set.event_types = jsonText(changes.eventTypes);
    if (changes.connectionIds !== undefined) set.connection_ids = changes.connectionIds === null ? null : jsonText(changes.connectionIds);
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.sealedSecret !== undefined) set.secret = changes.sealedSecret;
    if (changes.sealedPreviousSecret !== undefined) set.previous_secret = changes.sealedPreviousSecret;
    if (changes.previousSecretExpiresAt !== undefined) set.previous_secret_expires_at = changes.previousSecretExpiresAt;
    if (changes.disabledAt !== undefined) {
      set.disabled_at = changes.disabledAt;
      // Enabled again: its failing streak starts afresh.
      if (changes.disabledAt === null) set.failing_since = null;
    }
    if (changes.disabledReason !== undefined) set.disabled_reason = changes.disabledReason;
    const row = await this.engine.db
      .updateTable('webhook_endpoints')
      .set(set)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  }

  async disableWebhookEndpoint(orgId: string, id: string, reason: string, at: Date): Promise<WebhookEndpoint | null> {
    const row = await this.engine.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at.toISOString(), disabled_reason: reason, updated_at: at.toISOString() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  }

  async deleteWebhookEndpoint(orgId: string, id: string): Promise<boolean> {
    // Attempts and deliveries go with it (ON DELETE CASCADE).
    const result = await this.engine.db.deleteFrom('webhook_endpoints').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  enqueueWebhookDeliveries(deliveries: readonly NewWebhookDelivery[], at: Date): Promise<number> {
    return insertDeliveries(this.engine.db, deliveries, at);
  }

  async claimWebhookDeliveries(request: WebhookClaimRequest): Promise<ClaimedWebhookDelivery[]> {
    const at = request.at.toISOString();
    const lease = newId('lease');
    const db = this.engine.db;
    // The oldest due deliveries of enabled endpoints, locked on PostgreSQL as they are chosen, so that
    // a claim running beside this one skips them and takes the next ones instead of the same.
    const due = db
      .selectFrom('webhook_deliveries')
      .select(['webhook_deliveries.id', 'webhook_deliveries.endpoint_id', 'webhook_deliveries.next_attempt_at', 'webhook_deliveries.seq'])
      .where((eb) => claimable(eb, at))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('webhook_endpoints')
            .select('webhook_endpoints.id')
            .whereRef('webhook_endpoints.id', '=', 'webhook_deliveries.endpoint_id')
            .where('webhook_endpoints.disabled_at', 'is', null),
        ),
      )
      .$if(request.skipEndpoints.length > 0, (q) => q.where('webhook_deliveries.endpoint_id', 'not in', [...request.skipEndpoints]))
      .orderBy('webhook_deliveries.next_attempt_at')
      .orderBy('webhook_deliveries.seq')
      .limit(request.limit)
      .$if(this.engine.rowLocks, (q) => q.forUpdate().skipLocked());
    // Of those, at most `perEndpoint` of each endpoint: one endpoint's backlog never fills the claim.
    const chosen = db
      .with('due', () => due)
      .selectFrom((eb) =>
        eb
          .selectFrom('due')
          .select([
            'due.id',
            sql<number>`row_number() over (partition by due.endpoint_id order by due.next_attempt_at, due.seq)`.as('rank'),
          ])
          .as('ranked'),
      )
      .select('ranked.id')
      .where('ranked.rank', '<=', request.perEndpoint);
    const rows = await db
      .updateTable('webhook_deliveries')
      .set({ lease, lease_until: request.leaseUntil.toISOString() })
      .where('webhook_deliveries.id', 'in', chosen)
      .where((eb) => claimable(eb, at))
      .returningAll()
      .execute();
    return rows
      .sort((a, b) =>
        a.next_attempt_at! < b.next_attempt_at! ? -1 : a.next_attempt_at! > b.next_attempt_at! ? 1 : Number(a.seq) - Number(b.seq),
      )
      .map((row) => ({ ...toDelivery(row), body: row.body, lease }));
  }

  async recordWebhookAttempt(
    delivery: { id: string; endpointId: string; lease: string },
    attempt: WebhookAttempt,
    outcome: WebhookAttemptOutcome,
  ): Promise<WebhookEndpoint | null> {
    return this.engine.transaction(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          at: attempt.at,
          http_status: attempt.httpStatus,
          latency_ms: attempt.latencyMs,
          response_excerpt: attempt.responseExcerpt,
          error: attempt.error,
        })
        .execute();
      await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          status: outcome.kind === 'retry' ? 'pending' : outcome.kind,
          next_attempt_at: outcome.kind === 'retry' ? outcome.retryAt.toISOString() : null,
          settled_at: outcome.kind === 'retry' ? null : attempt.at,
          lease: null,
          lease_until: null,
        }))
        .where('id', '=', delivery.id)
        .where('lease', '=', delivery.lease)
        .execute();
      const row = await trx
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          failing_since: outcome.kind === 'succeeded' ? null : eb.fn.coalesce('failing_since', eb.val(attempt.at)),
        }))
        .where('id', '=', delivery.endpointId)
        .returningAll()
        .executeTakeFirst();
      return row ? toEndpoint(row) : null;
    });
  }

  async countDueWebhookDeliveries(at: Date): Promise<number> {
    const row = await this.engine.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', at.toISOString())
      .where('webhook_endpoints.disabled_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDeliveryPage> {
    const rows = await this.engine.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('org_id', '=', query.orgId)
      .$if(query.before !== null, (q) => q.where('seq', '<', query.before!))
      .$if(query.endpointId !== undefined, (q) => q.where('endpoint_id', '=', query.endpointId!))
      .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!))
      .$if(query.since !== undefined, (q) => q.where('created_at', '>=', query.since!))
      .orderBy('seq', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    return { deliveries: page.map(toDelivery), next: rows.length > query.limit ? Number(page.at(-1)!.seq) : null };
  }

  async findWebhookDelivery(orgId: string, id: string): Promise<WebhookDelivery | null> {
    const row = await this.engine.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDelivery(row) : null;
  }

  async listWebhookAttempts(orgId: string, deliveryId: string): Promise<WebhookAttempt[]> {
    const rows = await this.engine.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select([
        'webhook_attempts.at',
        'webhook_attempts.http_status',
        'webhook_attempts.latency_ms',
        'webhook_attempts.response_excerpt',
        'webhook_attempts.error',
      ])
      .where('webhook_deliveries.org_id', '=', orgId)
      .where('webhook_attempts.delivery_id', '=', deliveryId)
      .orderBy('webhook_attempts.id')
      .execute();
    return rows.map((r) => ({
      at: r.at,
      httpStatus: r.http_status,
      latencyMs: Number(r.latency_ms),
      responseExcerpt: r.response_excerpt,
      error: r.error,
    }));
  }

  async retryWebhookDeliveries(
    selection: { orgId: string; endpointId: string; deliveryId?: string; since?: Date },
    at: Date,
  ): Promise<number> {
    const result = await this.engine.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: at.toISOString(), settled_at: null, lease: null, lease_until: null })
      .where('org_id', '=', selection.orgId)
      .where('endpoint_id', '=', selection.endpointId)
      .where('status', '=', 'failed')
      .$if(selection.deliveryId !== undefined, (q) => q.where('id', '=', selection.deliveryId!))
      .$if(selection.since !== undefined, (q) => q.where('created_at', '>=', selection.since!.toISOString()))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
