import type { Logger } from 'pino';

export interface RefusalThrottleOptions {
  /** What is refused, for the log: `API requests`, `agent upgrades`. */
  what: string;
  log: Logger;
  /** Refusals one address may have in a burst ... */
  limit?: number;
  /** ... refilled over this many seconds; past it, the address waits (429) without being looked up. */
  windowSeconds?: number;
  /** How often the refusals of each address are summed up in one log line. */
  logEveryMs?: number;
  /** Milliseconds, monotonic; for tests. */
  clock?: () => number;
}

interface Address {
  tokens: number;
  at: number;
  /** Refusals since the last summary, and of them those answered 429 without a look-up. */
  refused: number;
  throttled: number;
  reasons: Set<string>;
}

/** Addresses remembered at most; past it the quietest half are forgotten (they start over, full). */
const MAX_ADDRESSES = 10_000;

/**
 * Refusals of unauthenticated traffic per remote address: a bad or missing API key, an unknown
 * agent token. Each spends a token of the address's bucket; once it is empty, the address's bad
 * credentials are answered 429 with Retry-After instead of 401 until it refills, telling a client
 * that retries in a loop to back off. Valid credentials always pass: an address may be a NAT that
 * good clients share with a broken one, and looking a key up costs microseconds.
 *
 * Logs the first refusal of an address in each period at once and the rest as one line per address
 * at the end of it, so a flood of 3,000 refusals a second writes a line per address per period, not
 * 3,000.
 */
export class RefusalThrottle {
  private readonly addresses = new Map<string, Address>();
  private readonly what: string;
  private readonly log: Logger;
  private readonly limit: number;
  private readonly perMs: number;
  private readonly clock: () => number;
  private readonly timer: NodeJS.Timeout;

  constructor(options: RefusalThrottleOptions) {
    this.what = options.what;
    this.log = options.log;
    this.limit = options.limit ?? 30;
    this.perMs = this.limit / ((options.windowSeconds ?? 10) * 1000);
    this.clock = options.clock ?? (() => performance.now());
    this.timer = setInterval(() => this.summarise(), options.logEveryMs ?? 10_000);
    this.timer.unref();
  }

  /**
   * The address's credentials were refused: spends one of its refusals. Returns 0 while it has some
   * left (answer as usual: 401), else the whole seconds until it has one again (answer 429 with
   * Retry-After).
   */
  refused(address: string | undefined, reason: string): number {
    const key = address ?? '';
    let entry = this.addresses.get(key);
    if (!entry) {
      if (this.addresses.size >= MAX_ADDRESSES) this.forgetQuietest();
      entry = { tokens: this.limit, at: this.clock(), refused: 0, throttled: 0, reasons: new Set() };
      this.addresses.set(key, entry);
    }
    this.refill(entry);
    entry.refused += 1;
    if (entry.reasons.size < 4) entry.reasons.add(reason);
    if (entry.refused === 1) this.log.warn({ remote: address, reason }, `${this.what} refused`);
    if (entry.tokens >= 1) {
      entry.tokens -= 1;
      return 0;
    }
    entry.throttled += 1;
    return Math.max(1, Math.ceil((1 - entry.tokens) / this.perMs / 1000));
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One line per address refused more than once since the last summary; full buckets are forgotten. */
  summarise(): void {
    for (const [address, entry] of this.addresses) {
      if (entry.refused > 1) {
        this.log.warn(
          { remote: address, refused: entry.refused, throttled: entry.throttled, reasons: [...entry.reasons] },
          `${this.what} refused repeatedly`,
        );
      }
      entry.refused = 0;
      entry.throttled = 0;
      entry.reasons.clear();
      this.refill(entry);
      if (entry.tokens >= this.limit) this.addresses.delete(address);
    }
  }

  private refill(entry: Address): void {
    const now = this.clock();
    entry.tokens = Math.min(this.limit, entry.tokens + (now - entry.at) * this.perMs);
    entry.at = now;
  }

  private forgetQuietest(): void {
    const byTokens = [...this.addresses].sort((a, b) => b[1].tokens - a[1].tokens);
    for (const [address] of byTokens.slice(0, byTokens.length / 2)) this.addresses.delete(address);
  }
}
