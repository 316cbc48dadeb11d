import { ERROR_STATUS, type ErrorCode, type ValidationIssue } from '@gp-gateway/protocol';

/** The one error type route handlers throw; the error middleware turns it into the D6 envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | null;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> | null = null) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  static validation(issues: ValidationIssue[]): ApiError {
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return new ApiError('VALIDATION_ERROR', `Invalid request: ${summary}`, { issues });
  }
}
