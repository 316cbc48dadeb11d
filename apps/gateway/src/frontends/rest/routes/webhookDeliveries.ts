import type { Express, RequestHandler } from 'express';
import { parseWebhookDeliveriesQuery } from '@gp-gateway/protocol';
import type { WebhookDeliveryList } from '../../../core/webhooks/deliveryList.ts';
import { ApiError } from '../../../errors/apiError.ts';

/**
 * `GET /v1/webhook-deliveries` (docs/api.md#webhooks): the organisation's webhook deliveries, newest
 * first, read-only, for integrators' own monitoring. Mounted before `/v1/{object}`.
 */
export function mountWebhookDeliveryRoutes(
  app: Express,
  guards: RequestHandler[],
  { deliveries }: { deliveries: WebhookDeliveryList },
): void {
  app.get('/v1/webhook-deliveries', ...guards, async (req, res) => {
    const query = parseWebhookDeliveriesQuery(req.query as Record<string, unknown>);
    if (!query.ok) throw ApiError.validation(query.issues);
    res.json(await deliveries.list(res.locals.auth!.key.orgId, query.value));
  });
}
