import type { Express, RequestHandler } from 'express';
import type { AdminService } from '../../core/admin/adminService.ts';
import { requireScope } from '../../core/auth/authenticate.ts';
import type { EventFeed } from '../../core/events/eventFeed.ts';
import type { WebhookDeliveryList } from '../../core/webhooks/deliveryList.ts';
import type { RecordReader } from '../../core/reads/recordReader.ts';
import type { RecordWriter } from '../../core/writes/recordWriter.ts';
import type { ReadyReport } from '../../infrastructure/cluster/readiness.ts';
import { docsRouter } from './docsPage/router.ts';
import { apiKeyRoutes } from './routes/apiKeys.ts';
import { mountEventRoutes } from './routes/events.ts';
import { openApiRoute } from './routes/openApi.ts';
import { mountResourceRoutes } from './routes/resources.ts';
import { mountWebhookDeliveryRoutes } from './routes/webhookDeliveries.ts';
import { mountWriteRoutes } from './routes/writes.ts';

export interface RestMountOptions {
  /** Authentication and limits, as every API request passes them. */
  authenticated: RequestHandler[];
  reader: RecordReader;
  writer: RecordWriter;
  admin: AdminService;
  /** The change feed (`/v1/events`). */
  events: EventFeed;
  /** Webhook deliveries (`/v1/webhook-deliveries`). */
  webhookDeliveries: WebhookDeliveryList;
  /** Whether the instance should get traffic (`/ready`): its store, Redis and NATS answer and it is not stopping. */
  ready?: () => Promise<ReadyReport>;
}

/** The REST API (`/v1`), its reference (`/docs`, `/v1/openapi.json`) and the health checks. */
export function mountRest(app: Express, options: RestMountOptions): void {
  // Live: the process answers. Ready: it should be sent traffic (infrastructure/cluster/readiness.ts); 503 when not.
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/ready', async (_req, res) => {
    const report = options.ready ? await options.ready() : { ready: true, checks: {} };
    res.status(report.ready ? 200 : 503).json(report);
  });
  // Before the resource routes, whose `/v1/:object` would take it for an object.
  app.get('/v1/openapi.json', openApiRoute());
  // Before the resource routes too: `/v1/events` is the feed, not an object of GP.
  mountEventRoutes(app, [...options.authenticated, requireScope('read')], { events: options.events });
  mountWebhookDeliveryRoutes(app, [...options.authenticated, requireScope('read')], { deliveries: options.webhookDeliveries });
  // A 401 carries no quota headers: there is no key whose quota they could describe, and a revoked
  // key's 401 must look exactly like an unknown one's.
  mountResourceRoutes(app, [...options.authenticated, requireScope('read')], { reader: options.reader });
  mountWriteRoutes(app, [...options.authenticated, requireScope('write')], { writer: options.writer });
  app.use('/v1', ...options.authenticated, apiKeyRoutes({ admin: options.admin }));
  app.use('/docs', docsRouter());
}
