import { ERROR_STATUS, ErrorBodySchema, type ErrorCode } from '@gp-gateway/protocol';
import { z } from 'zod';
import { jsonSchemaOf, schemaRef, type JsonSchema } from './jsonSchema.ts';

/**
 * The responses every operation shares: the error envelope, one schema per HTTP status whose `code`
 * lists only the codes that status carries (docs/api.md#error-codes, the protocol's ERROR_STATUS), and
 * the headers of docs/api.md#rate-limits. Built from the protocol's tables, so a code added there
 * appears here at its status.
 */

const WHEN: Readonly<Record<number, string>> = {
  400: 'A bad query parameter, filter value, cursor or routing header (details.issues names each).',
  401: 'No key, or a malformed, unknown or revoked one; `WWW-Authenticate: Bearer`. Carries no rate-limit headers.',
  403: 'The key lacks the scope the route needs.',
  404: 'No such route, object or record.',
  409: 'A write conflicts with an earlier one.',
  429: "The key's request budget is spent, or the connection's in-flight cap stayed full; wait Retry-After seconds.",
  500: 'A bug, or an agent that failed to answer; quote the request id.',
  502: "The connection's agent answered with data that is not valid.",
  503:
    'No agent of the connection is connected (CONNECTION_OFFLINE), or it cannot reach GP (ERP_UNAVAILABLE, with Retry-After), ' +
    "or the gateway's own database is down (SERVICE_UNAVAILABLE, with Retry-After; nothing was done).",
  504: "The agent did not answer within the gateway's deadline.",
};

function codesOfStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
}

/** Every status an error can have, in order. */
const ERROR_STATUSES = [...new Set(Object.values(ERROR_STATUS) as number[])].sort((a, b) => a - b);

export function errorSchemaName(status: number): string {
  return `Error${status}`;
}

function errorResponseName(status: number): string {
  return `Error${status}Response`;
}

/** The protocol's error envelope with `code` narrowed to the codes of one status. */
function errorBodyOfStatus(status: number): JsonSchema {
  const codes = codesOfStatus(status) as [ErrorCode, ...ErrorCode[]];
  const inner = ErrorBodySchema.shape.error.extend({ code: z.enum(codes) });
  return jsonSchemaOf(z.object({ error: inner }).strict());
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const stringHeader = (description: string) => ({ description, schema: { type: 'string' } });

export const HEADERS = {
  RequestId: stringHeader('The request id (`req_` and 16 characters); error bodies repeat it as requestId.'),
  RateLimitLimit: integerHeader("The size of the key's token bucket."),
  RateLimitRemaining: integerHeader('Whole requests left in the bucket.'),
  RateLimitReset: integerHeader('Seconds until the bucket is full again (relative, not a date).'),
  RateLimitPolicy: stringHeader('The same policy in the IETF draft form: `"default";q=<limit>;w=<window seconds>`.'),
  RateLimit: stringHeader('The same state in the IETF draft form: `"default";r=<remaining>;t=<reset seconds>`.'),
  RetryAfter: integerHeader('Whole seconds to wait before retrying (at least 1).'),
} as const;

const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** Headers of every response after authentication. */
export function rateLimitHeaders(): Record<string, unknown> {
  return {
    'X-Request-Id': header('RequestId'),
    'X-RateLimit-Limit': header('RateLimitLimit'),
    'X-RateLimit-Remaining': header('RateLimitRemaining'),
    'X-RateLimit-Reset': header('RateLimitReset'),
    'RateLimit-Policy': header('RateLimitPolicy'),
    RateLimit: header('RateLimit'),
  };
}

export function requestIdHeader(): Record<string, unknown> {
  return { 'X-Request-Id': header('RequestId') };
}

function errorResponse(status: number): Record<string, unknown> {
  // A 401 is answered before the key is known, so it has no quota to report (docs/api.md#rate-limits).
  const headers: Record<string, unknown> = status === 401 ? requestIdHeader() : rateLimitHeaders();
  // Inline, not a $ref: a reference may not carry `required` beside it.
  if (status === 401)
    headers['WWW-Authenticate'] = {
      description: 'How to authenticate: `Bearer realm="gp-gateway"`',
      schema: { type: 'string' },
      required: true,
    };
  if (status === 429) headers['Retry-After'] = { ...HEADERS.RetryAfter, required: true };
  if (status === 503) headers['Retry-After'] = header('RetryAfter');
  return {
    description: `${codesOfStatus(status).join(' or ')}: ${WHEN[status] ?? 'see docs/api.md#errors.'}`,
    headers,
    content: { 'application/json': { schema: schemaRef(errorSchemaName(status)) } },
  };
}

/**
 * components.schemas and components.responses for the error envelope, one of each per status that
 * the given paths answer (a component nobody uses is noise to a reader and to linters).
 */
export function errorComponents(paths: unknown): { schemas: Record<string, JsonSchema>; responses: Record<string, unknown> } {
  const text = JSON.stringify(paths);
  const schemas: Record<string, JsonSchema> = {};
  const responses: Record<string, unknown> = {};
  for (const status of ERROR_STATUSES) {
    // An operation may describe a status in its own words (the writes) and still use the shared body.
    const asResponse = text.includes(`"#/components/responses/${errorResponseName(status)}"`);
    if (!asResponse && !text.includes(`"#/components/schemas/${errorSchemaName(status)}"`)) continue;
    schemas[errorSchemaName(status)] = errorBodyOfStatus(status);
    if (asResponse) responses[errorResponseName(status)] = errorResponse(status);
  }
  return { schemas, responses };
}

/** References to the error responses of the given statuses, keyed by status. */
export function errorResponses(statuses: readonly number[]): Record<string, unknown> {
  const known = new Set(ERROR_STATUSES);
  return Object.fromEntries(
    statuses.filter((s) => known.has(s)).map((status) => [String(status), { $ref: `#/components/responses/${errorResponseName(status)}` }]),
  );
}

/**
 * The errors any route behind authentication and the rate limit can answer (the route's own come on
 * top); 503 because reading the key needs the gateway's store (SERVICE_UNAVAILABLE while it is down).
 */
export const AUTHENTICATED_ERRORS = [400, 401, 403, 429, 500, 503] as const;
/** The errors of a request that reaches an agent. */
export const AGENT_ERRORS = [502, 503, 504] as const;
