import { errorComponents, HEADERS } from './responses.ts';
import { objectTags, readParameters, readPaths, resourceSchemas } from './readOperations.ts';
import { otherPaths, otherSchemas } from './otherOperations.ts';
import { writeOperations, type WritableObject } from './writeOperations.ts';

/**
 * The objects `POST /v1/{object}` creates, each with its body schema from packages/protocol
 * (`writeBodySchema(object)`) and an example body; the document grows a create operation per entry
 * (writeOperations.ts). Empty while the gateway serves no write route: every documented operation
 * must be served (routes.test.ts), and every served route documented.
 */
export const WRITABLE: readonly WritableObject[] = [];

export const API_VERSION = '1.0.0';

/**
 * The OpenAPI 3.1 document of the API, built from the protocol's catalogue and zod schemas. Pure and
 * deterministic: `pnpm openapi` writes it to docs/openapi.json, `GET /v1/openapi.json` serves it, and a
 * test fails when the two differ.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths = { ...otherPaths(), ...readPaths(), ...writeOperations(WRITABLE) };
  const errors = errorComponents(paths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'GP gateway API',
      version: API_VERSION,
      summary: 'A JSON REST API and an MCP endpoint in front of Microsoft Dynamics GP.',
      description:
        "Reads of GP's company databases through the gateway and the customer's agent. Every request carries an API key as a " +
        'bearer token; a live key also names its connection with `X-Connection-Id`. Test keys (`lb_test_…`) read the demo ' +
        'sandbox. Lists are paged with opaque cursors; money and quantities are decimal strings. The full reference, with ' +
        'the reasons behind its rules, is docs/api.md in the repository.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'the gateway serving this document' }],
    security: [{ bearerKey: ['read'] }],
    tags: [
      { name: 'meta', description: 'The gateway itself: health and this document.' },
      { name: 'api-keys', description: 'Key rotation, the one key operation of the API.' },
      { name: 'mcp', description: 'The MCP endpoint for AI clients.' },
      ...objectTags(),
    ],
    paths,
    components: {
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key, `lb_live_…` or `lb_test_…`. Each operation lists the scope it needs (`read`, `write` or `mcp`); ' +
            'a key without it gets 403 FORBIDDEN.',
        },
      },
      parameters: readParameters(),
      headers: HEADERS,
      schemas: { ...resourceSchemas(), ...otherSchemas(), ...errors.schemas },
      responses: errors.responses,
    },
  };
}
