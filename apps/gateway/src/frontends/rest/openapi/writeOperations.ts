import type { z } from 'zod';
import { jsonSchemaOf } from './jsonSchema.ts';
import { AGENT_ERRORS, AUTHENTICATED_ERRORS, errorResponses, errorSchemaName, rateLimitHeaders } from './responses.ts';
import { resourceSchemaName } from './readOperations.ts';
import { OBJECTS, type ObjectSpec } from '@gp-gateway/protocol';

/** An object v1 creates (docs/api.md#writes), with the schema of the body that creates it. */
export interface WritableObject {
  object: string;
  body: z.ZodType;
  /** A body the sandbox accepts with `validateOnly=true`: the reference shows it and the route test sends it. */
  example: Record<string, unknown>;
}

const REPLAYED = {
  description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key; absent otherwise.',
  schema: { type: 'string', enum: ['true'] },
};

/** The sandbox's validate-only answer: the body as checked, with the ids and numbers GP would assign. */
const PREVIEW = {
  type: 'object',
  description: 'The sandbox preview: the body as checked, with the ids and numbers GP would give it.',
  additionalProperties: true,
};

const dataOf = (schema: Record<string, unknown>) => ({
  type: 'object',
  properties: { data: schema },
  required: ['data'],
  additionalProperties: false,
});

/** An error response of a write, with its own description; the body is the shared envelope of its status. */
function writeError(status: number, description: string): Record<string, unknown> {
  const headers = { ...rateLimitHeaders(), ...(status === 409 || status === 400 ? { 'Idempotent-Replayed': REPLAYED } : {}) };
  return { description, headers, content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaName(status)}` } } } };
}

/**
 * The operation `POST /v1/{object}` for each writable object. Writes are added to the document from
 * the protocol's write schemas: each entry pairs an object with its body schema from packages/protocol,
 * and this function describes the rest (Idempotency-Key, validateOnly, the answers) the same way for all.
 */
export function writeOperations(writable: readonly WritableObject[]): Record<string, { post: unknown }> {
  const paths: Record<string, { post: unknown }> = {};
  for (const { object, body, example } of writable) {
    const spec = (OBJECTS as Record<string, ObjectSpec>)[object];
    if (!spec) throw new Error(`writeOperations: no object named ${object}`);
    const name = resourceSchemaName(spec);
    const resource = { $ref: `#/components/schemas/${name}` };
    const record = object === 'gl-entries' ? { type: 'array', items: resource, minItems: 1 } : resource;
    paths[`/v1/${object}`] = {
      post: {
        operationId: `create${name}`,
        summary: `Create ${object.replaceAll('-', ' ')}`,
        description:
          'Creates one record in GP through the agent and answers it as read back from GP (docs/api.md#writes). With the same ' +
          'Idempotency-Key and body, a retry within 24 hours answers the first answer again, with `Idempotent-Replayed: true`.',
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
          '200': {
            description:
              'validateOnly=true: every check passed and nothing changed. `data` is what would be created. A live connection ' +
              'answers the record as GP would hold it (gl-entries: its lines). The sandbox (test keys) answers a preview instead, ' +
              'for every object one JSON object: the body as checked, with the ids and numbers GP would give it (canonical ' +
              'payment terms, the next document or voucher number, totals), not the full record.',
            headers: rateLimitHeaders(),
            content: { 'application/json': { schema: dataOf({ anyOf: [record, PREVIEW] }) } },
          },
          '201': {
            description:
              object === 'gl-entries'
                ? 'The journal entry as read back from GP: an array of its lines (GlEntry), one per account.'
                : 'The record as read back from GP.',
            headers: { ...rateLimitHeaders(), 'Idempotent-Replayed': REPLAYED },
            content: { 'application/json': { schema: dataOf(record) } },
          },
          ...errorResponses([...AUTHENTICATED_ERRORS, 404, 409, ...AGENT_ERRORS]),
          '400': writeError(
            400,
            'The body, validateOnly, Idempotency-Key or a routing header is wrong, or GP refused the record (a reference that does not exist, an unbalanced entry): details.issues names each field. A GP refusal sent with an Idempotency-Key is kept and replayed like a 201.',
          ),
          '403': writeError(
            403,
            "FORBIDDEN: the key lacks the write scope; a test key without validateOnly=true (the sandbox is read-only); the object is read-only, or not on the connection's write whitelist; or the customer's IT has writes turned off on the agent.",
          ),
          '409': writeError(
            409,
            'ALREADY_EXISTS: GP already has a record with this id (kept and replayed under its Idempotency-Key); or IDEMPOTENCY_CONFLICT: the Idempotency-Key is still running (details.reason `in_flight`) or was used with another request in the last 24 hours (`body_mismatch`).',
          ),
        },
      },
    };
  }
  return paths;
}
