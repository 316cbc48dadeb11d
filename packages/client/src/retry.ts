import { setTimeout as sleep } from 'node:timers/promises';
/** When 429 and 503 answers are retried (docs/api.md#rate-limits, docs/api.md#errors). */
export interface RetryOptions {
  /** Retries of one request at most; 3 unless given (0: never retry). */
  maxRetries?: number;
  /** The longest wait for one retry; an answer asking for longer is returned as it is. 30 s unless given. */
  maxRetryWaitMs?: number;
}

const RETRIED = new Set([429, 503]);

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date); 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 1000;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}

/**
 * A fetch that sends a request again after a 429 or 503, waiting what Retry-After says, a bounded
 * number of times. The request is cloned before each attempt, so a POST keeps its body and its
 * Idempotency-Key: the gateway sees one write, however often it is sent.
 */
export function retryingFetch(base: typeof fetch, { maxRetries = 3, maxRetryWaitMs = 30_000 }: RetryOptions = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await base(request.clone());
      if (!RETRIED.has(response.status) || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (wait > maxRetryWaitMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
