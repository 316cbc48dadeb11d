import { z } from 'zod';

/**
 * Every error code the API answers with (docs/api.md#errors), and the one HTTP status each maps to.
 * The gateway's error middleware reads this table; nothing else decides a status.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  IDEMPOTENCY_CONFLICT: 409,
  ALREADY_EXISTS: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  CONNECTION_OFFLINE: 503,
  ERP_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** One problem with a request: `path` names the parameter or header, `message` says what is wrong. */
export const ValidationIssueSchema = z.object({ path: z.string(), message: z.string() }).strict();
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

export const ErrorBodySchema = z
  .object({
    error: z
      .object({
        code: ErrorCodeSchema,
        message: z.string().min(1),
        requestId: z.string().optional(),
        details: z.record(z.string(), z.unknown()).nullable().optional(),
      })
      .strict(),
  })
  .strict();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
