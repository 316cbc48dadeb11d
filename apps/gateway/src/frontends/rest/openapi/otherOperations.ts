import { RotateKeyBodySchema, RotatedKeySchema } from '@gp-gateway/protocol';
import { z } from 'zod';
import { jsonSchemaOf, schemaRef, type JsonSchema } from './jsonSchema.ts';
import { AUTHENTICATED_ERRORS, errorResponses, rateLimitHeaders, requestIdHeader } from './responses.ts';

/** The routes besides the reads: health, this document, key rotation and the MCP endpoint. */

/** JSON-RPC 2.0 as MCP carries it: the document describes the envelope; the tools are described by MCP itself (tools/list). */
const JsonRpcId = z.union([z.string(), z.number().int()]);
const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId.optional().describe('absent on notifications'),
  method: z.string().min(1).describe('initialize, tools/list, tools/call, notifications/initialized, …'),
  params: z.record(z.string(), z.unknown()).optional(),
});
const JsonRpcErrorSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z
    .object({ code: z.string(), requestId: z.string(), retryAfterSeconds: z.number().int().optional() })
    .partial()
    .describe('the API error code and request id of a refusal, and on 429 the seconds to wait')
    .optional(),
});
const JsonRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: JsonRpcId.nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: JsonRpcErrorSchema.optional(),
});

/** cluster/readiness.ts's ReadyReport. */
const ReadySchema = z
  .object({
    ready: z.boolean().describe('true when every check is `ok`'),
    checks: z
      .record(z.string(), z.string())
      .describe(
        'each dependency (`store`, and `redis`, `nats` when configured) `ok` or `unreachable: …`; `shutdown: draining` while the instance stops',
      ),
  })
  .strict();

export function otherSchemas(): Record<string, JsonSchema> {
  return {
    RotatedKey: jsonSchemaOf(RotatedKeySchema),
    Health: jsonSchemaOf(z.object({ ok: z.literal(true) }).strict()),
    Ready: jsonSchemaOf(ReadySchema),
    JsonRpcRequest: jsonSchemaOf(JsonRpcRequestSchema),
    JsonRpcResponse: jsonSchemaOf(JsonRpcResponseSchema),
  };
}

const jsonRpc = (description: string, headers: Record<string, unknown> = rateLimitHeaders()) => ({
  description,
  headers,
  content: { 'application/json': { schema: schemaRef('JsonRpcResponse') } },
});
const retryAfter = { $ref: '#/components/headers/RetryAfter' };

