import { z } from 'zod';
import { MAX_CURSOR_LENGTH, parseEventsQuery } from '@gp-gateway/protocol';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../errors/apiError.ts';
import { jsonSchemaOf, parseArguments } from './arguments.ts';
import { toolResult } from './results.ts';
import type { ToolContext } from './toolContext.ts';

/** A model pays for every event it reads: pages of 25 unless it asks for up to 100. */
const MCP_MAX_EVENTS = 100;
const MCP_DEFAULT_EVENTS = 25;
const LIMIT_MESSAGE = `must be an integer from 1 to ${MCP_MAX_EVENTS}`;

const ListEventsArguments = z
  .object({
    types: z
      .array(z.string('must be a string'), 'must be an array of event types, e.g. ["customer.*"]')
      .max(50)
      .optional()
      .describe('e.g. customer.created or customer.*; all when absent'),
    object: z.string('must be a string').optional().describe('Only events of this object, e.g. customers'),
    connectionId: z.string('must be a string').optional(),
    company: z.string('must be a string').optional().describe('e.g. TWO'),
    since: z.string('must be a string').optional().describe('ISO-8601 time: events recorded at or after it'),
    limit: z
      .int(LIMIT_MESSAGE)
      .min(1, LIMIT_MESSAGE)
      .max(MCP_MAX_EVENTS, LIMIT_MESSAGE)
      .optional()
      .describe(`default ${MCP_DEFAULT_EVENTS}`),
    cursor: z
      .string('must be a string')
      .min(1, 'must not be empty')
      .max(MAX_CURSOR_LENGTH, 'is not a valid cursor')
      .optional()
      .describe('nextCursor of the previous call, with the same filters'),
  })
  .strict();

export const LIST_EVENTS_TOOL: Tool = {
  name: 'list_events',
  title: 'List events',
  description:
    'What changed in GP, oldest first: {id, type (customer.updated, connection.online, …), connectionId, company, object, recordId, changedAt, recordedAt, data: the record}. ' +
    'nextCursor (never null) reads what happened since.',
  inputSchema: jsonSchemaOf(ListEventsArguments),
  annotations: { title: 'List events', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** list_events: the organisation's change feed, as `GET /v1/events` reads it, with the same checks and messages. */
export async function listEvents(context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const args = parseArguments(ListEventsArguments, raw);
  const { types, limit, ...rest } = args;
  const query = parseEventsQuery({
    ...rest,
    ...(types !== undefined && types.length ? { type: types } : {}),
    limit: String(limit ?? MCP_DEFAULT_EVENTS),
  });
  if (!query.ok) throw ApiError.validation(query.issues.map((i) => (i.path === 'type' ? { ...i, path: 'types' } : i)));
  const bound = context.boundConnectionId;
  if (bound !== null && query.value.connectionId !== undefined && query.value.connectionId !== bound) {
    throw ApiError.validation([{ path: 'connectionId', message: `this sign-in reaches the connection ${bound} only` }]);
  }
  const page = await context.events.list(context.target.key, bound === null ? query.value : { ...query.value, connectionId: bound });
  return toolResult(JSON.stringify(page));
}
