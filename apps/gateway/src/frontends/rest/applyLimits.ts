import type { NextFunction, Request, Response } from 'express';
import type { LimitsLookup } from '../../core/limits/limitsLookup.ts';
import { rateLimitHeaders } from '../../core/limits/rateLimitHeaders.ts';
import type { RateLimiter } from '../../core/limits/rateLimiter.ts';
import { ApiError } from '../../errors/apiError.ts';

export interface ApplyLimitsOptions {
  limitsOf: LimitsLookup;
  limiter: RateLimiter;
}

/**
 * The organisation's limits for one authenticated request (docs/api.md#rate-limits), mounted right after `authenticate`
 * on `/v1` (and on `/mcp`): spends one request of the key's bucket, puts the quota headers on the
 * response whatever its status, refuses with 429 RATE_LIMITED when the bucket is empty, and hands
 * the organisation's limits on (res.locals.limits) for the in-flight cap.
 *
 * The bucket is the key's id, not its secret, so rotating a key does not refill it.
 */
export function applyLimits({ limitsOf, limiter }: ApplyLimitsOptions) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = res.locals.auth?.key;
    if (!key) throw new Error('applyLimits must be mounted after authenticate');
    const limits = await limitsOf(key.orgId);
    const policy = { limit: limits.requestsPerWindow, windowSeconds: limits.windowSeconds };
    const decision = await limiter.take(key.id, policy);
    for (const [name, value] of rateLimitHeaders(policy, decision)) res.setHeader(name, value);
    if (!decision.allowed) {
      throw new ApiError(
        'RATE_LIMITED',
        `Too many requests with this API key: at most ${policy.limit} per ${policy.windowSeconds} seconds. Retry after ${decision.retryAfterSeconds} s.`,
        null,
        { retryAfterSeconds: decision.retryAfterSeconds },
      );
    }
    res.locals.limits = limits;
    next();
  };
}
