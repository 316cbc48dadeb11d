import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiError } from '../../errors/apiError.ts';
import { errorBody } from '../../errors/errorBody.ts';

/**
 * A tool's answer: its JSON once, as text. Hosts hand a model the text when there is any (Claude.ai,
 * ChatGPT, and the MCP guidance of SEP-2200), and the ones that prefer structuredContent (Claude Code)
 * fall back to the text when there is none; a result carrying both was paid for twice
 * (docs/decisions.md#mcp-endpoint).
 */
export function toolResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * A failed call as a tool error (`isError`), never a protocol error: the model reads it and can act on
 * it. The text is the REST error body (docs/api.md#errors), so code, message, request id and issues read the same.
 */
export function toolError(error: ApiError, requestId: string): CallToolResult {
  const retry = error.retryAfterSeconds === null ? undefined : { retryAfterSeconds: error.retryAfterSeconds };
  return { content: [{ type: 'text', text: JSON.stringify(errorBody(error, requestId, retry)) }], isError: true };
}
