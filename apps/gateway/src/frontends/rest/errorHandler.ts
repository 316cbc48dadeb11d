import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../../errors/apiError.ts';
import { errorBody } from '../../errors/errorBody.ts';

/** The error envelope with its status and Retry-After; `requestId` other than this request's only for a replayed refusal. */
export function sendError(res: Response, error: ApiError, requestId: string = res.locals.requestId as string): void {
  if (error.retryAfterSeconds !== null) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.locals.errorCode = error.code; // for the metrics (rest/requestMetrics.ts)
  res.locals.errorMessage = error.message; // for the request's page in usage (rest/accessLog.ts)
  // RFC 9110: a 401 says how to authenticate.
  if (error.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer realm="gp-gateway"');
  res.status(error.status).json(errorBody(error, requestId));
}

/**
 * The one place where errors become responses. ApiErrors carry their code; body-parser style errors
 * with a 4xx status become VALIDATION_ERROR; anything else is a bug: logged, and answered as a
 * 500 without stack trace or SQL.
 */
export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (error instanceof ApiError) return sendError(res, error);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(res, new ApiError('VALIDATION_ERROR', 'The request could not be read.'));
    }
    log.error({ err: error, requestId: res.locals.requestId, path: req.path }, 'unhandled error');
    sendError(res, new ApiError('INTERNAL_ERROR', 'Something went wrong on our side. Quote the request id when you contact support.'));
  };
}

export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError('NOT_FOUND', 'No such route.'));
}
