import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/apiError.ts';

/**
 * HTTP/1.1 requires Host (RFC 9112 3.2). Node refuses a request without one with a bare 400 unless
 * told not to (expressShapedServer.ts), so the refusal is made here, in the envelope with a request id.
 */
export function requireHost(req: Request, _res: Response, next: NextFunction): void {
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    throw new ApiError('VALIDATION_ERROR', 'The request has no Host header.', { issues: [{ path: 'Host', message: 'is required' }] });
  }
  next();
}
