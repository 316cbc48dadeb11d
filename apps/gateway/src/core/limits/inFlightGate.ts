import { ApiError } from '../../errors/apiError.ts';
import type { InFlightLimiter } from './inFlightLimiter.ts';

export interface InFlightGateOptions {
  /** How long a request may wait for a free slot before it gets 429. */
  maxWaitMs: number;
  /** Requests that may wait per key; beyond this they get 429 at once. */
  maxWaiting: number;
}

interface Waiter {
  grant: (release: () => void) => void;
  timer: NodeJS.Timeout;
}

interface Slots {
  active: number;
  /** The most recent limit asked for, so a changed limit applies to the next grant. */
  limit: number;
  waiting: Waiter[];
}

/** Retry-After for a full connection: slots free as fast as the agent answers, so "soon". */
const RETRY_AFTER_SECONDS = 1;

/**
 * At most `limit` holders per key at once; the next ones wait in arrival order for a bounded time,
 * then are refused with 429 RATE_LIMITED. Protects a customer's SQL Server from a burst that the
 * per-key rate limit alone would let through (many keys, or slow queries).
 */
export class InFlightGate implements InFlightLimiter {
  private readonly slots = new Map<string, Slots>();
  private readonly options: InFlightGateOptions;

  constructor(options: InFlightGateOptions) {
    this.options = options;
  }

  acquire(key: string, limit: number): Promise<() => void> {
    const slots = this.slots.get(key) ?? { active: 0, limit, waiting: [] };
    slots.limit = limit;
    this.slots.set(key, slots);
    if (slots.active < limit && slots.waiting.length === 0) {
      slots.active += 1;
      return Promise.resolve(this.releaser(key, slots));
    }
    if (slots.waiting.length >= this.options.maxWaiting) return Promise.reject(busy(limit));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          slots.waiting.splice(slots.waiting.indexOf(waiter), 1);
          this.forgetIfIdle(key, slots);
          reject(busy(limit));
        }, this.options.maxWaitMs),
      };
      slots.waiting.push(waiter);
    });
  }

  /** Requests holding a slot for `key` now. */
  active(key: string): number {
    return this.slots.get(key)?.active ?? 0;
  }

  /** Requests waiting for a slot for `key` now. */
  waiting(key: string): number {
    return this.slots.get(key)?.waiting.length ?? 0;
  }

  private releaser(key: string, slots: Slots): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slots.active -= 1;
      while (slots.active < slots.limit && slots.waiting.length > 0) {
        const next = slots.waiting.shift()!;
        clearTimeout(next.timer);
        slots.active += 1;
        next.grant(this.releaser(key, slots));
      }
      this.forgetIfIdle(key, slots);
    };
  }

  private forgetIfIdle(key: string, slots: Slots): void {
    if (slots.active === 0 && slots.waiting.length === 0 && this.slots.get(key) === slots) this.slots.delete(key);
  }
}

/** The 429 for a connection whose slots stayed full (shared with the Redis limiter). */
export function busy(limit: number): ApiError {
  return new ApiError(
    'RATE_LIMITED',
    `This connection already has ${limit} request${limit === 1 ? '' : 's'} in flight, the most it takes at once. Retry shortly.`,
    null,
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );
}
