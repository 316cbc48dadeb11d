import type { ErrorCode } from '@gp-gateway/protocol';

/** An error the agent reports to the gateway as an error frame; its message is safe to show a client. */
export class AgentError extends Error {
  readonly code: ErrorCode;
  /** What the agent's own log says beyond the client-safe message (e.g. the database's words). */
  readonly detail: string | null;

  /** The error envelope's `details`, for the client: a refused write's `issues` or GP's `gp` codes. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, detail: string | null = null, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.details = details;
  }
}
