import path from 'node:path';
import { z } from 'zod';
import { EVENTS_RETENTION_DAYS } from './infrastructure/store/store.ts';
import { dataPaths } from './infrastructure/dataPaths.ts';

/** At least 32 bytes, as 64+ hex digits or as base64/base64url; null when the setting is absent. The message names `variable`. */
const secretBytesSetting = (variable: string) =>
  z
    .string()
    .transform((text, ctx) => {
      const trimmed = text.trim();
      const bytes = /^([0-9a-f]{2})+$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
      if (bytes.length < 32) {
        ctx.addIssue({
          code: 'custom',
          message: `${variable} must be at least 32 random bytes, written as hex or base64 (e.g. the output of: openssl rand -hex 32)`,
        });
        return z.NEVER;
      }
      return bytes;
    })
    .nullable()
    .default(null);

/**
 * DATABASE_URL: a PostgreSQL URL (`postgres://user:password@host:5432/database`), or unset for the
 * embedded SQLite store in DATA_DIR. The message never repeats the value, which may hold a password.
 */
const DatabaseUrlSchema = z
  .string()
  .refine((text) => /^postgres(ql)?:\/\/./.test(text.trim()) && URL.canParse(text.trim()), {
    message:
      'DATABASE_URL must be a PostgreSQL URL such as postgres://gateway:password@db.example.com:5432/gateway (or unset for the embedded SQLite store)',
  })
  .transform((text) => text.trim())
  .nullable()
  .default(null);

/** A URL whose scheme is one of `schemes`, or null when the variable is unset; the message names the variable. */
function serverUrl(variable: string, schemes: readonly string[], example: string) {
  const message = `${variable} must be a URL starting with ${schemes.map((s) => `${s}//`).join(' or ')}, e.g. ${example}`;
  return z
    .string()
    .refine((text) => {
      try {
        const url = new URL(text.trim());
        return schemes.includes(url.protocol) && url.hostname !== '';
      } catch {
        return false;
      }
    }, message)
    .transform((text) => text.trim())
    .nullable()
    .default(null);
}

/** Host names that are this machine: a gateway bound to one serves only it, and http:// to one crosses no network. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host) || host.toLowerCase().endsWith('.localhost');
}

/**
 * GATEWAY_URL (docs/operations.md#configuration): the address people and agents reach this gateway
 * at, from which every absolute link it prints or renders is built (sign-in links, install steps).
 * An absolute http(s) URL, optionally with a path (a reverse proxy's prefix), without credentials,
 * query or fragment; https unless its host is this machine, since a sign-in link over http would
 * cross the network in clear text. Kept without a trailing slash; null when unset.
 */
function gatewayUrlProblem(text: string): string | null {
  const example = 'e.g. https://gateway.example.com';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `GATEWAY_URL must be an absolute URL, ${example}, not "${text}"`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `GATEWAY_URL must start with https:// (${example}), not "${url.protocol}//"`;
  if (url.username || url.password) return 'GATEWAY_URL must not hold a user name or password';
  if (url.search || text.includes('?')) return `GATEWAY_URL must have no query (?…), ${example}`;
  if (url.hash || text.includes('#')) return `GATEWAY_URL must have no fragment (#…), ${example}`;
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return `GATEWAY_URL must start with https:// unless it names this machine (localhost, 127.0.0.1, [::1]): sign-in links over http:// would cross the network in clear text; got "${text}"`;
  return null;
}

const GatewayUrlSchema = z
  .string()
  .transform((text) => text.trim())
  .superRefine((text, ctx) => {
    const problem = gatewayUrlProblem(text);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => new URL(text).href.replace(/\/+$/, ''))
  .nullable()
  .default(null);

/** NATS_URL may list several servers of one NATS cluster, comma-separated. */
const NatsUrlsSchema = z
  .string()
  .transform((text, ctx) => {
    const urls = text
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    const inner = serverUrl('NATS_URL', ['nats:', 'tls:'], 'nats://nats:4222 (several, comma-separated)');
    for (const url of urls) {
      const parsed = inner.safeParse(url);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]!.message });
        return z.NEVER;
      }
    }
    if (!urls.length) {
      ctx.addIssue({ code: 'custom', message: 'NATS_URL must name at least one server, e.g. nats://nats:4222' });
      return z.NEVER;
    }
    return urls.join(',');
  })
  .nullable()
  .default(null);

