import type { ApiError } from './apiError.ts';

/** The error envelope (docs/api.md#errors), for REST responses and MCP tool errors alike. */
export interface ErrorBody {
  error: { code: string; message: string; requestId: string; details: Record<string, unknown> | null };
}

/**
 * The one place the error envelope is built. `requestId` is the request that met the error: the
 * current one, or for a replayed refusal the first (docs/api.md#idempotency). `extraDetails` are
 * what a front end without headers adds (MCP: the Retry-After seconds).
 */
export function errorBody(error: ApiError, requestId: string, extraDetails?: Record<string, unknown>): ErrorBody {
  const details = extraDetails ? { ...error.details, ...extraDetails } : error.details;
  return { error: { code: error.code, message: error.message, requestId, details } };
}