export function otherPaths(): Record<string, unknown> {
  return {
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Process health',
        description: 'Says the process is up, nothing about agents. No key.',
        tags: ['meta'],
        security: [],
        responses: {
          '200': { description: 'Up.', headers: requestIdHeader(), content: { 'application/json': { schema: schemaRef('Health') } } },
          ...errorResponses([400]),
        },
      },
    },
    '/ready': {
      get: {
        operationId: 'ready',
        summary: 'Instance readiness',
        description:
          'Whether this instance should be sent traffic, for a load balancer: its store, Redis and NATS (those configured) answer ' +
          'within a second each, and it is not stopping. No key. Says nothing about agents.',
        tags: ['meta'],
        security: [],
        responses: {
          '200': { description: 'Ready.', headers: requestIdHeader(), content: { 'application/json': { schema: schemaRef('Ready') } } },
          '503': {
            description: 'Not ready: a check is not `ok`; the same JSON says which.',
            headers: requestIdHeader(),
            content: { 'application/json': { schema: schemaRef('Ready') } },
          },
          ...errorResponses([400]),
        },
      },
    },
    '/v1/openapi.json': {
      get: {
        operationId: 'openApiDocument',
        summary: 'This OpenAPI document',
        description: 'The OpenAPI 3.1 document of the API, generated from the protocol schemas. No key.',
        tags: ['meta'],
        security: [],
        responses: {
          '200': {
            description: 'The document.',
            headers: requestIdHeader(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
                  required: ['openapi', 'info', 'paths'],
                },
              },
            },
          },
          ...errorResponses([400]),
        },
      },
    },
    '/v1/api-keys/{id}/rotate': {
      post: {
        operationId: 'rotateApiKey',
        summary: 'Rotate an API key',
        description:
          "Replaces the secret of a non-revoked key of the caller's organisation (the caller itself included). Without a body the old " +
          'secret fails at once; an optional body `{"overlap": "1h" | "24h" | "7d" | "now"}` keeps it working that long beside the new ' +
          'one, and the answer then says until when (`oldSecretWorksUntil`). The new secret is in this response only.',
        tags: ['api-keys'],
        security: [{ bearerKey: ['write'] }],
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The id of the key to rotate.',
            schema: { type: 'string', minLength: 1 },
            example: 'key_0123456789abcdef',
          },
        ],
        requestBody: {
          required: false,
          description: 'Optional: how long the old secret keeps working. Without a body, it fails at once.',
          content: { 'application/json': { schema: jsonSchemaOf(RotateKeyBodySchema, 'input'), example: { overlap: '24h' } } },
        },
        responses: {
          '200': {
            description: 'The key and its new secret (`Cache-Control: no-store`).',
            headers: { ...rateLimitHeaders(), 'Cache-Control': { description: 'no-store', schema: { type: 'string' } } },
            content: { 'application/json': { schema: schemaRef('RotatedKey') } },
          },
          ...errorResponses([...AUTHENTICATED_ERRORS, 404]),
        },
      },
    },
    '/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'The MCP endpoint',
        description:
          'Model Context Protocol over Streamable HTTP, stateless, answered as JSON: the tools `list_objects`, `list_records` and ' +
          '`get_record` (docs/api.md#mcp). Same keys (scope `mcp`), routing headers and rate limits as /v1. Refusals keep their ' +
          'HTTP status and carry a JSON-RPC error whose `data.code` is the API error code. Other methods than POST answer 405 ' +
          'with `Allow: POST`: the endpoint is stateless.',
        tags: ['mcp'],
        security: [{ bearerKey: ['mcp'] }],
        parameters: [{ $ref: '#/components/parameters/ConnectionId' }, { $ref: '#/components/parameters/Company' }],
        requestBody: {
          required: true,
          description: 'One JSON-RPC 2.0 message, at most 64 KiB.',
          content: { 'application/json': { schema: schemaRef('JsonRpcRequest') } },
        },
        responses: {
          '200': jsonRpc('The JSON-RPC response; tool failures are results with `isError: true`.'),
          '202': { description: 'A notification was accepted; no body.', headers: rateLimitHeaders() },
          '400': jsonRpc('The body is not JSON (-32700) or not JSON-RPC.', requestIdHeader()),
          '401': jsonRpc('No valid key or OAuth access token (with `WWW-Authenticate: Bearer`, naming the resource metadata).', {
            ...requestIdHeader(),
            'WWW-Authenticate': {
              description:
                'Bearer realm="gp-gateway", resource_metadata="<base>/.well-known/oauth-protected-resource/mcp" (RFC 9728), ' +
                'and error="invalid_token" for an expired or revoked token or one for another resource (docs/api.md#oauth)',
              schema: { type: 'string' },
            },
          }),
          '403': jsonRpc('The key lacks the mcp scope, or the Origin is not allowed.', requestIdHeader()),
          '413': jsonRpc('The body is over 64 KiB.', requestIdHeader()),
          '415': jsonRpc('The body was not sent as application/json.', requestIdHeader()),
          '429': jsonRpc('Rate limited; wait Retry-After seconds (also data.retryAfterSeconds).', {
            ...requestIdHeader(),
            'Retry-After': retryAfter,
          }),
          // A bug answers as on /v1: the error envelope, never a stack trace.
          ...errorResponses([500]),
        },
      },
    },
  };
}