/** Gateway settings from the environment; messages name the variable, for whoever deploys it. */
const ConfigSchema = z
  .object({
    port: z.coerce.number({ message: 'PORT must be a port number' }).int().min(0).max(65535).default(3000),
    /** Unset: 0.0.0.0 when GATEWAY_URL says where the public reaches it, else loopback only (see loadConfig). */
    host: z.string().optional(),
    /** The public base URL (GATEWAY_URL): links are built from it, never from a request's Host. */
    gatewayUrl: GatewayUrlSchema,
    dataDir: z.string().min(1).default('data'),
    /** The agent's release folder the gateway serves at /downloads (docs/operations.md#updating-agents); DATA_DIR/releases unless set. */
    releaseDir: z.string().min(1).nullable().default(null),
    logLevel: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    requestTimeoutMs: z.coerce.number({ message: 'REQUEST_TIMEOUT_MS must be a number of milliseconds' }).int().positive().default(30_000),
    demoScale: z.coerce.number({ message: 'DEMO_SCALE must be a whole number of at least 1' }).int().min(1).default(1),
    /** How often the sandbox agent polls the demo for changes (test keys' events); 0 turns it off. */
    sandboxChangesIntervalMs: z.coerce
      .number({ message: 'SANDBOX_CHANGES_INTERVAL_MS must be a whole number of milliseconds (0: off)' })
      .int('SANDBOX_CHANGES_INTERVAL_MS must be a whole number of milliseconds (0: off)')
      .min(0, 'SANDBOX_CHANGES_INTERVAL_MS must be a whole number of milliseconds (0: off)')
      .default(15_000),
    agentHeartbeatIntervalMs: z.coerce
      .number({ message: 'AGENT_HEARTBEAT_INTERVAL_MS must be a number of milliseconds' })
      .int()
      .min(50, 'AGENT_HEARTBEAT_INTERVAL_MS must be at least 50')
      .default(10_000),
    agentHeartbeatTimeoutMs: z.coerce
      .number({ message: 'AGENT_HEARTBEAT_TIMEOUT_MS must be a number of milliseconds' })
      .int()
      .min(100, 'AGENT_HEARTBEAT_TIMEOUT_MS must be at least 100')
      .default(30_000),
    agentMaxPerConnection: z.coerce
      .number({ message: 'AGENT_MAX_PER_CONNECTION must be a whole number from 1 to 1000' })
      .int('AGENT_MAX_PER_CONNECTION must be a whole number from 1 to 1000')
      .min(1, 'AGENT_MAX_PER_CONNECTION must be a whole number from 1 to 1000')
      .max(1000, 'AGENT_MAX_PER_CONNECTION must be a whole number from 1 to 1000')
      .default(4),
    agentTokenCheckMs: z.coerce
      .number({ message: 'AGENT_TOKEN_CHECK_MS must be a number of milliseconds' })
      .int()
      .min(50, 'AGENT_TOKEN_CHECK_MS must be at least 50')
      .default(1_000),
    /** Host header values that may call /mcp, comma-separated (a name, or name:port); unset: see loadConfig. */
    mcpAllowedHosts: z
      .string()
      .optional()
      .transform((text) =>
        text === undefined
          ? undefined
          : text
              .split(',')
              .map((h) => h.trim())
              .filter(Boolean),
      ),
    /** Browser origins that may call /mcp besides the gateway's own, comma-separated; `*` for any. */
    mcpAllowedOrigins: z
      .string()
      .default('')
      .transform((text) =>
        text
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      ),
    /**
     * Signs cursors. Several instances of one deployment must share it; the embedded default
     * leaves it unset and keeps one in the data folder instead (dataDir.ts).
     */
    cursorSecret: secretBytesSetting('CURSOR_SECRET'),
    /** The shared PostgreSQL store of several instances (docs/decisions.md#several-gateway-instances); null for SQLite in dataDir. */
    databaseUrl: DatabaseUrlSchema,
    /** Several instances (docs/decisions.md#several-gateway-instances): shared limits and agent presence ... */
    redisUrl: serverUrl('REDIS_URL', ['redis:', 'rediss:'], 'redis://redis:6379'),
    /** ... and requests routed to the instance holding the connection's agent. */
    natsUrl: NatsUrlsSchema,
    /** This instance's name in NATS, Redis and logs; random unless set. */
    instanceId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'INSTANCE_ID must be 1 to 64 letters, digits, "-" or "_"')
      .nullable()
      .default(null),
    agentHandshakesPerSecond: z.coerce
      .number({ message: 'AGENT_HANDSHAKES_PER_SECOND must be a whole number from 1 to 100000' })
      .int('AGENT_HANDSHAKES_PER_SECOND must be a whole number from 1 to 100000')
      .min(1, 'AGENT_HANDSHAKES_PER_SECOND must be a whole number from 1 to 100000')
      .max(100_000, 'AGENT_HANDSHAKES_PER_SECOND must be a whole number from 1 to 100000')
      .default(500),
    shutdownGraceMs: z.coerce
      .number({ message: 'SHUTDOWN_GRACE_MS must be a number of milliseconds' })
      .int('SHUTDOWN_GRACE_MS must be a whole number of milliseconds')
      .min(0, 'SHUTDOWN_GRACE_MS must be 0 or more')
      .max(600_000, 'SHUTDOWN_GRACE_MS must be at most 600000 (10 minutes)')
      .default(30_000),
    /** `GET /metrics` on a port of its own (docs/operations.md#metrics); off unless set. */
    metricsPort: z.coerce
      .number({ message: 'METRICS_PORT must be a port number' })
      .int('METRICS_PORT must be a port number')
      .min(0, 'METRICS_PORT must be a port number')
      .max(65535, 'METRICS_PORT must be a port number')
      .nullable()
      .default(null),
    metricsHost: z.string().default('127.0.0.1'),
    /** `GET /metrics` on the public port for `Authorization: Bearer <METRICS_TOKEN>`; not served there unless set. */
    metricsToken: z
      .string()
      .min(16, 'METRICS_TOKEN must be at least 16 characters (e.g. the output of: openssl rand -hex 32)')
      .nullable()
      .default(null),
    /**
     * Seals webhook signing secrets (docs/decisions.md#webhooks): at least 32 random bytes, the same
     * for every instance and the operator CLI; unset keeps a key in the data folder instead.
     */
    webhookSecretsKey: secretBytesSetting('WEBHOOK_SECRETS_KEY'),
    /** Webhooks may go over plain http and to loopback and private addresses: for development only. */
    webhooksAllowPrivateTargets: z
      .enum(['0', '1', 'true', 'false'], { message: 'WEBHOOKS_ALLOW_PRIVATE_TARGETS must be 1 or 0' })
      .default('0')
      .transform((v) => v === '1' || v === 'true'),
    /**
     * How long a claimed webhook delivery is one instance's alone (docs/decisions.md#webhooks): after
     * an instance dies, its deliveries wait this long before another sends them.
     */
    webhooksLeaseSeconds: z.coerce
      .number({ message: 'WEBHOOKS_LEASE_SECONDS must be a whole number of seconds from 2 to 3600' })
      .int('WEBHOOKS_LEASE_SECONDS must be a whole number of seconds from 2 to 3600')
      .min(2, 'WEBHOOKS_LEASE_SECONDS must be a whole number of seconds from 2 to 3600')
      .max(3600, 'WEBHOOKS_LEASE_SECONDS must be a whole number of seconds from 2 to 3600')
      .default(60),
    /** How long the change feed's events are kept (docs/api.md#events). */
    eventsRetentionDays: z.coerce
      .number({ message: 'EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650' })
      .int('EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650')
      .min(1, 'EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650')
      .max(3650, 'EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650')
      .default(EVENTS_RETENTION_DAYS),
  })
  .refine((c) => c.agentHeartbeatTimeoutMs > c.agentHeartbeatIntervalMs, {
    message: 'AGENT_HEARTBEAT_TIMEOUT_MS must be longer than AGENT_HEARTBEAT_INTERVAL_MS',
  })
  .refine((c) => (c.redisUrl === null && c.natsUrl === null) || c.cursorSecret !== null, {
    message:
      'CURSOR_SECRET must be set when REDIS_URL or NATS_URL is: every instance of a deployment must sign cursors with the same key (e.g. the output of: openssl rand -hex 32)',
  });
