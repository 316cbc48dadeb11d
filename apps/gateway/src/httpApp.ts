import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { AdminService } from './core/admin/adminService.ts';
import type { AgentRouter } from './core/agents/agentRouter.ts';
import { authenticate } from './core/auth/authenticate.ts';
import { RefusalThrottle } from './core/auth/refusalThrottle.ts';
import type { LimitsLookup } from './core/limits/limitsLookup.ts';
import type { RateLimiter } from './core/limits/rateLimiter.ts';
import { EventFeed } from './core/events/eventFeed.ts';
import { WebhookDeliveryList } from './core/webhooks/deliveryList.ts';
import type { WebhookEndpoints } from './core/webhooks/webhookEndpoints.ts';
import type { CursorCodec } from './core/reads/cursor.ts';
import { RecordReader } from './core/reads/recordReader.ts';
import type { UsageRecorder } from './core/usage/usageRecorder.ts';
import { RecordWriter } from './core/writes/recordWriter.ts';
import type { DashboardAuth } from './frontends/dashboard/dashboardAuth.ts';
import { dashboardRouter } from './frontends/dashboard/router.ts';
import { mountMcp } from './frontends/mcp/mount.ts';
import { mountOAuth } from './frontends/mcp/oauthRoutes.ts';
import { authenticateMcp } from './core/oauth/authenticateMcp.ts';
import { OAuthAuthority } from './core/oauth/oauthAuthority.ts';
import { OAuthClients, type DocumentFetcher } from './core/oauth/oauthClients.ts';
import { oauthUrlsOf } from './core/oauth/oauthUrls.ts';
import { mountDownloads } from './frontends/downloads/mount.ts';
import type { ReleaseFolder } from './infrastructure/releases/releaseFolder.ts';
import { accessLog } from './frontends/rest/accessLog.ts';
import { applyLimits } from './frontends/rest/applyLimits.ts';
import { errorHandler, notFound } from './frontends/rest/errorHandler.ts';
import { metricsRoute, type MetricsRouteOptions } from './frontends/rest/metricsRoute.ts';
import { requestMetrics } from './frontends/rest/requestMetrics.ts';
import { requestTracing } from './frontends/rest/requestTracing.ts';
import type { GatewayMetrics } from './infrastructure/telemetry/metrics.ts';
import { mountRest } from './frontends/rest/mount.ts';
import { requestId } from './frontends/rest/requestId.ts';
import { requireHost } from './frontends/rest/requireHost.ts';
import type { ReadyReport } from './infrastructure/cluster/readiness.ts';
import type { Store } from './infrastructure/store/store.ts';

export interface AppOptions {
  store: Store;
  admin: AdminService;
  /** Counts requests made with keys for the dashboard's usage page; null records nothing. */
  usage: UsageRecorder | null;
  /** The public base URL (config.ts publicBaseUrl) the dashboard's links start with. */
  publicUrl: () => string;
  /** Who is signed in to the dashboard. */
  dashboardAuth: DashboardAuth;
  agents: AgentRouter;
  cursors: CursorCodec;
  /** The change feed the agents' changes go to; a feed of its own over the store unless given. */
  events?: EventFeed;
  /** `GET /v1/webhook-deliveries`; a list of its own over the store unless given. */
  webhookDeliveries?: WebhookDeliveryList;
  /** The dashboard's webhooks pages; not served unless given. */
  webhookEndpoints?: WebhookEndpoints;
  log: Logger;
  requestTimeoutMs: number;
  /** Each organisation's limits (docs/api.md#rate-limits). */
  limitsOf: LimitsLookup;
  limiter: RateLimiter;
  /**
   * Where the refusals of bad API keys per address are counted (auth/refusalThrottle.ts): the
   * instances' shared limiter (Redis) when given, else in this process.
   */
  refusalLimiter?: RateLimiter;
  /** Largest text of an MCP tool result in bytes; RESULT_BUDGET_BYTES unless given (tests make it tiny). */
  mcpResultBudgetBytes?: number;
  /** Browser origins besides the gateway's own that may call /mcp (`*`: any); requests without Origin always may. */
  mcpAllowedOrigins?: readonly string[];
  /** Host values that may call /mcp (DNS-rebinding protection); any when empty. */
  mcpAllowedHosts?: readonly string[];
  /** Fetches Client ID Metadata Documents (core/oauth/clientMetadataDocument.ts) unless given; tests give one that stays in process. */
  oauthClientDocuments?: DocumentFetcher;
  /** Whether the instance should get traffic (`/ready`): its store, Redis and NATS answer and it is not stopping. */
  ready?: () => Promise<ReadyReport>;
  /** Where each request is reported (infrastructure/telemetry/metrics.ts); nothing unless given. */
  metrics?: GatewayMetrics;
  /** `GET /metrics` on this port, behind METRICS_TOKEN (rest/metricsRoute.ts); not served unless given. */
  metricsRoute?: MetricsRouteOptions;
  /** A span per request (frontends/rest/requestTracing.ts), when tracing is on. */
  tracing?: boolean;
  /** The agent's release folder, served at /downloads and linked from the dashboard; none unless given. */
  releases?: ReleaseFolder | null;
}

