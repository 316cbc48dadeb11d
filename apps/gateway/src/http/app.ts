import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { AgentRouter } from '../agents/agentRouter.ts';
import { authenticate } from '../auth/authenticate.ts';
import type { Store } from '../store/store.ts';
import { accessLog } from './accessLog.ts';
import type { CursorCodec } from './cursor.ts';
import { errorHandler, notFound } from './errorHandler.ts';
import { requestId } from './requestId.ts';
import { resourceRoutes } from './routes/resources.ts';

export interface AppOptions {
  store: Store;
  agents: AgentRouter;
  cursors: CursorCodec;
  log: Logger;
  requestTimeoutMs: number;
}

export function createApp({ store, agents, cursors, log, requestTimeoutMs }: AppOptions): Express {
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
  app.use('/v1', authenticate(store), resourceRoutes({ store, agents, cursors, requestTimeoutMs }));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}
