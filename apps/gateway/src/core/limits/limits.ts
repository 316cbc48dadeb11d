import type { LimitOverrides } from '../../infrastructure/store/store.ts';

/** The limits that apply to one organisation's requests (docs/api.md#rate-limits). */
export interface Limits {
  /** Size of each key's token bucket: requests allowed in a burst, and per window on average. */
  requestsPerWindow: number;
  /** Seconds an empty bucket takes to fill again. */
  windowSeconds: number;
  /** Requests in flight at once per connection; more wait briefly, then get 429. */
  maxInFlightPerConnection: number;
}

/** The defaults (docs/api.md#rate-limits): 100 requests per 10 s per key, 8 in flight per connection. */
export const DEFAULT_LIMITS: Limits = { requestsPerWindow: 100, windowSeconds: 10, maxInFlightPerConnection: 8 };

/** Bounds an operator may set, so a typo cannot switch limiting off or make a bucket that never refills. */
export const LIMIT_BOUNDS: Record<keyof Limits, { min: number; max: number }> = {
  requestsPerWindow: { min: 1, max: 1_000_000 },
  windowSeconds: { min: 1, max: 86_400 },
  maxInFlightPerConnection: { min: 1, max: 1_000 },
};

export function effectiveLimits(overrides: LimitOverrides, defaults: Limits): Limits {
  return {
    requestsPerWindow: overrides.requestsPerWindow ?? defaults.requestsPerWindow,
    windowSeconds: overrides.windowSeconds ?? defaults.windowSeconds,
    maxInFlightPerConnection: overrides.maxInFlightPerConnection ?? defaults.maxInFlightPerConnection,
  };
}
