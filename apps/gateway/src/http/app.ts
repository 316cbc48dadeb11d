import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { AdminService } from '../admin/adminService.ts';
import type { AgentRouter } from '../agents/agentRouter.ts';
import type { ReadyReport } from '../cluster/readiness.ts';
import type { DashboardAuth } from '../dashboard/dashboardAuth.ts';
import { dashboardRouter } from '../dashboard/router.ts';
import type { UsageRecorder } from '../usage/usageRecorder.ts';
import { authenticate, requireScope } from '../auth/authenticate.ts';
import { RefusalThrottle } from '../auth/refusalThrottle.ts';
import type { LimitsLookup } from '../limits/limitsLookup.ts';
import type { RateLimiter } from '../limits/rateLimiter.ts';
import { RESULT_BUDGET_BYTES } from '../mcp/budget.ts';
import { mcpEndpoint, mcpMethodNotAllowed } from '../mcp/endpoint.ts';
import { acceptAnyMcpClient, checkOrigin, mcpErrors, readMcpBody } from '../mcp/transportHttp.ts';
import { RecordReader } from '../reads/recordReader.ts';
import type { Store } from '../store/store.ts';
import { accessLog } from './accessLog.ts';
import { applyLimits } from './applyLimits.ts';
import type { CursorCodec } from '../reads/cursor.ts';
import { docsRouter } from './docsPage/router.ts';
import { errorHandler, notFound } from './errorHandler.ts';
import { requestId } from './requestId.ts';
import { requireHost } from './requireHost.ts';
import { openApiRoute } from './routes/openApi.ts';
import { apiKeyRoutes } from './routes/apiKeys.ts';
import { mountResourceRoutes } from './routes/resources.ts';
import { mountWriteRoutes } from './routes/writes.ts';
import { RecordWriter } from '../writes/recordWriter.ts';

export interface AppOptions {
  store: Store;
  admin: AdminService;
  /** Counts requests made with keys for the dashboard's usage page; null records nothing. */
  usage: UsageRecorder | null;
  /** Who is signed in to the dashboard. */
  dashboardAuth: DashboardAuth;
  agents: AgentRouter;
  cursors: CursorCodec;
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
  /** Whether the instance should get traffic (`/ready`): its store, Redis and NATS answer and it is not stopping. */
  ready?: () => Promise<ReadyReport>;
}

export function createApp(options: AppOptions): Express {
  const { store, admin, agents, cursors, log, requestTimeoutMs, limitsOf, limiter } = options;
  const reader = new RecordReader({ agents, cursors, requestTimeoutMs });
  const writer = new RecordWriter({ agents, store, requestTimeoutMs, log: log.child({ component: 'writes' }) });
  const refusals = new RefusalThrottle({
    what: 'API requests with invalid keys',
    log,
    bucket: 'api',
    ...(options.refusalLimiter ? { limiter: options.refusalLimiter } : {}),
  });
  const authenticated = [authenticate(store, refusals), applyLimits({ limitsOf, limiter })];
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // node:querystring: `id[]=a&id[]=b` arrives as { 'id[]': ['a', 'b'] }, no nested objects.
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(accessLog(log, options.usage));
  app.use(requireHost);
  // Live: the process answers. Ready: it should be sent traffic (cluster/readiness.ts); 503 when not.
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/ready', async (_req, res) => {
    const report = options.ready ? await options.ready() : { ready: true, checks: {} };
    res.status(report.ready ? 200 : 503).json(report);
  });
  // Before the resource routes, whose `/v1/:object` would take it for an object.
  app.get('/v1/openapi.json', openApiRoute());
  // A 401 carries no quota headers: there is no key whose quota they could describe, and a revoked
  // key's 401 must look exactly like an unknown one's.
  mountResourceRoutes(app, [...authenticated, requireScope('read')], { reader });
  mountWriteRoutes(app, [...authenticated, requireScope('write')], { writer });
  app.use('/v1', ...authenticated, apiKeyRoutes({ admin }));
  // MCP (docs/api.md#mcp): the same keys, limits and routing; refusals before a tool runs as JSON-RPC errors.
  app.post(
    '/mcp',
    readMcpBody,
    checkOrigin(options.mcpAllowedOrigins ?? []),
    ...authenticated,
    requireScope('mcp'),
    acceptAnyMcpClient,
    mcpEndpoint({ reader, writer, log, resultBudgetBytes: options.mcpResultBudgetBytes ?? RESULT_BUDGET_BYTES }),
  );
  app.all('/mcp', mcpMethodNotAllowed);
  app.use('/mcp', mcpErrors(log));
  app.use('/docs', docsRouter());
  app.use('/dashboard', dashboardRouter({ admin, auth: options.dashboardAuth }));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}
