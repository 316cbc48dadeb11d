import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Every response carries X-Request-Id; errors repeat it in the body so support can find the log line. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = `req_${randomBytes(12).toString('base64url')}`;
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}
