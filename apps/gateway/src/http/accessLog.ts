import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * One line per request: identifiers and timings, never headers (they hold keys) or bodies. Requests
 * refused for their address's bad keys are left to the refusal throttle's summary lines.
 */
export function accessLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    // Read now: routers mounted on a prefix (`/v1`) strip it from req.path while they handle the request.
    const path = req.path;
    res.on('finish', () => {
      if (res.locals.throttled) return;
      log.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          key: res.locals.auth?.key.prefix,
        },
        'request',
      );
    });
    next();
  };
}
