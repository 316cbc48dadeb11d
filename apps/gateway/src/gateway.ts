import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { AdminService } from './core/admin/adminService.ts';
import { AgentPresenceRecorder } from './core/agents/agentPresence.ts';
import { attachAgentSocketServer, CLOSE_SERVICE_RESTART, DEFAULT_AGENT_HEARTBEAT } from './core/agents/agentSocketServer.ts';
import { LocalAgentRouter, type AgentRouter } from './core/agents/agentRouter.ts';
import { ClusterAgentRouter } from './core/agents/clusterAgentRouter.ts';
import { AgentResponder } from './core/agents/forwarding/agentResponder.ts';
import { NatsAgentRouter } from './core/agents/forwarding/natsAgentRouter.ts';
import { RedisPresence } from './core/agents/redisPresence.ts';
import { connectNats } from './infrastructure/cluster/natsClient.ts';
import { readinessProbe } from './infrastructure/cluster/readiness.ts';
import { connectRedis } from './infrastructure/cluster/redisClient.ts';
import { RedisInFlightLimiter } from './core/limits/redisInFlightLimiter.ts';
import { RedisRateLimiter } from './core/limits/redisRateLimiter.ts';
import { SANDBOX_AGENT_KEY } from './core/routing/connectionRouting.ts';
import { InFlightLimitedRouter } from './core/agents/inFlightLimitedRouter.ts';
import { DashboardAuth } from './frontends/dashboard/dashboardAuth.ts';
import { createApp } from './httpApp.ts';
import { ReleaseFolder } from './infrastructure/releases/releaseFolder.ts';
import { answerClientErrors } from './frontends/rest/clientErrors.ts';
import { CursorCodec } from './core/reads/cursor.ts';
import { createExpressShapedServer } from './frontends/rest/expressShapedServer.ts';
import { InFlightGate } from './core/limits/inFlightGate.ts';
import { DEFAULT_LIMITS } from './core/limits/limits.ts';
import { cachedLimitsLookup } from './core/limits/limitsLookup.ts';
import { InMemoryTokenBucketLimiter } from './core/limits/tokenBucketLimiter.ts';
import { UsageRecorder } from './core/usage/usageRecorder.ts';
import { startBuiltinAgent, type BuiltinAgent } from './core/sandbox/builtinAgent.ts';
import type { ChangesFrame } from '@gp-gateway/protocol';
import { SANDBOX_CONNECTION_ID, SANDBOX_EVENTS_ORG } from './infrastructure/store/store.ts';
import { startIdempotencySweep } from './core/writes/idempotencySweep.ts';
import { ConnectionEvents } from './core/events/connectionEvents.ts';
import { EventFeed } from './core/events/eventFeed.ts';
import { startEventRetention } from './core/events/eventRetention.ts';
import { startWebhooks } from './core/webhooks/startWebhooks.ts';
import { hkdfOf } from './infrastructure/webhookSecretsKey.ts';
import { EVENTS_RETENTION_DAYS } from './infrastructure/store/store.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { NO_METRICS } from './infrastructure/telemetry/metrics.ts';
import { startMetricsServer, type MetricsServer } from '@gp-gateway/telemetry';
import { createPromMetrics } from './infrastructure/telemetry/promMetrics.ts';
import { sha256Hex } from './core/auth/secrets.ts';
import { publicBaseUrl } from './config.ts';
import type { GatewayLimitOptions, GatewayOptions, RunningGateway } from './gatewayOptions.ts';

const DEFAULT_LIMIT_OPTIONS: Omit<GatewayLimitOptions, 'limiter'> = {
  defaults: DEFAULT_LIMITS,
  limitsCacheMs: 5_000,
  inFlightWaitMs: 2_000,
  inFlightMaxWaiting: 32,
};

/** How often a forwarded request still running is reported alive (agents/forwarding/agentResponder.ts). */
const DEFAULT_KEEPALIVE_MS = 500;

