/**
 * Per-key request quotas (docs/api.md#rate-limits) behind a small interface: in memory now, shared (Redis) once
 * several gateway instances serve one organisation. Async for that reason.
 */
export interface RatePolicy {
  /** Requests allowed per window, and the most allowed in one burst. */
  limit: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole requests left after this one. */
  remaining: number;
  /** Seconds until the quota is full again. */
  resetSeconds: number;
  /** Seconds until the next request would be allowed; 0 when this one was. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Spends one request of `bucket` under `policy`, or refuses it. */
  take(bucket: string, policy: RatePolicy): Promise<RateDecision>;
  /** Gives back one request taken from `bucket`: what counts only failures takes first, and refunds a success. */
  refund(bucket: string, policy: RatePolicy): Promise<void>;
}
