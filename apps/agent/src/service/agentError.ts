import type { ErrorCode } from '@gp-gateway/protocol';

/** An error the agent reports to the gateway as an error frame; its message is safe to show a client. */
export class AgentError extends Error {
  readonly code: ErrorCode;
  /** What the agent's own log says beyond the client-safe message (e.g. the database's words). */
  readonly detail: string | null;

  constructor(code: ErrorCode, message: string, detail: string | null = null) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}
