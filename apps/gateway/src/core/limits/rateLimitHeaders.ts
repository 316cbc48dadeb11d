import type { RateDecision, RatePolicy } from './rateLimiter.ts';

/** The name of the per-key policy in the IETF fields; one policy, so one stable name. */
const RATE_LIMIT_POLICY = 'default';

/**
 * The quota state of one response, twice: the widespread `X-RateLimit-*` trio (Reset in seconds
 * until the bucket is full, not an epoch) and the IETF pair of draft-ietf-httpapi-ratelimit-headers,
 * whose `t` is the same number. `Retry-After` belongs to 429 responses and is set with the error.
 */
export function rateLimitHeaders(policy: RatePolicy, decision: RateDecision): [string, string][] {
  return [
    ['X-RateLimit-Limit', String(policy.limit)],
    ['X-RateLimit-Remaining', String(decision.remaining)],
    ['X-RateLimit-Reset', String(decision.resetSeconds)],
    ['RateLimit-Policy', `"${RATE_LIMIT_POLICY}";q=${policy.limit};w=${policy.windowSeconds}`],
    ['RateLimit', `"${RATE_LIMIT_POLICY}";r=${decision.remaining};t=${decision.resetSeconds}`],
  ];
}
