import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { busy } from './inFlightGate.ts';
import type { InFlightLimiter } from './inFlightLimiter.ts';
import { OutageNotice } from '../../infrastructure/outageNotice.ts';

export interface RedisInFlightLimiterOptions {
  redis: Redis;
  /** Holds slots while Redis cannot be reached (an InFlightGate: the cap per instance then). */
  fallback: InFlightLimiter;
  log: Logger;
  /** How long a request may wait for a free slot before it gets 429. */
  maxWaitMs: number;
  /** Requests that may wait per key on this instance; beyond this they get 429 at once. */
  maxWaiting: number;
  /** A slot not renewed for this long is free again: what an instance that died holds is lost this long at most. */
  leaseMs?: number;
  /** How often a waiting request tries again when no release on this instance woke it first. */
  pollMs?: number;
  keyPrefix?: string;
}

const DEFAULT_LEASE_MS = 15_000;
const DEFAULT_POLL_MS = 50;

/**
 * Takes a slot when fewer than `limit` unexpired leases exist: a sorted set per key, each member a
 * lease scored by when it expires, on Redis's clock (so instances' clocks do not matter).
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0`;

/** Pushes the expiry of leases still held (XX: one already expired is not brought back). */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0`;

interface Lease {
  key: string;
  id: string;
}

/**
 * The per-connection in-flight cap (docs/api.md#in-flight-cap) shared by every gateway instance.
 * Each slot is a lease in Redis that this instance renews while the request runs; an instance that
 * dies stops renewing, and its slots come free within `leaseMs` rather than leaking. A request
 * that finds the connection full waits up to `maxWaitMs`, trying again whenever a request on this
 * instance releases a slot of the key, or every `pollMs` for releases elsewhere, then gets 429.
 *
 * When Redis cannot be reached, slots are taken from `fallback` (the cap per instance) and the
 * outage is logged once; a lease whose release fails expires on its own.
 */
export class RedisInFlightLimiter implements InFlightLimiter {
  private readonly options: RedisInFlightLimiterOptions & { leaseMs: number; pollMs: number; keyPrefix: string };
  private readonly held = new Set<Lease>();
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly outage: OutageNotice;
  private readonly renewTimer: NodeJS.Timeout;

  constructor(options: RedisInFlightLimiterOptions) {
    this.options = { leaseMs: DEFAULT_LEASE_MS, pollMs: DEFAULT_POLL_MS, keyPrefix: 'gp', ...options };
    this.outage = new OutageNotice(options.log, 'the in-flight cap applies per instance');
    this.renewTimer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.options.leaseMs / 3)));
    this.renewTimer.unref();
  }

  async acquire(key: string, limit: number): Promise<() => void> {
    const redisKey = `${this.options.keyPrefix}:inflight:${key.replace(/\u0000/g, '|')}`;
    const lease: Lease = { key: redisKey, id: randomBytes(9).toString('base64url') };
    const first = await this.tryAcquire(lease, limit);
    if (first === 'fallback') return this.options.fallback.acquire(key, limit);
    if (first) return this.releaser(lease);
    const wakers = this.waiting.get(redisKey) ?? new Set<() => void>();
    if (wakers.size >= this.options.maxWaiting) throw busy(limit);
    this.waiting.set(redisKey, wakers);
    const deadline = Date.now() + this.options.maxWaitMs;
    try {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) throw busy(limit);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(left, this.options.pollMs));
          wakers.add(wake);
        });
        const got = await this.tryAcquire(lease, limit);
        if (got === 'fallback') return await this.options.fallback.acquire(key, limit);
        if (got) return this.releaser(lease);
      }
    } finally {
      if (wakers.size === 0 && this.waiting.get(redisKey) === wakers) this.waiting.delete(redisKey);
    }
  }

  /** Leases this instance holds now, for tests. */
  get heldCount(): number {
    return this.held.size;
  }

  stop(): void {
    clearInterval(this.renewTimer);
  }

  private async tryAcquire(lease: Lease, limit: number): Promise<boolean | 'fallback'> {
    try {
      const got = await this.options.redis.eval(ACQUIRE, 1, lease.key, lease.id, String(limit), String(this.options.leaseMs));
      this.outage.succeeded();
      if (got !== 1) return false;
      this.held.add(lease);
      return true;
    } catch (error) {
      this.outage.failed(error);
      return 'fallback';
    }
  }

  private releaser(lease: Lease): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held.delete(lease);
      this.options.redis.zrem(lease.key, lease.id).then(
        () => this.wakeOne(lease.key),
        // Not released in Redis: the lease expires within leaseMs on its own.
        () => this.wakeOne(lease.key),
      );
    };
  }

  private wakeOne(redisKey: string): void {
    const first = this.waiting.get(redisKey)?.values().next().value;
    first?.();
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const byKey = new Map<string, string[]>();
    for (const lease of this.held) byKey.set(lease.key, [...(byKey.get(lease.key) ?? []), lease.id]);
    const pipeline = this.options.redis.pipeline();
    for (const [key, ids] of byKey) pipeline.eval(RENEW, 1, key, String(this.options.leaseMs), ...ids);
    try {
      await pipeline.exec();
    } catch {
      // Redis is away: acquire() logs the outage; leases not renewed in time simply expire.
    }
  }
}