/**
 * The HTTP half of the composition root (gateway.ts): one express app on which each front end mounts
 * itself (REST, MCP, the dashboard), behind the middleware every request passes (request id, access
 * log and usage, Host) and in front of the one error answer.
 */
export function createApp(options: AppOptions): Express {
  const { store, admin, agents, cursors, log, requestTimeoutMs, limitsOf, limiter } = options;
  const reader = new RecordReader({ agents, cursors, requestTimeoutMs });
  const events = options.events ?? new EventFeed({ store, cursors, log: log.child({ component: 'events' }) });
  const webhookDeliveries = options.webhookDeliveries ?? new WebhookDeliveryList(store, cursors);
  const writer = new RecordWriter({ agents, store, requestTimeoutMs, log: log.child({ component: 'writes' }), events });
  const refusals = new RefusalThrottle({
    what: 'API requests with invalid keys',
    log,
    bucket: 'api',
    ...(options.refusalLimiter ? { limiter: options.refusalLimiter } : {}),
  });
  const apiKeys = authenticate(store, refusals);
  const limited = applyLimits({ limitsOf, limiter });
  const authenticated = [apiKeys, limited];
  // The OAuth issuer, and `/mcp` under it the resource its tokens are for; asked at the first OAuth
  // request, when an unset GATEWAY_URL is known from the listening port.
  const oauthUrls = () => oauthUrlsOf(new URL(options.publicUrl()));
  const oauth = new OAuthAuthority(store, new OAuthClients(store, log, options.oauthClientDocuments), oauthUrls);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // node:querystring: `id[]=a&id[]=b` arrives as { 'id[]': ['a', 'b'] }, no nested objects.
  app.set('query parser', 'simple');
  if (options.tracing) app.use(requestTracing());
  app.use(requestId);
  if (options.metrics) app.use(requestMetrics(options.metrics));
  app.use(accessLog(log, options.usage));
  app.use(requireHost);
  if (options.metricsRoute) app.get('/metrics', metricsRoute(options.metricsRoute));
  mountOAuth(app, oauth, oauthUrls);
  mountRest(app, { authenticated, reader, writer, admin, events, webhookDeliveries, ...(options.ready ? { ready: options.ready } : {}) });
  mountMcp(app, {
    // OAuth access tokens as well as API keys (docs/api.md#oauth).
    authenticated: [authenticateMcp({ apiKeys, authority: oauth, urls: oauthUrls, refusals }), limited],
    resourceMetadataUrl: () => oauthUrls().resourceMetadata.href,
    reader,
    writer,
    events,
    log,
    ...(options.mcpResultBudgetBytes ? { resultBudgetBytes: options.mcpResultBudgetBytes } : {}),
    ...(options.mcpAllowedOrigins ? { allowedOrigins: options.mcpAllowedOrigins } : {}),
    ...(options.mcpAllowedHosts ? { allowedHosts: options.mcpAllowedHosts } : {}),
  });
  mountDownloads(app, options.releases ?? null);
  app.use(
    '/dashboard',
    dashboardRouter({
      admin,
      auth: options.dashboardAuth,
      publicUrl: options.publicUrl,
      oauth,
      releases: options.releases ?? null,
      ...(options.webhookEndpoints ? { webhooks: { endpoints: options.webhookEndpoints, store } } : {}),
    }),
  );
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}
