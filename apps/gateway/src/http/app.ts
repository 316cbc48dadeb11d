import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { AgentRouter } from '../agents/agentRouter.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { LimitsLookup } from '../limits/limitsLookup.ts';
import type { RateLimiter } from '../limits/rateLimiter.ts';
import type { Store } from '../store/store.ts';
import { accessLog } from './accessLog.ts';
import { applyLimits } from './applyLimits.ts';
import type { CursorCodec } from './cursor.ts';
import { errorHandler, notFound } from './errorHandler.ts';
import { requestId } from './requestId.ts';
import { apiKeyRoutes } from './routes/apiKeys.ts';
import { resourceRoutes } from './routes/resources.ts';

export interface AppOptions {
  store: Store;
  agents: AgentRouter;
  cursors: CursorCodec;
  log: Logger;
  requestTimeoutMs: number;
  /** Each organisation's limits (D7). */
  limitsOf: LimitsLookup;
  limiter: RateLimiter;
}

export function createApp({ store, agents, cursors, log, requestTimeoutMs, limitsOf, limiter }: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // node:querystring: `id[]=a&id[]=b` arrives as { 'id[]': ['a', 'b'] }, no nested objects.
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(accessLog(log));
  app.get('/health', (_req, res) => {
    res.json({ ok: true });
  });
  // A 401 carries no quota headers: there is no key whose quota they could describe, and a revoked
  // key's 401 must look exactly like an unknown one's.
  app.use(
    '/v1',
    authenticate(store),
    applyLimits({ limitsOf, limiter }),
    apiKeyRoutes({ store }),
    resourceRoutes({ store, agents, cursors, requestTimeoutMs }),
  );
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}
