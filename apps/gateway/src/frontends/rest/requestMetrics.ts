import type { NextFunction, Request, Response } from 'express';
import type { GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';
import { routeTemplate } from './routeTemplate.ts';

/**
 * Reports each request to the metrics once its response is done (or its client gone): the route's
 * template (routeTemplate.ts; paths hold record ids, and labels must stay few), the status, and the
 * error envelope's code, which the error answers leave in `res.locals.errorCode`.
 */
export function requestMetrics(metrics: GatewayMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const done = metrics.requestStarted();
    res.once('close', () => {
      const code = typeof res.locals.errorCode === 'string' ? res.locals.errorCode : '';
      done({
        route: routeTemplate(req),
        method: req.method,
        status: res.headersSent ? res.statusCode : 0,
        code,
        replayed: res.getHeader('Idempotent-Replayed') === 'true',
        // applyLimits hands the organisation's limits on only once the key's quota allowed the request:
        // a 429 without them is the quota's, one with them the in-flight cap's (counted where it refuses).
        rateLimited: code === 'RATE_LIMITED' && res.locals.limits === undefined,
      });
    });
    next();
  };
}
