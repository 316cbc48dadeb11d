import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { OutageNotice } from '../../infrastructure/outageNotice.ts';
import type { RateDecision, RateLimiter, RatePolicy } from './rateLimiter.ts';

export interface RedisRateLimiterOptions {
  redis: Redis;
  /** Counts requests while Redis cannot be reached (InMemoryTokenBucketLimiter). */
  fallback: RateLimiter;
  log: Logger;
  /** Prefix of the Redis keys; tests give each run its own. */
  keyPrefix?: string;
  /** What the outage log line says is counted in this process meanwhile. */
  meanwhile?: string;
}

/**
 * Per-key quotas shared by every gateway instance, counted in Redis by rate-limiter-flexible: at
 * most `limit` requests per fixed window of `windowSeconds` per key, the window starting at the
 * key's first request (one atomic INCR + PEXPIRE script per request). A Redis that cannot be
 * reached, or answers too slowly, does not fail requests: they are counted in this process until
 * it is back (each instance then allows the limit on its own), and the outage is logged once.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly options: RedisRateLimiterOptions;
  /** One limiter per policy (organisations may set their own); they share the keys, so a changed policy keeps what was spent. */
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private readonly outage: OutageNotice;

  constructor(options: RedisRateLimiterOptions) {
    this.options = options;
    this.outage = new OutageNotice(options.log, options.meanwhile ?? 'rate limits are counted in this process');
  }

  async take(bucket: string, policy: RatePolicy): Promise<RateDecision> {
    let result: RateLimiterRes;
    let allowed = true;
    try {
      result = await this.limiterFor(policy).consume(bucket, 1);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        this.outage.failed(error);
        return this.options.fallback.take(bucket, policy);
      }
      result = error;
      allowed = false;
    }
    this.outage.succeeded();
    const resetSeconds = Math.max(0, Math.ceil(result.msBeforeNext / 1000));
    return {
      allowed,
      remaining: Math.max(0, result.remainingPoints),
      resetSeconds,
      retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
    };
  }

  async refund(bucket: string, policy: RatePolicy): Promise<void> {
    try {
      await this.limiterFor(policy).reward(bucket, 1);
      this.outage.succeeded();
    } catch (error) {
      this.outage.failed(error);
      await this.options.fallback.refund(bucket, policy);
    }
  }

  private limiterFor(policy: RatePolicy): RateLimiterRedis {
    const id = `${policy.limit}/${policy.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.options.redis,
        keyPrefix: `${this.options.keyPrefix ?? 'gp'}:rate`,
        points: policy.limit,
        duration: policy.windowSeconds,
        // A Redis that is reconnecting fails the call at once (then the fallback counts it) rather than queueing it.
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
