import type { Express } from 'express';
import type { Logger } from 'pino';
import type { SandboxChangeOptions } from '@gp-gateway/agent';
import type { AgentHeartbeat } from './core/agents/agentSocketServer.ts';
import type { LocalAgentRouter } from './core/agents/agentRouter.ts';
import type { AgentPresenceRecorder } from './core/agents/agentPresence.ts';
import type { RedisPresence } from './core/agents/redisPresence.ts';
import type { InFlightGate } from './core/limits/inFlightGate.ts';
import type { Limits } from './core/limits/limits.ts';
import type { RateLimiter } from './core/limits/rateLimiter.ts';
import type { DocumentFetcher } from './core/oauth/oauthClients.ts';
import type { UsageRecorder } from './core/usage/usageRecorder.ts';
import type { Webhooks } from './core/webhooks/startWebhooks.ts';
import type { HostResolver } from './infrastructure/outbound/safeTarget.ts';
import type { Store } from './infrastructure/store/store.ts';

/**
 * What the composition root (gateway.ts) takes and what it hands back: the settings of one gateway
 * instance, as cli/runStart.ts reads them from the environment and the tests give them.
 */

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

export interface GatewayOptions {
  store: Store;
  log: Logger;
  cursorSecret: Buffer;
  port: number;
  host?: string;
  /** GATEWAY_URL: the public base URL links and the OAuth issuer start with; this machine on the listening port when absent. */
  gatewayUrl?: string | null;
  requestTimeoutMs: number;
  /** Folder of the demo databases; when given, the built-in sandbox agent serves them. */
  sandboxDir?: string;
  /** How the sandbox agent detects the demo's changes for test keys' feed (SANDBOX_CHANGES_*); none unless given. */
  sandboxChanges?: SandboxChangeOptions;
  limits?: Partial<GatewayLimitOptions>;
  /** How agent sockets are pinged and when a silent one is dropped (agents/agentSocketServer.ts). */
  agentHeartbeat?: AgentHeartbeat;
  /** How many agents a connection may have, and how often open sockets' tokens are re-checked (agents/agentSocketServer.ts). */
  agentAdmission?: { maxAgentsPerConnection?: number; tokenCheckMs?: number };
  /** Largest text of an MCP tool result in bytes (mcp/budget.ts); for tests. */
  mcpResultBudgetBytes?: number;
  /** Browser origins besides the gateway's own that may call /mcp (mcp/transportHttp.ts). */
  mcpAllowedOrigins?: readonly string[];
  /** Host values that may call /mcp (mcp/transportHttp.ts checkHost); any when absent. */
  mcpAllowedHosts?: readonly string[];
  /** Fetches OAuth Client ID Metadata Documents (core/oauth/clientMetadataDocument.ts) unless given; for tests. */
  oauthClientDocuments?: DocumentFetcher;
  /** Several instances sharing limits on Redis and routing requests over NATS (docs/decisions.md#several-gateway-instances). */
  cluster?: ClusterOptions;
  /** New agent sockets accepted per second; more are closed with 1013 (agents/handshakeCap.ts). Unlimited unless given. */
  agentHandshakesPerSecond?: number;
  /** How long the change feed's events are kept; EVENTS_RETENTION_DAYS unless given. */
  eventsRetentionDays?: number;
  /** A span per HTTP request, continued through NATS to the agent (docs/operations.md#traces); the caller starts the exporter (@gp-gateway/telemetry). */
  tracing?: boolean;
  /** Prometheus metrics (docs/operations.md#metrics); none are kept unless given. */
  metrics?: MetricsOptions;
  /** The agent's release folder (RELEASE_DIR): served at /downloads, its version named to agents as the latest. */
  releaseDir?: string;
  /** Webhooks (docs/api.md#webhooks); a key derived from the cursor secret and public targets only unless given. */
  webhooks?: WebhookOptions;
}

export interface WebhookOptions {
  /** Seals the endpoints' signing secrets (WEBHOOK_SECRETS_KEY, or the data folder's key). */
  secretsKey?: Buffer;
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS: http and loopback or private targets allowed (development, tests). */
  allowPrivateTargets?: boolean;
  /** How endpoint hosts are resolved; the system's resolver unless given (tests stub it). */
  resolve?: HostResolver;
  /** WEBHOOKS_LEASE_SECONDS: how long a claimed delivery is this instance's alone; 60 s unless given. */
  leaseMs?: number;
}

export interface MetricsOptions {
  /** `GET /metrics` on a port of its own (0: any free one) ... */
  port?: number | undefined;
  /** ... on this address; loopback unless given. */
  host?: string | undefined;
  /** `GET /metrics` on the public port too, for requests with `Authorization: Bearer <token>`. */
  token?: string | undefined;
}

export interface ClusterOptions {
  /** Shared rate limits, in-flight cap and agent presence. */
  redisUrl?: string | undefined;
  /** Requests for agents held by another instance are forwarded to it. */
  natsUrl?: string | undefined;
  /** This instance's name in NATS and Redis; random unless given. */
  instanceId?: string;
  /** Prefix of Redis keys and NATS subjects, so deployments (or tests) sharing servers stay apart. */
  prefix?: string;
  /** How often a forwarded request still running is reported alive; the forwarder gives up after three missed. */
  keepaliveMs?: number;
  /** How long an in-flight slot lasts in Redis unless renewed: what a dead instance held is lost this long at most. */
  inFlightLeaseMs?: number;
}

export interface RunningGateway {
  url: string;
  port: number;
  /** This instance's own agents. */
  router: LocalAgentRouter;
  /** The per-connection in-flight cap in this process (docs/api.md#in-flight-cap); with Redis, only while it is unreachable. */
  inFlight: InFlightGate;
  instanceId: string;
  /** Where this instance announces its agents in Redis, when it has Redis. */
  redisPresence: RedisPresence | null;
  /** Records this gateway's agents in the store for operators. */
  presence: AgentPresenceRecorder;
  /** Counts requests for the dashboard's usage page. */
  usage: UsageRecorder;
  /** Webhook endpoints, fan-out and the delivery worker. */
  webhooks: Webhooks;
  /**
   * Stops the instance gracefully (SIGTERM): `/ready` turns 503 and no new connection is accepted,
   * requests in flight (its clients' and those forwarded to its agents) get up to `graceMs` to
   * finish, then agent sockets are closed with 1012 so that agents reconnect to another instance,
   * and everything is closed. The store is the caller's to close.
   */
  drain(graceMs: number): Promise<void>;
  /** The HTTP app, for tests that enumerate its routes against the OpenAPI document. */
  app: Express;
  /** Where the metrics' own port serves them, when it has one. */
  metricsUrl: string | null;
  /** Stops at once: sockets cut, requests in flight failed. */
  close(): Promise<void>;
}
