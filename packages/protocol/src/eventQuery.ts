import { z } from 'zod';
import { EVENT_OBJECT_NAMES, eventTypePatternProblem } from './changes.ts';
import { TimestampFilterSchema } from './filters.ts';
import { CursorSchema, DEFAULT_LIMIT, issuesOf, LimitSchema, type Parsed } from './queryParsing.ts';

/** What `GET /v1/events` (and MCP's list_events) is asked: filters, limit and cursor (docs/api.md#events). */
export interface EventsQuery {
  types: string[];
  object?: string;
  connectionId?: string;
  company?: string;
  since?: string;
  limit: number;
  cursor: string | null;
}

const EventsQuerySchema = z
  .object({
    type: z
      .union([z.string(), z.array(z.string()).max(50, 'may be given at most 50 times')])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .superRefine((patterns, ctx) => {
        for (const pattern of patterns) {
          const problem = eventTypePatternProblem(pattern);
          if (problem) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(pattern.slice(0, 64))} ${problem}` });
        }
      })
      .optional(),
    object: z.enum(EVENT_OBJECT_NAMES, `must be one of: ${EVENT_OBJECT_NAMES.join(', ')}`).optional(),
    connectionId: z.string('must be given once').min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
    company: z
      .string('must be given once')
      .regex(/^[A-Za-z0-9]{1,5}$/, 'must be a company id (GP INTERID) of 1 to 5 letters or digits')
      .transform((c) => c.toUpperCase())
      .optional(),
    since: TimestampFilterSchema.optional(),
    limit: LimitSchema.optional(),
    cursor: CursorSchema.optional(),
  })
  .strict();

/** Validates the query of `GET /v1/events` (repeat `type` for several; `customer.*` names every customer event). */
export function parseEventsQuery(query: Record<string, unknown>): Parsed<EventsQuery> {
  const result = EventsQuerySchema.safeParse(query);
  if (!result.success) return { ok: false, issues: issuesOf(result.error) };
  const { type, limit, cursor, ...filters } = result.data;
  const value: EventsQuery = { types: type ?? [], limit: limit ?? DEFAULT_LIMIT, cursor: cursor ?? null };
  for (const [name, v] of Object.entries(filters)) if (v !== undefined) (value as unknown as Record<string, unknown>)[name] = v;
  return { ok: true, value };
}
