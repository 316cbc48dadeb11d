import type { Logger } from 'pino';
import type { RateLimiter, RatePolicy } from '../limits/rateLimiter.ts';
import { InMemoryTokenBucketLimiter } from '../limits/tokenBucketLimiter.ts';

export interface RefusalThrottleOptions {
  /** What is refused, for the log: `API requests`, `agent upgrades`. */
  what: string;
  log: Logger;
  /** Refusals one address may have in a burst ... */
  limit?: number;
  /** ... refilled over this many seconds; past it, the address waits (429) without being looked up. */
  windowSeconds?: number;
  /**
   * Where the addresses' refusals are counted: in this process unless given. Several instances pass
   * the same shared limiter (Redis) and one `bucket` name, so that an address refused by all of them
   * is throttled after `limit` refusals in total, not `limit` per instance.
   */
  limiter?: RateLimiter;
  /** Names this kind of refusal in the limiter's keys (`api`, `agent`): kinds are counted apart. */
  bucket?: string;
  /** How often the refusals of each address are summed up in one log line. */
  logEveryMs?: number;
  /** Milliseconds, monotonic; for tests. */
  clock?: () => number;
}

interface Address {
  /** Refusals since the last summary, and of them those answered 429 without a look-up. */
  refused: number;
  throttled: number;
  reasons: Set<string>;
}

/** Addresses remembered at most, for the log and in the in-process buckets; past it, some are forgotten (they start over). */
const MAX_ADDRESSES = 10_000;

/**
 * Refusals of unauthenticated traffic per remote address: a bad or missing API key, an unknown
 * agent token. Each spends a token of the address's bucket; once it is empty, the address's bad
 * credentials are answered 429 with Retry-After instead of 401 until it refills, telling a client
 * that retries in a loop to back off. Valid credentials always pass (they never get here): an
 * address may be a NAT that good clients share with a broken one, and looking a key up costs
 * microseconds.
 *
 * The buckets are counted by a RateLimiter: in this process (bounded token buckets) by default, in
 * Redis when instances share it (limits/redisRateLimiter.ts, which counts here again while Redis is
 * unreachable). The log stays this process's own: it logs the first refusal of an address in each
 * period at once and the rest as one line per address at the end of it, so a flood of 3,000
 * refusals a second writes a line per address per period, not 3,000.
 */
export class RefusalThrottle {
  private readonly addresses = new Map<string, Address>();
  private readonly what: string;
  private readonly log: Logger;
  private readonly policy: RatePolicy;
  private readonly limiter: RateLimiter;
  private readonly bucket: string;
  private readonly timer: NodeJS.Timeout;

  constructor(options: RefusalThrottleOptions) {
    this.what = options.what;
    this.log = options.log;
    this.policy = { limit: options.limit ?? 30, windowSeconds: options.windowSeconds ?? 10 };
    this.limiter = options.limiter ?? new InMemoryTokenBucketLimiter(options.clock, { maxBuckets: MAX_ADDRESSES });
    this.bucket = options.bucket ?? 'refused';
    this.timer = setInterval(() => this.summarise(), options.logEveryMs ?? 10_000);
    this.timer.unref();
  }

  /**
   * The address's credentials were refused: spends one of its refusals. Resolves to 0 while it has
   * some left (answer as usual: 401), else the whole seconds until it has one again (answer 429 with
   * Retry-After).
   */
  async refused(address: string | undefined, reason: string): Promise<number> {
    const key = address ?? '';
    let entry = this.addresses.get(key);
    if (!entry) {
      // Only the log's counts are lost: the bucket lives in the limiter.
      if (this.addresses.size >= MAX_ADDRESSES) this.addresses.clear();
      entry = { refused: 0, throttled: 0, reasons: new Set() };
      this.addresses.set(key, entry);
    }
    entry.refused += 1;
    if (entry.reasons.size < 4) entry.reasons.add(reason);
    if (entry.refused === 1) this.log.warn({ remote: address, reason }, `${this.what} refused`);
    const decision = await this.limiter.take(`refusals:${this.bucket}:${key}`, this.policy);
    if (decision.allowed) return 0;
    entry.throttled += 1;
    return decision.retryAfterSeconds;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One line per address refused more than once since the last summary; the period's counts start over. */
  summarise(): void {
    for (const [address, entry] of this.addresses) {
      if (entry.refused > 1) {
        this.log.warn(
          { remote: address, refused: entry.refused, throttled: entry.throttled, reasons: [...entry.reasons] },
          `${this.what} refused repeatedly`,
        );
      }
    }
    this.addresses.clear();
  }
}
