import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../../errors/apiError.ts';

/** Tool calls are a few hundred bytes; 64 KiB leaves room without reading megabytes for nothing. */
export const MAX_MCP_REQUEST_BYTES = 64 * 1024;

/**
 * Browsers send Origin; a page of another site must not drive a user's MCP client against us (DNS
 * rebinding, docs/api.md#mcp). Requests without Origin (every non-browser client) pass; so does the
 * gateway's own origin and each origin configured (MCP_ALLOWED_ORIGINS), `*` allowing any.
 */
export function checkOrigin(allowed: readonly string[]) {
  const anyOrigin = allowed.includes('*');
  const listed = new Set(allowed.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return (req: Request, _res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (origin === undefined || anyOrigin) return next();
    const normalised = origin.toLowerCase();
    // The gateway's own origin, whichever scheme a proxy in front of it terminates.
    const own = /^https?:\/\/([^/]+)$/.exec(normalised)?.[1] === req.headers.host?.toLowerCase();
    if (own || listed.has(normalised)) return next();
    throw new ApiError('FORBIDDEN', `Requests from the origin ${origin} may not use this MCP endpoint.`);
  };
}

/**
 * Read before authentication so that every refusal can name the JSON-RPC request it refuses; the
 * transport is then handed the parsed body. Only JSON bodies are read: others reach the transport,
 * which answers 415.
 */
export const readMcpBody = express.json({ limit: MAX_MCP_REQUEST_BYTES, type: 'application/json' });

/**
 * The transport answers 406 unless Accept lists both application/json and text/event-stream, and
 * real clients send `application/json` alone, any type, or `text/event-stream` alone. This endpoint
 * always answers JSON (never a stream), which each of them reads, so Accept is set to what the
 * transport wants. It reads the raw header list, hence rawHeaders.
 */
export function acceptAnyMcpClient(req: Request, _res: Response, next: NextFunction): void {
  const wanted = 'application/json, text/event-stream';
  const raw = req.rawHeaders.slice();
  let found = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'accept') {
      raw[i + 1] = wanted;
      found = true;
    }
  }
  if (!found) raw.push('Accept', wanted);
  req.rawHeaders = raw;
  req.headers.accept = wanted;
  next();
}

/** The id of the JSON-RPC request in a parsed body, or null (a batch, a notification, no body). */
function jsonRpcIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** JSON-RPC's code for a body that is not JSON, and the SDK's for refusals of the transport. */
const PARSE_ERROR = -32700;
const SERVER_ERROR = -32000;

/**
 * Refusals on /mcp before a tool runs (bad or missing key, missing scope, foreign origin, rate
 * limit, unreadable body) as MCP clients read them: the HTTP status and headers as on /v1 and a
 * JSON-RPC error body with the request's id. `data` carries the API error (code, request id,
 * retryAfterSeconds), and 401 says how to authenticate (WWW-Authenticate: Bearer): the Python SDK
 * reported a REST-shaped body as a generic -32603 and lost the retry time.
 */
export function mcpErrors(log: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    let apiError: ApiError;
    let rpcCode = SERVER_ERROR;
    if (error instanceof ApiError) apiError = error;
    else {
      const status = (error as { status?: unknown; type?: unknown }).status;
      if (typeof status !== 'number' || status < 400 || status >= 500) return next(error);
      const tooLarge = (error as { type?: unknown }).type === 'entity.too.large';
      rpcCode = tooLarge ? SERVER_ERROR : PARSE_ERROR;
      apiError = new ApiError(
        'VALIDATION_ERROR',
        tooLarge ? `The request body is larger than ${MAX_MCP_REQUEST_BYTES} bytes.` : 'Parse error: the request body is not valid JSON.',
      );
      log.debug({ requestId: res.locals.requestId, err: (error as Error).message }, 'mcp request body refused');
    }
    if (apiError.retryAfterSeconds !== null) res.setHeader('Retry-After', String(apiError.retryAfterSeconds));
    res.locals.errorCode = apiError.code; // for the metrics (rest/requestMetrics.ts)
    if (apiError.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer realm="gp-gateway"');
    const data = {
      code: apiError.code,
      requestId: res.locals.requestId,
      ...(apiError.details ? { details: apiError.details } : {}),
      ...(apiError.retryAfterSeconds !== null ? { retryAfterSeconds: apiError.retryAfterSeconds } : {}),
    };
    res
      .status(apiError.status)
      .json({ jsonrpc: '2.0', id: jsonRpcIdOf(req.body), error: { code: rpcCode, message: apiError.message, data } });
  };
}