/**
 * Connections the kernel may complete and hold for the gateway while it is busy (the accept queue;
 * Linux caps it at net.core.somaxconn, 4096 by default since 5.4). Node's default, 511, is far too
 * few when an instance stops and its agents dial this one: the kernel silently drops the connections
 * past it, and each of those agents waits on TCP retransmissions (1 s, doubling, for minutes).
 */
const LISTEN_BACKLOG = 65_535;

/** The composition root: store, agent router, limits, HTTP app, agent socket and sandbox agent, wired together. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const limits = { ...DEFAULT_LIMIT_OPTIONS, ...options.limits };
  const cluster = options.cluster ?? {};
  const instanceId = cluster.instanceId ?? `gw_${randomBytes(9).toString('base64url')}`;
  const prefix = cluster.prefix ?? 'gp';
  const redis = cluster.redisUrl ? await connectRedis(cluster.redisUrl, options.log.child({ component: 'redis' })) : null;
  const nats = cluster.natsUrl ? await connectNats(cluster.natsUrl, instanceId, options.log.child({ component: 'nats' })) : null;
  const notShared = new Set([SANDBOX_AGENT_KEY]);
  const prom = options.metrics ? createPromMetrics() : null;
  const metrics = prom?.metrics ?? NO_METRICS;

  const router = new LocalAgentRouter(options.log.child({ component: 'agents' }));
  const presence = new AgentPresenceRecorder({
    store: options.store,
    gatewayId: instanceId,
    log: options.log.child({ component: 'presence' }),
  });
  router.listen(presence);
  presence.start();
  if (prom) {
    router.listen({
      added: (key) => {
        if (!notShared.has(key)) prom.agentAdded();
      },
      removed: (key) => {
        if (!notShared.has(key)) prom.agentRemoved();
      },
    });
  }
  const redisPresence = redis
    ? new RedisPresence({
        redis,
        local: router,
        instanceId,
        keyPrefix: prefix,
        refreshMs: options.agentHeartbeat?.intervalMs ?? DEFAULT_AGENT_HEARTBEAT.intervalMs,
        exclude: notShared,
        log: options.log.child({ component: 'presence' }),
      })
    : null;
  if (redisPresence) {
    router.listen(redisPresence);
    redisPresence.start();
  }
  const keepaliveMs = cluster.keepaliveMs ?? DEFAULT_KEEPALIVE_MS;
  const responder = nats
    ? new AgentResponder({
        nats,
        local: router,
        instanceId,
        prefix,
        keepaliveMs,
        exclude: notShared,
        log: options.log.child({ component: 'forwarding' }),
      })
    : null;
  if (responder) router.listen(responder);
  const agents: AgentRouter = nats
    ? new ClusterAgentRouter(
        router,
        new NatsAgentRouter({ nats, prefix, keepaliveMs, metrics, log: options.log.child({ component: 'forwarding' }) }),
      )
    : router;

  const inFlight = new InFlightGate({ maxWaitMs: limits.inFlightWaitMs, maxWaiting: limits.inFlightMaxWaiting });
  const sharedInFlight = redis
    ? new RedisInFlightLimiter({
        redis,
        fallback: inFlight,
        log: options.log.child({ component: 'limits' }),
        maxWaitMs: limits.inFlightWaitMs,
        maxWaiting: limits.inFlightMaxWaiting,
        keyPrefix: prefix,
        ...(cluster.inFlightLeaseMs ? { leaseMs: cluster.inFlightLeaseMs } : {}),
      })
    : null;
  // With Redis, the API quotas, the dashboard's sign-in attempts and the refusals of bad
  // credentials are counted once for all instances: behind a balancer, each instance counting its
  // own would multiply every limit by the number of instances (a password guesser's included).
  const shared = redis
    ? new RedisRateLimiter({
        redis,
        // Bounded: refusals and sign-ins are counted per remote address, which strangers choose.
        fallback: new InMemoryTokenBucketLimiter(undefined, { maxBuckets: 100_000 }),
        keyPrefix: prefix,
        log: options.log.child({ component: 'limits' }),
        meanwhile: 'rate limits, sign-in attempts and refusals are counted in this process',
      })
    : null;
  const limiter = options.limits?.limiter ?? shared ?? new InMemoryTokenBucketLimiter();
  let draining = false;
  const usage = new UsageRecorder(options.store, options.log.child({ component: 'usage' }));
  const sweep = startIdempotencySweep(options.store, options.log.child({ component: 'writes' }));
  const cursors = new CursorCodec(options.cursorSecret);
  const eventsLog = options.log.child({ component: 'events' });
  const webhooks = startWebhooks({
    store: options.store,
    log: options.log,
    metrics,
    cursors,
    secretsKey: options.webhooks?.secretsKey ?? hkdfOf(options.cursorSecret),
    allowPrivateTargets: options.webhooks?.allowPrivateTargets ?? false,
    ...(options.webhooks?.resolve ? { resolve: options.webhooks.resolve } : {}),
    ...(options.webhooks?.leaseMs ? { leaseMs: options.webhooks.leaseMs } : {}),
  });
  const events = new EventFeed({
    store: options.store,
    cursors,
    log: eventsLog,
    metrics,
    append: (events, at) => webhooks.fanOut.append(events, at),
  });
  const connectionEvents = new ConnectionEvents(events);
  router.listen(connectionEvents);
  const retention = startEventRetention(options.store, eventsLog, options.eventsRetentionDays ?? EVENTS_RETENTION_DAYS);
  // Known once listening (PORT may be 0); links are made only by requests, which come after.
  let publicUrl = publicBaseUrl({ gatewayUrl: options.gatewayUrl ?? null, port: options.port });
  const releases = options.releaseDir ? new ReleaseFolder(options.releaseDir, options.log.child({ component: 'releases' })) : null;
  const app = createApp({
    publicUrl: () => publicUrl,
    ...(options.oauthClientDocuments ? { oauthClientDocuments: options.oauthClientDocuments } : {}),
    usage,
    releases,
    store: options.store,
    // The dashboard's agent status: Redis presence (every instance's agents) when there is Redis.
    admin: new AdminService(options.store, undefined, redisPresence),
    // The cursor secret is shared by a deployment's instances: a choice of organisation made after
    // signing in on one is good on another (the key is derived from it, never the secret itself).
    dashboardAuth: new DashboardAuth(options.store, shared ?? new InMemoryTokenBucketLimiter(), options.cursorSecret),
    agents: new InFlightLimitedRouter(agents, sharedInFlight ?? inFlight, limits.defaults.maxInFlightPerConnection, metrics),
    cursors,
    events,
    webhookDeliveries: webhooks.deliveries,
    webhookEndpoints: webhooks.endpoints,
    log: options.log,
    requestTimeoutMs: options.requestTimeoutMs,
    limitsOf: cachedLimitsLookup(options.store, limits.defaults, limits.limitsCacheMs),
    limiter,
    ...(shared ? { refusalLimiter: shared } : {}),
    ready: readinessProbe({ store: options.store, redis, nats, draining: () => draining }),
    ...(options.mcpResultBudgetBytes ? { mcpResultBudgetBytes: options.mcpResultBudgetBytes } : {}),
    ...(options.mcpAllowedOrigins ? { mcpAllowedOrigins: options.mcpAllowedOrigins } : {}),
    ...(options.mcpAllowedHosts ? { mcpAllowedHosts: options.mcpAllowedHosts } : {}),
    ...(prom ? { metrics } : {}),
    ...(options.tracing ? { tracing: true } : {}),
    ...(prom && options.metrics?.token
      ? { metricsRoute: { tokenHash: sha256Hex(options.metrics.token), render: prom.render, contentType: prom.contentType } }
      : {}),
  });
  const server = createExpressShapedServer(app);
  answerClientErrors(server);
  const requests = trackRequests(server, () => draining);
  const sockets = attachAgentSocketServer({
    server,
    store: options.store,
    agents: router,
    log: options.log,
    ...(options.agentHeartbeat ? { heartbeat: options.agentHeartbeat } : {}),
    ...(options.agentHandshakesPerSecond ? { handshakesPerSecond: options.agentHandshakesPerSecond } : {}),
    ...(shared ? { refusalLimiter: shared } : {}),
    ...options.agentAdmission,
    metrics,
    ...(releases ? { latestAgentVersion: () => releases.latestVersion() } : {}),
    changes: (orgId, connectionId) => ({ orgId, ingest: (frame) => events.ingest(orgId, connectionId, frame) }),
  });
  let sandbox: BuiltinAgent | null = null;
  if (options.sandboxDir) {
    // The demo is every organisation's sandbox: its changes are kept once, under SANDBOX_EVENTS_ORG, for every test key.
    const feed = options.sandboxChanges && {
      detection: options.sandboxChanges,
      sink: { orgId: SANDBOX_EVENTS_ORG, ingest: (frame: ChangesFrame) => events.ingest(SANDBOX_EVENTS_ORG, SANDBOX_CONNECTION_ID, frame) },
    };
    sandbox = await startBuiltinAgent(options.sandboxDir, router, options.log.child({ component: 'sandbox' }), feed ?? null);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host ?? '0.0.0.0', backlog: LISTEN_BACKLOG }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  publicUrl = publicBaseUrl({ gatewayUrl: options.gatewayUrl ?? null, port });
  let metricsServer: MetricsServer | null = null;
  if (prom && options.metrics?.port !== undefined) {
    metricsServer = await startMetricsServer({
      port: options.metrics.port,
      host: options.metrics.host ?? '127.0.0.1',
      render: prom.render,
      contentType: prom.contentType,
    });
  }

  let closing: Promise<void> | null = null;
  const closeRest = async () => {
    // Agents first (what waits on them fails now, as when they drop), then presence and usage,
    // which could no longer be written once the store closes.
    sockets.close();
    await responder?.stop();
    await presence.stop();
    await redisPresence?.stop();
    await sweep.stop();
    await retention.stop();
    await webhooks.stop();
    await connectionEvents.settled();
    await sandbox?.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await usage.stop();
    sharedInFlight?.stop();
    await nats?.drain().catch(() => {});
    redis?.disconnect();
    await metricsServer?.close();
    prom?.close();
  };
  return {
    url: `http://localhost:${port}`,
    port,
    router,
    inFlight,
    instanceId,
    redisPresence,
    presence,
    usage,
    webhooks,
    app,
    metricsUrl: metricsServer?.url ?? null,
    drain(graceMs: number) {
      closing ??= (async () => {
        draining = true;
        const log = options.log.child({ component: 'shutdown' });
        log.info(
          { inFlight: requests.inFlight, forwarded: responder?.inFlight ?? 0, graceMs },
          'draining: no new connections; finishing requests in flight',
        );
        // Stop listening, but leave open keep-alive sockets be: closing an idle one races a client
        // sending on it (its request would fail without an answer). Each request that still arrives
        // on one is answered with `Connection: close`, so its client reconnects, to another instance.
        net.Server.prototype.close.call(server);
        const deadline = Date.now() + graceMs;
        while ((requests.inFlight > 0 || (responder?.inFlight ?? 0) > 0) && Date.now() < deadline) await sleep(20);
        // No more requests from other instances, then the agents go (to another instance).
        await responder?.stop();
        await sockets.closeAgents(CLOSE_SERVICE_RESTART, 'gateway restarting; reconnect');
        log.info({ unfinished: requests.inFlight }, 'drained; agents told to reconnect elsewhere');
        await closeRest();
      })();
      return closing;
    },
    close() {
      closing ??= (async () => {
        draining = true;
        await closeRest();
      })();
      return closing;
    },
  };
}

/** Counts requests being answered; while draining, each response asks its client to close the connection (so keep-alive clients move on). */
function trackRequests(server: http.Server, draining: () => boolean): { readonly inFlight: number } {
  const counter = { inFlight: 0 };
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    counter.inFlight += 1;
    if (draining()) res.setHeader('Connection', 'close');
    res.once('close', () => {
      counter.inFlight -= 1;
    });
  });
  return counter;
}