export type GatewayConfig = Omit<z.infer<typeof ConfigSchema>, 'host'> & { host: string };

/** DATA_DIR as `start` reads it, for commands that need nothing else (the operator CLI). */
export function dataDirFrom(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.DATA_DIR || 'data');
}

/** DATABASE_URL, checked as `start` checks it, for the operator CLI; null when unset. */
/** REDIS_URL alone, checked as at start: the operator CLI reads agent presence there. */
export function redisUrlFrom(env: NodeJS.ProcessEnv = process.env): string | null {
  const parsed = serverUrl('REDIS_URL', ['redis:', 'rediss:'], 'redis://redis:6379').safeParse(env.REDIS_URL || undefined);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data ?? null;
}

/** WEBHOOK_SECRETS_KEY and WEBHOOKS_ALLOW_PRIVATE_TARGETS as `start` reads them, for the operator CLI's webhook commands. */
export function webhookSettingsFrom(env: NodeJS.ProcessEnv = process.env): { secretsKey: Buffer | null; allowPrivateTargets: boolean } {
  const key = secretBytesSetting('WEBHOOK_SECRETS_KEY').safeParse(env.WEBHOOK_SECRETS_KEY || undefined);
  if (!key.success) throw new Error(key.error.issues[0]!.message);
  return { secretsKey: key.data, allowPrivateTargets: ['1', 'true'].includes(env.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? '') };
}

