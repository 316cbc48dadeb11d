import type { ErrorCode } from '@gp-gateway/protocol';

/** An error the agent reports to the gateway as an error frame; its message is safe to show a client. */
export class AgentError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
