import path from 'node:path';
import { z } from 'zod';
import { EVENTS_RETENTION_DAYS } from './infrastructure/store/store.ts';

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
    host: z.string().default('0.0.0.0'),
    dataDir: z.string().min(1).default('data'),
    logLevel: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    requestTimeoutMs: z.coerce.number({ message: 'REQUEST_TIMEOUT_MS must be a number of milliseconds' }).int().positive().default(30_000),
    demoScale: z.coerce.number({ message: 'DEMO_SCALE must be a whole number of at least 1' }).int().min(1).default(1),
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
export type GatewayConfig = z.infer<typeof ConfigSchema>;

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
    dataDir: env.DATA_DIR || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS || undefined,
    demoScale: env.DEMO_SCALE || undefined,
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
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  // Bound to loopback, only loopback's names reach /mcp unless told otherwise (DNS rebinding); elsewhere any.
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(parsed.data.host ?? '');
  const mcpAllowedHosts = parsed.data.mcpAllowedHosts ?? (loopback ? ['localhost', '127.0.0.1', '[::1]'] : []);
  return { ...parsed.data, mcpAllowedHosts, dataDir: path.resolve(parsed.data.dataDir) };
}
