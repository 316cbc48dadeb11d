import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiError } from '../../errors/apiError.ts';
import { errorBody } from '../../errors/errorBody.ts';

/** A tool's answer: the structured result, and the same JSON as text for clients that read only text. */
export function toolResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A failed call as a tool error (`isError`), never a protocol error: the model reads it and can act on
 * it. The text is the REST error body (docs/api.md#errors), so code, message, request id and issues read the same.
 * No structuredContent: a client checks structuredContent against the tool's output schema, which
 * describes success.
 */
export function toolError(error: ApiError, requestId: string): CallToolResult {
  const retry = error.retryAfterSeconds === null ? undefined : { retryAfterSeconds: error.retryAfterSeconds };
  return { content: [{ type: 'text', text: JSON.stringify(errorBody(error, requestId, retry)) }], isError: true };
}
