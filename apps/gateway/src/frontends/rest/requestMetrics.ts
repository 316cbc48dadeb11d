import type { NextFunction, Request, Response } from 'express';
import type { GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';

/**
 * Reports each request to the metrics once its response is done (or its client gone): the route's
 * template, never its path (paths hold record ids, and labels must stay few), the status, and the
 * error envelope's code, which the error answers leave in `res.locals.errorCode`.
 *
 * The template is taken when the router matches a route: express sets `req.route` then, while
 * `req.baseUrl` is still that of the router holding it (`/dashboard`), which it is not by the time
 * an error has travelled back up to the app's error handler.
 */
export function requestMetrics(metrics: GatewayMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const done = metrics.requestStarted();
    let route: unknown;
    let template = 'unmatched';
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: { path?: unknown } | undefined) {
        route = value;
        if (value?.path !== undefined) template = `${req.baseUrl}${String(value.path)}`;
      },
    });
    res.once('close', () => {
      const code = typeof res.locals.errorCode === 'string' ? res.locals.errorCode : '';
      done({
        route: template,
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
