import { sql, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import type {
  ClaimedWebhookDelivery,
  NewWebhookDelivery,
  NewWebhookEndpoint,
  RecordedWebhookAttempt,
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
import { jsonText } from './rows.ts';
import type { StoreSchema, WebhookEndpointsTable } from './schema.ts';
import { insertDeliveries, newId, toDelivery, toEndpoint } from './webhookRows.ts';

/** A pending delivery that is due and that no live lease holds. */
function claimable(eb: ExpressionBuilder<StoreSchema, 'webhook_deliveries'>, at: string): Expression<SqlBool> {
  return eb.and([
    eb('webhook_deliveries.status', '=', 'pending'),
    eb('webhook_deliveries.next_attempt_at', '<=', at),
    eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<=', at)]),
  ]);
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
    // Of those, at most `perEndpoint` of each endpoint (or its quota): one endpoint's backlog never fills the claim.
    const quotas = [...(request.quotas ?? [])];
    const cap =
      quotas.length === 0
        ? sql<number>`${request.perEndpoint}`
        : // Cast: PostgreSQL would read untyped parameters in a CASE as text.
          sql<number>`case ${sql.join(
            quotas.map(([id, n]) => sql`when ranked.endpoint_id = ${id} then cast(${n} as integer)`),
            sql` `,
          )} else cast(${request.perEndpoint} as integer) end`;
    const chosen = db
      .with('due', () => due)
      .selectFrom((eb) =>
        eb
          .selectFrom('due')
          .select([
            'due.id',
            'due.endpoint_id',
            sql<number>`row_number() over (partition by due.endpoint_id order by due.next_attempt_at, due.seq)`.as('rank'),
          ])
          .as('ranked'),
      )
      .select('ranked.id')
      .where('ranked.rank', '<=', cap);
    // The rows are found by id. Checked again: only that no live lease holds them (a claim running
    // beside this one). Status and due time are not checked here: on SQLite the statement runs whole
    // under the write lock, on PostgreSQL the rows are locked as chosen (re-checked if changed), and
    // naming `status` here would lead SQLite to scan every pending row by webhook_deliveries_due
    // instead of finding the few chosen by id (7 ms a claim at 5,000 pending, docs/performance.md).
    const rows = await db
      .updateTable('webhook_deliveries')
      .set({ lease, lease_until: request.leaseUntil.toISOString() })
      .where('webhook_deliveries.id', 'in', chosen)
      .where((eb) => eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<=', at)]))
      .returningAll()
      .execute();
    if (rows.length === 0) return [];
    // Their endpoints, once for the claim: the worker reads none per attempt.
    const endpoints = new Map(
      (
        await db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', 'in', [...new Set(rows.map((r) => r.endpoint_id))])
          .execute()
      ).map((row) => [row.id, toEndpoint(row)]),
    );
    return rows
      .filter((row) => endpoints.has(row.endpoint_id))
      .sort((a, b) =>
        a.next_attempt_at! < b.next_attempt_at! ? -1 : a.next_attempt_at! > b.next_attempt_at! ? 1 : Number(a.seq) - Number(b.seq),
      )
      .map((row) => ({ ...toDelivery(row), body: row.body, lease, endpoint: endpoints.get(row.endpoint_id)! }));
  }

  async recordWebhookAttempt(
    delivery: { id: string; endpointId: string; lease: string },
    attempt: WebhookAttempt,
    outcome: WebhookAttemptOutcome,
  ): Promise<WebhookEndpoint | null> {
    return (await this.recordWebhookAttempts([{ delivery, attempt, outcome }])).get(delivery.endpointId) ?? null;
  }

  async recordWebhookAttempts(records: readonly RecordedWebhookAttempt[]): Promise<Map<string, WebhookEndpoint>> {
    if (records.length === 0) return new Map();
    return this.engine.transaction(async (trx) => {
      // A delivery deleted meanwhile (with its endpoint) keeps no attempt, and fails no other's record.
      const ids = [...new Set(records.map((r) => r.delivery.id))];
      const there = new Set<string>();
      for (const part of chunks(ids)) {
        for (const row of await trx.selectFrom('webhook_deliveries').select('id').where('id', 'in', part).execute()) there.add(row.id);
      }
      const kept = records.filter((r) => there.has(r.delivery.id));
      for (const part of chunks(kept)) {
        await trx
          .insertInto('webhook_attempts')
          .values(
            part.map(({ delivery, attempt }) => ({
              delivery_id: delivery.id,
              at: attempt.at,
              http_status: attempt.httpStatus,
              latency_ms: attempt.latencyMs,
              response_excerpt: attempt.responseExcerpt,
              error: attempt.error,
            })),
          )
          .execute();
      }
      for (const { delivery, attempt, outcome } of kept) {
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
      }
      const endpoints = new Map<string, WebhookEndpoint>();
      for (const [endpointId, streak] of streaks(records)) {
        const row = await trx
          .updateTable('webhook_endpoints')
          .set((eb) => ({
            failing_since:
              streak.failingSince === null
                ? null
                : streak.reset
                  ? streak.failingSince
                  : eb.fn.coalesce('failing_since', eb.val(streak.failingSince)),
          }))
          .where('id', '=', endpointId)
          .returningAll()
          .executeTakeFirst();
        if (row) endpoints.set(endpointId, toEndpoint(row));
      }
      return endpoints;
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

/**
 * What the attempts, in order, make of each endpoint's failing streak: `reset` when one succeeded
 * (the streak starts again after it), `failingSince` the first failure after the last success (null:
 * the last attempt succeeded). A single attempt reads as before: a success ends the streak, a
 * failure starts it unless it had started.
 */
function streaks(records: readonly RecordedWebhookAttempt[]): Map<string, { reset: boolean; failingSince: string | null }> {
  const byEndpoint = new Map<string, { reset: boolean; failingSince: string | null }>();
  for (const { delivery, attempt, outcome } of records) {
    const streak = byEndpoint.get(delivery.endpointId) ?? { reset: false, failingSince: null };
    if (outcome.kind === 'succeeded') byEndpoint.set(delivery.endpointId, { reset: true, failingSince: null });
    else byEndpoint.set(delivery.endpointId, { reset: streak.reset, failingSince: streak.failingSince ?? attempt.at });
  }
  return byEndpoint;
}
