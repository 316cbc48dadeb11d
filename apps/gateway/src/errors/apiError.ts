import { ERROR_STATUS, type ErrorCode, type ValidationIssue } from '@gp-gateway/protocol';

export interface ApiErrorOptions {
  /** Sent as Retry-After (seconds); for 429s, which must carry it (docs/api.md#errors, docs/api.md#rate-limits). */
  retryAfterSeconds?: number;
}

/**
 * Retry-After of 503 ERP_UNAVAILABLE: a lock or deadlock clears within seconds (a lock wait times out
 * after 5 s), and while GP's database is down a retry is answered at once, so a client may retry soon.
 */
const ERP_RETRY_AFTER_SECONDS = 5;

/**
 * Retry-After of 503 SERVICE_UNAVAILABLE: the gateway's own store is re-probed every half second
 * while it is down, so a retry after this long meets the store back as soon as it is.
 */
const SERVICE_RETRY_AFTER_SECONDS = 2;

const DEFAULT_RETRY_AFTER: Partial<Record<ErrorCode, number>> = {
  ERP_UNAVAILABLE: ERP_RETRY_AFTER_SECONDS,
  SERVICE_UNAVAILABLE: SERVICE_RETRY_AFTER_SECONDS,
};

/** The one error type route handlers throw; the error middleware turns it into the error envelope (docs/api.md#errors). */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | null;
  readonly retryAfterSeconds: number | null;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> | null = null, options: ApiErrorOptions = {}) {
    super(message);
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER[code] ?? null;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  static validation(issues: ValidationIssue[]): ApiError {
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return new ApiError('VALIDATION_ERROR', `Invalid request: ${summary}`, { issues });
  }
}

/**
 * The request never reached an answer because the agent went away (its socket dropped) or refused
 * it while shutting down. Nothing was answered, so a read may be sent to another agent of the
 * connection; the client sees 503 CONNECTION_OFFLINE when there is none.
 */
export class AgentLostError extends ApiError {
  /**
   * True when the link dropped while the agent had the request: it may have done the work (a write
   * may have committed). False when the request was never sent, or the agent refused it unstarted.
   */
  readonly dropped: boolean;

  constructor(message: string, dropped: boolean) {
    super('CONNECTION_OFFLINE', message);
    this.dropped = dropped;
  }
}

/**
 * The gateway's own store (PostgreSQL) cannot be reached: answered 503 SERVICE_UNAVAILABLE with
 * Retry-After at once while it is known down (store/engines/storeBreaker.ts), never a 500 after a
 * connection timeout. Nothing was done, so any request may be retried, on this instance or another.
 */
export class StoreUnavailableError extends ApiError {
  constructor() {
    super(
      'SERVICE_UNAVAILABLE',
      `The gateway cannot reach its database just now; nothing was done. Retry after ${SERVICE_RETRY_AFTER_SECONDS} s.`,
    );
  }
}
