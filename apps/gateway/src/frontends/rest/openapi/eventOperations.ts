import { EVENT_OBJECT_NAMES, EVENT_TYPES, EventSchema } from '@gp-gateway/protocol';
import { TIMESTAMP_FILTER_PATTERN } from './datePatterns.ts';
import { pagingParameters } from './paging.ts';
import { jsonSchemaOf, schemaRef, type JsonSchema } from './jsonSchema.ts';
import { AUTHENTICATED_ERRORS, errorResponses, rateLimitHeaders } from './responses.ts';

/** `GET /v1/events` and `GET /v1/events/{id}` (docs/api.md#events): the change feed, read from the gateway's store. */

const readSecurity = [{ bearerKey: ['read'] }];
const nouns = [...new Set(EVENT_TYPES.map((t) => t.split('.')[0]!))];

export function eventSchemas(): Record<string, JsonSchema> {
  return { Event: jsonSchemaOf(EventSchema) };
}

export function eventPaths(): Record<string, unknown> {
  const ok = (description: string, schema: JsonSchema) => ({
    description,
    headers: rateLimitHeaders(),
    content: { 'application/json': { schema } },
  });
  return {
    '/v1/events': {
      get: {
        operationId: 'listEvents',
        summary: 'List events',
        description:
          'What changed in GP (records created, updated, deleted) and connections coming online or going offline, oldest ' +
          'first, kept 30 days. `nextCursor` is never null: pass it back to read what happened since; an empty page means ' +
          'nothing yet. The feed never skips an event that was stored late (docs/api.md#events).',
        tags: ['events'],
        security: readSecurity,
        parameters: [
          ...pagingParameters('Events'),
          {
            name: 'type',
            in: 'query',
            description: `Event types, or a noun's pattern such as \`customer.*\`; repeat the parameter for several. Nouns: ${nouns.join(', ')}.`,
            style: 'form',
            explode: true,
            schema: {
              type: 'array',
              maxItems: 50,
              items: { type: 'string', enum: [...EVENT_TYPES, ...nouns.map((n) => `${n}.*`)] },
            },
          },
          {
            name: 'object',
            in: 'query',
            description: 'Only events of this object.',
            schema: { type: 'string', enum: [...EVENT_OBJECT_NAMES] },
          },
          {
            name: 'connectionId',
            in: 'query',
            description: 'Only events of this connection.',
            schema: { type: 'string', minLength: 1, maxLength: 64 },
          },
          {
            name: 'company',
            in: 'query',
            description: "Only events of this company database (GP's INTERID, case-insensitive).",
            schema: { type: 'string', pattern: '^[A-Za-z0-9]{1,5}$' },
          },
          {
            name: 'since',
            in: 'query',
            description: 'Only events recorded at or after this time: an ISO-8601 date-time, or a date meaning its UTC midnight.',
            schema: { type: 'string', pattern: TIMESTAMP_FILTER_PATTERN, examples: ['2026-03-01T14:05:09.123Z'] },
          },
        ],
        responses: {
          '200': ok('A page of events, and the cursor to continue from.', {
            type: 'object',
            properties: { data: { type: 'array', items: schemaRef('Event') }, nextCursor: { type: 'string' } },
            required: ['data', 'nextCursor'],
            additionalProperties: false,
          }),
          ...errorResponses([...AUTHENTICATED_ERRORS]),
        },
      },
    },
    '/v1/events/{id}': {
      get: {
        operationId: 'getEvent',
        summary: 'Get one event by id',
        description: 'An event exactly as the feed lists it; 404 when the organisation has no event with the id (or it is past retention).',
        tags: ['events'],
        security: readSecurity,
        parameters: [
          { name: 'id', in: 'path', required: true, description: 'The event id, `evt_…`.', schema: { type: 'string', minLength: 1 } },
        ],
        responses: {
          '200': ok('The event.', {
            type: 'object',
            properties: { data: schemaRef('Event') },
            required: ['data'],
            additionalProperties: false,
          }),
          ...errorResponses([...AUTHENTICATED_ERRORS, 404]),
        },
      },
    },
  };
}