export function databaseUrlFrom(env: NodeJS.ProcessEnv = process.env): string | null {
  const parsed = DatabaseUrlSchema.safeParse(env.DATABASE_URL || undefined);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = ConfigSchema.safeParse({
    port: env.PORT || undefined,
    host: env.HOST || undefined,
    gatewayUrl: env.GATEWAY_URL || undefined,
    dataDir: env.DATA_DIR || undefined,
    releaseDir: env.RELEASE_DIR || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS || undefined,
    demoScale: env.DEMO_SCALE || undefined,
    sandboxChangesIntervalMs: env.SANDBOX_CHANGES_INTERVAL_MS || undefined,
    agentHeartbeatIntervalMs: env.AGENT_HEARTBEAT_INTERVAL_MS || undefined,
    agentHeartbeatTimeoutMs: env.AGENT_HEARTBEAT_TIMEOUT_MS || undefined,
    agentMaxPerConnection: env.AGENT_MAX_PER_CONNECTION || undefined,
    agentTokenCheckMs: env.AGENT_TOKEN_CHECK_MS || undefined,
    mcpAllowedOrigins: env.MCP_ALLOWED_ORIGINS || undefined,
    mcpAllowedHosts: env.MCP_ALLOWED_HOSTS || undefined,
    cursorSecret: env.CURSOR_SECRET || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    natsUrl: env.NATS_URL || undefined,
    instanceId: env.INSTANCE_ID || undefined,
    agentHandshakesPerSecond: env.AGENT_HANDSHAKES_PER_SECOND || undefined,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS || undefined,
    metricsPort: env.METRICS_PORT || undefined,
    metricsHost: env.METRICS_HOST || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    eventsRetentionDays: env.EVENTS_RETENTION_DAYS || undefined,
    webhookSecretsKey: env.WEBHOOK_SECRETS_KEY || undefined,
    webhooksAllowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS || undefined,
    webhooksLeaseSeconds: env.WEBHOOKS_LEASE_SECONDS || undefined,
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  // Without a public address the links would have to name the request's Host, which a client
  // chooses: so unless GATEWAY_URL says where the public reaches it, the gateway serves this machine only.
  const host = parsed.data.host ?? (parsed.data.gatewayUrl === null ? '127.0.0.1' : '0.0.0.0');
  const loopback = isLoopback(host);
  if (!loopback && parsed.data.gatewayUrl === null)
    throw new Error(
      `GATEWAY_URL must be set when HOST (${host}) is not this machine: the address people and agents reach the gateway at, e.g. https://gateway.example.com; sign-in links and install steps are built from it`,
    );
  // Bound to loopback, only loopback's names reach /mcp unless told otherwise (DNS rebinding); elsewhere any.
  const mcpAllowedHosts = parsed.data.mcpAllowedHosts ?? (loopback ? ['localhost', '127.0.0.1', '[::1]'] : []);
  const dataDir = path.resolve(parsed.data.dataDir);
  const releaseDir = path.resolve(parsed.data.releaseDir ?? dataPaths(dataDir).releases);
  return { ...parsed.data, host, mcpAllowedHosts, dataDir, releaseDir };
}

/**
 * The public base URL every absolute link starts with (no trailing slash): GATEWAY_URL, else this
 * machine on the port the gateway listens on (`listeningPort` when PORT was 0). For the dashboard's
 * links, the operator CLI's and an OAuth issuer alike; never built from a request's headers.
 */
export function publicBaseUrl(config: Pick<GatewayConfig, 'gatewayUrl' | 'port'>, listeningPort?: number): string {
  return config.gatewayUrl ?? `http://localhost:${listeningPort ?? config.port}`;
}

/** GATEWAY_URL and PORT alone, checked as at start, for the operator CLI's links; `given` (--gateway-url) wins. */
export function publicBaseUrlFrom(env: NodeJS.ProcessEnv = process.env, given?: string): string {
  const gatewayUrl = GatewayUrlSchema.safeParse(given?.trim() || env.GATEWAY_URL || undefined);
  if (!gatewayUrl.success) throw new Error(gatewayUrl.error.issues.map((i) => i.message).join('\n'));
  const port = z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .safeParse(env.PORT || 3000);
  return publicBaseUrl({ gatewayUrl: gatewayUrl.data, port: port.success ? port.data : 3000 });
}
