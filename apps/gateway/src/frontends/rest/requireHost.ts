import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../../errors/apiError.ts';

/**
 * Headers a request carries once, read one way. Node keeps the first of two `Host` or
 * `Authorization` headers and joins two of ours with a comma, so a request with two (one
 * organisation's key, then another's) would be answered for whichever one this process happens to
 * read, while a proxy in front may have read the other. Such a request is refused instead.
 */
const ONCE = ['Host', 'Authorization', 'X-Connection-Id', 'X-Company', 'Idempotency-Key', 'Content-Type'];
const ONCE_LOWER = new Map(ONCE.map((name) => [name.toLowerCase(), name]));

/** The first header of `rawHeaders` (names and values alternating) that is given more than once. */
function repeatedHeader(rawHeaders: readonly string[]): string | null {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = ONCE_LOWER.get(rawHeaders[i]!.toLowerCase());
    if (name === undefined) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/**
 * HTTP/1.1 requires Host (RFC 9112 3.2). Node refuses a request without one with a bare 400 unless
 * told not to (expressShapedServer.ts), so the refusal is made here, in the envelope with a request
 * id; and so is a request that gives Host, Authorization or a routing header twice.
 */
export function requireHost(req: Request, _res: Response, next: NextFunction): void {
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    throw new ApiError('VALIDATION_ERROR', 'The request has no Host header.', { issues: [{ path: 'Host', message: 'is required' }] });
  }
  const repeated = repeatedHeader(req.rawHeaders);
  if (repeated !== null) {
    throw new ApiError('VALIDATION_ERROR', `The request has more than one ${repeated} header.`, {
      issues: [{ path: repeated, message: 'must be given once' }],
    });
  }
  next();
}
