import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { OutageNotice } from '../../infrastructure/outageNotice.ts';
import type { AgentLink } from './agentLink.ts';
import type { AgentLinkListener, LocalAgentRouter } from './agentRouter.ts';

export interface RedisPresenceOptions {
  redis: Redis;
  local: LocalAgentRouter;
  instanceId: string;
  log: Logger;
  /** How often this instance re-announces its agents (the agent heartbeat interval) ... */
  refreshMs: number;
  /** ... and how long an announcement lasts unless refreshed: an instance that died drops out within this. */
  ttlMs?: number;
  keyPrefix?: string;
  /** Connections not announced (the built-in sandbox: every instance has its own). */
  exclude?: ReadonlySet<string>;
}

/** One instance's agents of one connection, as announced. */
export interface PresenceEntry {
  instanceId: string;
  agents: Array<{ host: string; version: string; draining: boolean }>;
}

/**
 * Which instance holds which connection's agents, in Redis (docs/decisions.md#several-gateway-instances):
 * a hash per connection, one field per instance holding agents of it, each stamped with an expiry
 * that this instance pushes forward every `refreshMs` (and on every connect, leave or change). An
 * instance that dies stops refreshing and drops out within `ttlMs`; readers skip stale fields.
 * Failures are logged once per outage and never fail a request.
 */
export class RedisPresence implements AgentLinkListener {
  private readonly options: RedisPresenceOptions & { ttlMs: number; keyPrefix: string };
  private readonly held = new Set<string>();
  private readonly outage: OutageNotice;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(options: RedisPresenceOptions) {
    this.options = { ttlMs: options.refreshMs * 3, keyPrefix: 'gp', ...options };
    this.outage = new OutageNotice(options.log, 'agent presence is not announced', 'Redis');
  }

  start(): void {
    this.timer = setInterval(() => void this.announce([...this.held]), this.options.refreshMs);
    this.timer.unref();
  }

  added(agentKey: string): void {
    void this.announce([agentKey]);
  }

  removed(agentKey: string): void {
    void this.announce([agentKey]);
  }

  updated(agentKey: string, _link: AgentLink): void {
    void this.announce([agentKey]);
  }

  /** The instances holding agents of the connection now. */
  holders(agentKey: string): Promise<PresenceEntry[]> {
    return readPresence(this.options.redis, this.options.keyPrefix, agentKey);
  }

  /** Withdraws every announcement of this instance (it is stopping); agents leaving after this are not announced. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const keys = [...this.held];
    this.held.clear();
    if (!keys.length) return;
    const pipeline = this.options.redis.pipeline();
    for (const agentKey of keys) pipeline.hdel(this.key(agentKey), this.options.instanceId);
    await pipeline.exec().catch(() => {});
  }

  private key(agentKey: string): string {
    return presenceKey(this.options.keyPrefix, agentKey);
  }

  private async announce(agentKeys: string[]): Promise<void> {
    if (this.stopped) return;
    const pipeline = this.options.redis.pipeline();
    for (const agentKey of agentKeys) {
      if (this.options.exclude?.has(agentKey)) continue;
      const links = this.options.local.linksOf(agentKey);
      const key = this.key(agentKey);
      if (!links.length) {
        this.held.delete(agentKey);
        pipeline.hdel(key, this.options.instanceId);
        continue;
      }
      this.held.add(agentKey);
      const agents = links.map((l) => ({ host: l.agent.host, version: l.agent.version, draining: l.draining }));
      pipeline.hset(key, this.options.instanceId, JSON.stringify({ until: Date.now() + this.options.ttlMs, agents }));
      pipeline.pexpire(key, this.options.ttlMs);
    }
    try {
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error)?.[0];
      if (failed) throw failed;
      this.outage.succeeded();
    } catch (error) {
      this.outage.failed(error);
    }
  }
}

function presenceKey(keyPrefix: string, agentKey: string): string {
  return `${keyPrefix}:presence:${agentKey}`;
}

/**
 * The instances holding agents of the connection now, as every instance announced them: what a
 * reader without agents of its own (the operator CLI, another instance's dashboard) asks.
 */
export async function readPresence(redis: Redis, keyPrefix: string, agentKey: string): Promise<PresenceEntry[]> {
  const fields = await redis.hgetall(presenceKey(keyPrefix, agentKey));
  const now = Date.now();
  const entries: PresenceEntry[] = [];
  for (const [instanceId, text] of Object.entries(fields)) {
    const value = JSON.parse(text) as { until: number; agents: PresenceEntry['agents'] };
    if (value.until > now) entries.push({ instanceId, agents: value.agents });
  }
  return entries;
}
