import type { z } from 'zod';
import { jsonSchemaOf } from './jsonSchema.ts';
import { AGENT_ERRORS, AUTHENTICATED_ERRORS, errorResponses, rateLimitHeaders } from './responses.ts';
import { resourceSchemaName } from './readOperations.ts';
import { OBJECTS, type ObjectSpec } from '@gp-gateway/protocol';

/** An object v1 creates (docs/api.md#writes), with the schema of the body that creates it. */
export interface WritableObject {
  object: string;
  body: z.ZodType;
  /** A body the sandbox accepts with `validateOnly=true`: the reference shows it and the route test sends it. */
  example: Record<string, unknown>;
}

/**
 * The operation `POST /v1/{object}` for each writable object. Writes are added to the document from
 * the protocol's write schemas: each entry pairs an object with its body schema from packages/protocol,
 * and this function describes the rest (Idempotency-Key, validateOnly, the answers) the same way for all.
 * The document passes no entries while the protocol declares no write body.
 */
export function writeOperations(writable: readonly WritableObject[]): Record<string, { post: unknown }> {
  const paths: Record<string, { post: unknown }> = {};
  for (const { object, body, example } of writable) {
    const spec = (OBJECTS as Record<string, ObjectSpec>)[object];
    if (!spec) throw new Error(`writeOperations: no object named ${object}`);
    const name = resourceSchemaName(spec);
    paths[`/v1/${object}`] = {
      post: {
        operationId: `create${name}`,
        summary: `Create ${object.replaceAll('-', ' ')}`,
        description: 'Creates one record in GP and answers it as read back from GP (docs/api.md#writes).',
        tags: [object],
        security: [{ bearerKey: ['write'] }],
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            description: 'Makes retries safe: the same key with the same body replays the first answer.',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
          {
            name: 'validateOnly',
            in: 'query',
            description: "Run every check, GP's included, and roll back, answering what would be created.",
            schema: { type: 'boolean', default: false },
          },
          { $ref: '#/components/parameters/ConnectionId' },
          { $ref: '#/components/parameters/Company' },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(body, 'input'), example } } },
        responses: {
          '201': {
            description: 'The record as read back from GP.',
            headers: rateLimitHeaders(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { data: { $ref: `#/components/schemas/${name}` } },
                  required: ['data'],
                  additionalProperties: false,
                },
              },
            },
          },
          ...errorResponses([...AUTHENTICATED_ERRORS, 404, 409, ...AGENT_ERRORS]),
        },
      },
    };
  }
  return paths;
}
