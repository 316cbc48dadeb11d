import { z } from 'zod';
import { TimestampFilterSchema } from './filters.ts';
import { CursorSchema, DEFAULT_LIMIT, issuesOf, LimitSchema, type Parsed } from './queryParsing.ts';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** One webhook delivery: an event sent (or being sent) to one endpoint (docs/api.md#webhooks). */
export const WebhookDeliverySchema = z
  .object({
    id: z.string().describe('`wd_…`'),
    endpointId: z.string().describe('`we_…`, the endpoint it is sent to.'),
    eventId: z.string().describe('The event sent, its `webhook-id` header on every attempt.'),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).describe('pending: not delivered yet (retrying); succeeded: answered 2xx; failed: given up.'),
    attempts: z.number().int().min(0),
    nextAttemptAt: z.string().nullable().describe('When the next attempt is due; null once succeeded or failed.'),
    createdAt: z.string(),
    settledAt: z.string().nullable().describe('When it succeeded or was given up.'),
  })
  .strict();
export type WebhookDeliveryResource = z.infer<typeof WebhookDeliverySchema>;

/** What `GET /v1/webhook-deliveries` is asked. */
export interface WebhookDeliveriesQuery {
  endpointId?: string;
  status?: (typeof WEBHOOK_DELIVERY_STATUSES)[number];
  since?: string;
  limit: number;
  cursor: string | null;
}

const QuerySchema = z
  .object({
    endpointId: z.string('must be given once').min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES, `must be one of: ${WEBHOOK_DELIVERY_STATUSES.join(', ')}`).optional(),
    since: TimestampFilterSchema.optional(),
    limit: LimitSchema.optional(),
    cursor: CursorSchema.optional(),
  })
  .strict();

export function parseWebhookDeliveriesQuery(query: Record<string, unknown>): Parsed<WebhookDeliveriesQuery> {
  const result = QuerySchema.safeParse(query);
  if (!result.success) return { ok: false, issues: issuesOf(result.error) };
  const { limit, cursor, ...filters } = result.data;
  const value: WebhookDeliveriesQuery = { limit: limit ?? DEFAULT_LIMIT, cursor: cursor ?? null };
  if (filters.endpointId !== undefined) value.endpointId = filters.endpointId;
  if (filters.status !== undefined) value.status = filters.status;
  if (filters.since !== undefined) value.since = filters.since;
  return { ok: true, value };
}
