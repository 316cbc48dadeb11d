import type { RateDecision, RateLimiter, RatePolicy } from './rateLimiter.ts';

interface Bucket {
  tokens: number;
  /** Clock reading (ms) when `tokens` was last brought up to date. */
  at: number;
  limit: number;
  perMs: number;
}

/** Refill arithmetic is in floating point; this keeps 0.9999999999 from counting as less than 1. */
const EPSILON = 1e-9;
const SWEEP_EVERY_MS = 60_000;

/**
 * Token buckets in process memory: each holds up to `limit` tokens and refills continuously at
 * `limit` per `windowSeconds`, so a client may burst to the limit and then sustain the average. A
 * bucket that would be full again is forgotten (it is the same as a new one), which keeps memory
 * bounded by the keys active within one window; `maxBuckets` bounds it outright where the keys are
 * chosen by strangers (remote addresses): past it, the fullest half is forgotten and starts over full.
 */
export class InMemoryTokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: () => number;
  private readonly maxBuckets: number;
  private lastSweep: number;

  /** `clock` in milliseconds; monotonic by default, so wall-clock jumps do not refill buckets. */
  constructor(clock: () => number = () => performance.now(), options: { maxBuckets?: number } = {}) {
    this.clock = clock;
    this.maxBuckets = options.maxBuckets ?? Infinity;
    this.lastSweep = clock();
  }

  async take(key: string, policy: RatePolicy): Promise<RateDecision> {
    const now = this.clock();
    this.sweep(now);
    const perMs = policy.limit / (policy.windowSeconds * 1000);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxBuckets) this.forgetFullest(now);
      bucket = { tokens: policy.limit, at: now, limit: policy.limit, perMs };
    }
    // A changed policy applies from now on; tokens above a lowered limit are dropped.
    bucket.tokens = Math.min(policy.limit, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    bucket.limit = policy.limit;
    bucket.perMs = perMs;
    this.buckets.set(key, bucket);
    const allowed = bucket.tokens + EPSILON >= 1;
    if (allowed) bucket.tokens = Math.max(0, bucket.tokens - 1);
    return {
      allowed,
      remaining: Math.floor(bucket.tokens + EPSILON),
      resetSeconds: secondsToRefill(policy.limit - bucket.tokens, perMs),
      retryAfterSeconds: allowed ? 0 : Math.max(1, secondsToRefill(1 - bucket.tokens, perMs)),
    };
  }

  async refund(key: string, policy: RatePolicy): Promise<void> {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(policy.limit, bucket.tokens + 1);
  }

  /** Buckets held in memory, for tests of the sweep. */
  get size(): number {
    return this.buckets.size;
  }

  /** Forgets the half of the buckets closest to full: they lose the least by starting over. */
  private forgetFullest(now: number): void {
    const byFullness = [...this.buckets].sort(
      ([, a], [, b]) => (b.tokens + (now - b.at) * b.perMs) / b.limit - (a.tokens + (now - a.at) * a.perMs) / a.limit,
    );
    for (const [key] of byFullness.slice(0, Math.ceil(byFullness.length / 2))) this.buckets.delete(key);
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * b.perMs >= b.limit) this.buckets.delete(key);
    }
  }
}

/** Whole seconds until `tokens` more have dripped into a bucket refilled at `perMs` tokens a millisecond. */
function secondsToRefill(tokens: number, perMs: number): number {
  return Math.max(0, Math.ceil(tokens / perMs / 1000 - EPSILON));
}
