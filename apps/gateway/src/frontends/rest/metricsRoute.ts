import type { NextFunction, Request, Response } from 'express';
import { bearerToken } from '../../core/auth/bearer.ts';
import { sameDigest, sha256Hex } from '../../core/auth/secrets.ts';
import { ApiError } from '../../errors/apiError.ts';

export interface MetricsRouteOptions {
  /** SHA-256 (hex) of METRICS_TOKEN: the token itself is not kept. */
  tokenHash: string;
  render(): Promise<string>;
  contentType: string;
}

/**
 * `GET /metrics` on the public port (docs/operations.md#metrics), mounted only when METRICS_TOKEN is
 * set: Prometheus sends it as a bearer token; anything else is 401 in the error envelope, so the
 * metrics are never open to whoever reaches the API.
 */
export function metricsRoute({ tokenHash, render, contentType }: MetricsRouteOptions) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = bearerToken(req.headers.authorization);
    if (!token || !sameDigest(sha256Hex(token), tokenHash)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="gp-gateway metrics"');
      return next(new ApiError('UNAUTHORIZED', 'The metrics need the METRICS_TOKEN. Send it as: Authorization: Bearer <METRICS_TOKEN>.'));
    }
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await render());
  };
}
