import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { UsageRecorder } from '../../core/usage/usageRecorder.ts';

/** `customers` of `/v1/customers/ABC`, `mcp` of `/mcp`: what a request was about, for usage. */
function objectOf(path: string): string {
  const segments = path.split('/', 3);
  return segments[1] === 'v1' ? (segments[2] ?? '') : (segments[1] ?? '');
}

/** The record a request named (`GET /v1/customers/ABC`: `ABC`), as the path holds it; null when none. */
function recordOf(method: string, path: string): string | null {
  const segments = path.split('/');
  if (method !== 'GET' || segments[1] !== 'v1' || segments.length !== 4 || !segments[3]) return null;
  try {
    return decodeURIComponent(segments[3]);
  } catch {
    return segments[3];
  }
}

/** What the request log keeps of a path and an error message at most: a page's worth, not a client's megabyte. */
const MAX_KEPT_PATH = 300;
const MAX_KEPT_MESSAGE = 500;

/**
 * One line per request: identifiers and timings, never headers (they hold keys), queries or bodies.
 * A request made with a key also counts in its organisation's usage. Requests refused for their
 * address's bad keys are left to the refusal throttle's summary lines (auth/refusalThrottle.ts).
 */
export function accessLog(log: Logger, usage: UsageRecorder | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    // Read now: routers mounted on a prefix (`/v1`) strip it from req.path while they handle the request.
    const path = req.path;
    res.on('finish', () => {
      if (res.locals.throttled) return;
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const key = res.locals.auth?.key;
      const requestId = res.locals.requestId as string;
      const traceId = res.locals.traceId as string | undefined; // when tracing (rest/requestTracing.ts)
      log.info({ requestId, method: req.method, path, status: res.statusCode, ms, key: key?.prefix, traceId }, 'request');
      // The connection, record, error and trace of the request, for the usage page's rows and a request's page.
      const detailOf = () => {
        const connectionId: unknown = res.locals.auth?.connection?.id;
        const recordId: unknown = res.locals.recordId ?? recordOf(req.method, path);
        const errorCode: unknown = res.locals.errorCode;
        const errorMessage: unknown = res.locals.errorMessage;
        const refused = res.statusCode >= 400;
        return {
          path: path.slice(0, MAX_KEPT_PATH),
          ...(typeof connectionId === 'string' ? { connectionId } : {}),
          ...(typeof recordId === 'string' ? { recordId: recordId.slice(0, 200) } : {}),
          ...(typeof errorCode === 'string' && refused ? { errorCode } : {}),
          ...(typeof errorMessage === 'string' && refused ? { errorMessage: errorMessage.slice(0, MAX_KEPT_MESSAGE) } : {}),
          ...(traceId ? { traceId } : {}),
        };
      };
      if (usage && key) {
        usage.record({
          orgId: key.orgId,
          at: new Date().toISOString(),
          keyId: key.id,
          keyPrefix: key.prefix,
          method: req.method,
          object: objectOf(path),
          status: res.statusCode,
          ms,
          requestId,
          ...detailOf(),
        });
      }
    });
    next();
  };
}
