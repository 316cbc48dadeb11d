import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const ID_BYTES = 12;
/** Random bytes for this many ids are drawn at once: one call into the CSPRNG per request cost ~3% of the gateway's CPU. */
const IDS_PER_DRAW = 512;
let pool = Buffer.alloc(0);
let offset = 0;

/** `req_` and 16 base64url characters (96 random bits), unique enough to find one request in the logs. */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * IDS_PER_DRAW);
    offset = 0;
  }
  const id = `req_${pool.toString('base64url', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}

/** Every response carries X-Request-Id; errors repeat it in the body so support can find the log line. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const id = newRequestId();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}
