import type { Express, RequestHandler } from 'express';
import { issuesOf, parseEventsQuery } from '@gp-gateway/protocol';
import { z } from 'zod';
import type { EventFeed } from '../../../core/events/eventFeed.ts';
import { ApiError } from '../../../errors/apiError.ts';

const NoQuery = z.object({}).strict();
/** Event ids are `evt_` and 16 base64url characters; anything much longer names no event. */
const MAX_EVENT_ID_LENGTH = 64;

/**
 * `GET /v1/events` and `GET /v1/events/{id}` (docs/api.md#events): the organisation's change feed,
 * read from the store, never from an agent. Mounted before `/v1/{object}`, which would take
 * `events` for an object.
 */
export function mountEventRoutes(app: Express, guards: RequestHandler[], { events }: { events: EventFeed }): void {
  app.get('/v1/events', ...guards, async (req, res) => {
    const query = parseEventsQuery(req.query as Record<string, unknown>);
    if (!query.ok) throw ApiError.validation(query.issues);
    res.json(await events.list(res.locals.auth!.key, query.value));
  });

  app.get('/v1/events/:id', ...guards, async (req, res) => {
    const query = NoQuery.safeParse(req.query);
    if (!query.success) throw ApiError.validation(issuesOf(query.error));
    const id = String(req.params.id);
    if (id.length > MAX_EVENT_ID_LENGTH) throw new ApiError('NOT_FOUND', 'No event has that id.');
    res.json({ data: await events.get(res.locals.auth!.key, id) });
  });
}
