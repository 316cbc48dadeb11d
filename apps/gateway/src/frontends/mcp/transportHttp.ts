import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../../errors/apiError.ts';
import { InvalidAccessToken } from '../../core/oauth/authenticateMcp.ts';

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
 * DNS rebinding (the transport specification): a page of a site whose name resolves to this
 * machine's address reaches a gateway bound to loopback with its own Host header. With a list (by
 * default the loopback names when the gateway listens on loopback; MCP_ALLOWED_HOSTS otherwise),
 * any other Host is refused; an empty list allows any (a public gateway is reached by many names).
 */
export function checkHost(allowed: readonly string[]) {
  const listed = new Set(allowed.map((h) => h.toLowerCase()));
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!listed.size) return next();
    const host = (req.headers.host ?? '').toLowerCase();
    const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
    if (listed.has(host) || listed.has(name)) return next();
    throw new McpRefusal(
      'FORBIDDEN',
      `The Host ${JSON.stringify(host)} may not use this MCP endpoint (MCP_ALLOWED_HOSTS).`,
      SERVER_ERROR,
      403,
    );
  };
}

/**
 * One JSON-RPC message per POST. A batch (an array: JSON-RPC 2.0 allows them, MCP since 2025-06-18
 * does not) would run several calls on one request of the key's budget, so it is refused whole;
 * a body that is JSON but no JSON-RPC message is -32600 Invalid Request, as JSON-RPC names it.
 */
export function oneJsonRpcMessage(req: Request, _res: Response, next: NextFunction): void {
  const body: unknown = req.body;
  if (Array.isArray(body)) {
    throw new McpRefusal('VALIDATION_ERROR', 'Batches are not supported: send one JSON-RPC message per request.', INVALID_REQUEST);
  }
  const message = body as { jsonrpc?: unknown; method?: unknown; result?: unknown; error?: unknown } | null | undefined;
  const isMessage =
    message !== null &&
    typeof message === 'object' &&
    message.jsonrpc === '2.0' &&
    (typeof message.method === 'string' || 'result' in message || 'error' in message);
  // Not JSON at all (another Content-Type) is the transport's to answer (415).
  if (body !== undefined && !isMessage) {
    throw new McpRefusal('VALIDATION_ERROR', 'Invalid Request: the body is not a JSON-RPC 2.0 message.', INVALID_REQUEST);
  }
  next();
}

/**
 * Read before authentication so that every refusal can name the JSON-RPC request it refuses; the
 * transport is then handed the parsed body. Only JSON bodies are read: others reach the transport,
 * which answers 415.
 */
// Not strict: a JSON string or number is JSON, and is refused as no JSON-RPC message (-32600), not as unreadable.
export const readMcpBody = express.json({ limit: MAX_MCP_REQUEST_BYTES, type: 'application/json', strict: false });

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

/** JSON-RPC's codes for a body that is not JSON and one that is no request, and the SDK's for refusals of the transport. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;

/** A refusal of /mcp's own, with its JSON-RPC code, and its HTTP status where it is not the API code's. */
class McpRefusal extends ApiError {
  readonly rpcCode: number;
  readonly httpStatus: number | null;

  constructor(code: ApiError['code'], message: string, rpcCode: number, httpStatus: number | null = null) {
    super(code, message);
    this.rpcCode = rpcCode;
    this.httpStatus = httpStatus;
  }
}

/**
 * Refusals on /mcp before a tool runs (bad or missing key, missing scope, foreign origin, rate
 * limit, unreadable body) as MCP clients read them: the HTTP status and headers as on /v1 and a
 * JSON-RPC error body with the request's id. `data` carries the API error (code, request id,
 * retryAfterSeconds), and 401 says how to authenticate (WWW-Authenticate: Bearer): the Python SDK
 * reported a REST-shaped body as a generic -32603 and lost the retry time.
 */
export function mcpErrors(log: Logger, resourceMetadataUrl: () => string = () => '') {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    let apiError: ApiError;
    let rpcCode = SERVER_ERROR;
    let status: number | null = null;
    if (error instanceof McpRefusal) {
      apiError = error;
      rpcCode = error.rpcCode;
      status = error.httpStatus;
    } else if (error instanceof ApiError) apiError = error;
    else {
      const given = (error as { status?: unknown; type?: unknown }).status;
      if (typeof given !== 'number' || given < 400 || given >= 500) return next(error);
      const tooLarge = (error as { type?: unknown }).type === 'entity.too.large';
      rpcCode = tooLarge ? SERVER_ERROR : PARSE_ERROR;
      // 413 Content Too Large, as the transport itself answers one (RFC 9110).
      if (tooLarge) status = 413;
      apiError = new ApiError(
        'VALIDATION_ERROR',
        tooLarge ? `The request body is larger than ${MAX_MCP_REQUEST_BYTES} bytes.` : 'Parse error: the request body is not valid JSON.',
      );
      log.debug({ requestId: res.locals.requestId, err: (error as Error).message }, 'mcp request body refused');
    }
    if (apiError.retryAfterSeconds !== null) res.setHeader('Retry-After', String(apiError.retryAfterSeconds));
    res.locals.errorCode = apiError.code; // for the metrics (rest/requestMetrics.ts)
    res.locals.errorMessage = apiError.message; // for the request's page in usage (rest/accessLog.ts)
    if (apiError.code === 'UNAUTHORIZED') {
      // RFC 9728 5.1: an OAuth client discovers the authorization server from resource_metadata; RFC 6750 3.1: a bad token is invalid_token.
      const metadata = resourceMetadataUrl();
      const params = ['realm="gp-gateway"', ...(metadata ? [`resource_metadata="${metadata}"`] : [])];
      if (error instanceof InvalidAccessToken) params.push('error="invalid_token"');
      res.setHeader('WWW-Authenticate', `Bearer ${params.join(', ')}`);
    }
    const data = {
      code: apiError.code,
      requestId: res.locals.requestId,
      ...(apiError.details ? { details: apiError.details } : {}),
      ...(apiError.retryAfterSeconds !== null ? { retryAfterSeconds: apiError.retryAfterSeconds } : {}),
    };
    res
      .status(status ?? apiError.status)
      .json({ jsonrpc: '2.0', id: jsonRpcIdOf(req.body), error: { code: rpcCode, message: apiError.message, data } });
  };
}
