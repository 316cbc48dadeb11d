import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AdminService } from './admin/adminService.ts';
import { AgentPresenceRecorder } from './agents/agentPresence.ts';
import { attachAgentSocketServer, type AgentHeartbeat } from './agents/agentSocketServer.ts';
import { LocalAgentRouter } from './agents/agentRouter.ts';
import { InFlightLimitedRouter } from './agents/inFlightLimitedRouter.ts';
import { DashboardAuth } from './dashboard/dashboardAuth.ts';
import { createApp } from './http/app.ts';
import { answerClientErrors } from './http/clientErrors.ts';
import { CursorCodec } from './reads/cursor.ts';
import { createExpressShapedServer } from './http/expressShapedServer.ts';
import { InFlightGate } from './limits/inFlightGate.ts';
import { DEFAULT_LIMITS, type Limits } from './limits/limits.ts';
import { cachedLimitsLookup } from './limits/limitsLookup.ts';
import type { RateLimiter } from './limits/rateLimiter.ts';
import { InMemoryTokenBucketLimiter } from './limits/tokenBucketLimiter.ts';
import { UsageRecorder } from './usage/usageRecorder.ts';
import { startBuiltinAgent, type BuiltinAgent } from './sandbox/builtinAgent.ts';
import type { Store } from './store/store.ts';

/** How the gateway applies its limits (docs/api.md#rate-limits); every field has a default. */
export interface GatewayLimitOptions {
  /** Limits of organisations that set none of their own. */
  defaults: Limits;
  /** How long an organisation's limits are cached; an operator's change takes effect within this. */
  limitsCacheMs: number;
  /** How long a request may wait for a free in-flight slot on its connection before 429. */
  inFlightWaitMs: number;
  /** How many requests may wait per connection; more get 429 at once. */
  inFlightMaxWaiting: number;
  /** Where the per-key buckets live; in memory unless given (Redis when instances share keys). */
  limiter: RateLimiter;
}

export const DEFAULT_LIMIT_OPTIONS: Omit<GatewayLimitOptions, 'limiter'> = {
  defaults: DEFAULT_LIMITS,
  limitsCacheMs: 5_000,
  inFlightWaitMs: 2_000,
  inFlightMaxWaiting: 32,
};

export interface GatewayOptions {
  store: Store;
  log: Logger;
  cursorSecret: Buffer;
  port: number;
  host?: string;
  requestTimeoutMs: number;
  /** Folder of the demo databases; when given, the built-in sandbox agent serves them. */
  sandboxDir?: string;
  limits?: Partial<GatewayLimitOptions>;
  /** How agent sockets are pinged and when a silent one is dropped (agents/agentSocketServer.ts). */
  agentHeartbeat?: AgentHeartbeat;
  /** How many agents a connection may have, and how often open sockets' tokens are re-checked (agents/agentSocketServer.ts). */
  agentAdmission?: { maxAgentsPerConnection?: number; tokenCheckMs?: number };
  /** Largest text of an MCP tool result in bytes (mcp/budget.ts); for tests. */
  mcpResultBudgetBytes?: number;
  /** Browser origins besides the gateway's own that may call /mcp (mcp/transportHttp.ts). */
  mcpAllowedOrigins?: readonly string[];
}

export interface RunningGateway {
  url: string;
  port: number;
  router: LocalAgentRouter;
  /** Every agent request goes through this gate (the per-connection cap, docs/api.md#in-flight-cap). */
  inFlight: InFlightGate;
  /** Records this gateway's agents in the store for operators. */
  presence: AgentPresenceRecorder;
  /** Counts requests for the dashboard's usage page. */
  usage: UsageRecorder;
  /** The HTTP app, for tests that enumerate its routes against the OpenAPI document. */
  app: Express;
  close(): Promise<void>;
}

/** The composition root: store, agent router, limits, HTTP app, agent socket and sandbox agent, wired together. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const limits = { ...DEFAULT_LIMIT_OPTIONS, ...options.limits };
  const router = new LocalAgentRouter(options.log.child({ component: 'agents' }));
  const presence = new AgentPresenceRecorder({
    store: options.store,
    gatewayId: `gw_${randomBytes(9).toString('base64url')}`,
    log: options.log.child({ component: 'presence' }),
  });
  router.listen(presence);
  presence.start();
  const inFlight = new InFlightGate({ maxWaitMs: limits.inFlightWaitMs, maxWaiting: limits.inFlightMaxWaiting });
  const usage = new UsageRecorder(options.store, options.log.child({ component: 'usage' }));
  const app = createApp({
    usage,
    store: options.store,
    admin: new AdminService(options.store),
    // Sign-in attempts are counted in this process; several instances will share them on Redis.
    dashboardAuth: new DashboardAuth(options.store, new InMemoryTokenBucketLimiter()),
    agents: new InFlightLimitedRouter(router, inFlight, limits.defaults.maxInFlightPerConnection),
    cursors: new CursorCodec(options.cursorSecret),
    log: options.log,
    requestTimeoutMs: options.requestTimeoutMs,
    limitsOf: cachedLimitsLookup(options.store, limits.defaults, limits.limitsCacheMs),
    limiter: limits.limiter ?? new InMemoryTokenBucketLimiter(),
    ...(options.mcpResultBudgetBytes ? { mcpResultBudgetBytes: options.mcpResultBudgetBytes } : {}),
    ...(options.mcpAllowedOrigins ? { mcpAllowedOrigins: options.mcpAllowedOrigins } : {}),
  });
  const server = createExpressShapedServer(app);
  answerClientErrors(server);
  const sockets = attachAgentSocketServer({
    server,
    store: options.store,
    agents: router,
    log: options.log,
    ...(options.agentHeartbeat ? { heartbeat: options.agentHeartbeat } : {}),
    ...options.agentAdmission,
  });
  let sandbox: BuiltinAgent | null = null;
  if (options.sandboxDir) sandbox = await startBuiltinAgent(options.sandboxDir, router, options.log.child({ component: 'sandbox' }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    port,
    router,
    inFlight,
    presence,
    usage,
    app,
    async close() {
      // Presence and usage first: once the store closes, they could no longer be written.
      await presence.stop();
      sockets.close();
      await sandbox?.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await usage.stop();
    },
  };
}
