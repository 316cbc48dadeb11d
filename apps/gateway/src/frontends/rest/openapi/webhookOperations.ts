import { WEBHOOK_DELIVERY_STATUSES, WebhookDeliverySchema } from '@gp-gateway/protocol';
import { TIMESTAMP_FILTER_PATTERN } from './datePatterns.ts';
import { pagingParameters } from './paging.ts';
import { jsonSchemaOf, schemaRef, type JsonSchema } from './jsonSchema.ts';
import { AUTHENTICATED_ERRORS, errorResponses, rateLimitHeaders } from './responses.ts';

/** `GET /v1/webhook-deliveries` (docs/api.md#webhooks): the organisation's deliveries, read-only. */

export function webhookSchemas(): Record<string, JsonSchema> {
  return { WebhookDelivery: jsonSchemaOf(WebhookDeliverySchema) };
}

export function webhookPaths(): Record<string, unknown> {
  return {
    '/v1/webhook-deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        summary: 'List webhook deliveries',
        description:
          "The organisation's webhook deliveries, newest first: each event sent to each endpoint, whether it was " +
          'delivered, is being retried or was given up, and how many attempts it took. Read-only; endpoints are ' +
          'managed in the dashboard (docs/api.md#webhooks).',
        tags: ['webhooks'],
        security: [{ bearerKey: ['read'] }],
        parameters: [
          ...pagingParameters('Deliveries'),
          {
            name: 'endpointId',
            in: 'query',
            description: 'Only deliveries to this endpoint (`we_…`).',
            schema: { type: 'string', minLength: 1, maxLength: 64 },
          },
          {
            name: 'status',
            in: 'query',
            description: 'Only deliveries in this state.',
            schema: { type: 'string', enum: [...WEBHOOK_DELIVERY_STATUSES] },
          },
          {
            name: 'since',
            in: 'query',
            description: 'Only deliveries made at or after this time: an ISO-8601 date-time, or a date meaning its UTC midnight.',
            schema: { type: 'string', pattern: TIMESTAMP_FILTER_PATTERN, examples: ['2026-03-01T14:05:09.123Z'] },
          },
        ],
        responses: {
          '200': {
            description: 'A page of deliveries, and the cursor of the next (null on the last).',
            headers: rateLimitHeaders(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { data: { type: 'array', items: schemaRef('WebhookDelivery') }, nextCursor: { type: ['string', 'null'] } },
                  required: ['data', 'nextCursor'],
                  additionalProperties: false,
                },
              },
            },
          },
          ...errorResponses([...AUTHENTICATED_ERRORS]),
        },
      },
    },
  };
}
