import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { NewWebhookDelivery, WebhookDelivery, WebhookEndpoint } from '../roles/webhooks.ts';
import { chunks } from './chunks.ts';
import { parsedJson } from './rows.ts';
import type { StoreSchema, WebhookDeliveriesTable, WebhookEndpointsTable } from './schema.ts';

/** Webhook rows as the store's types, and the queueing of deliveries (webhooksTables.ts, and eventsTables.ts in the events' transaction). */

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

export function toEndpoint(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
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

export function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
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
