import { errorComponents, HEADERS } from './responses.ts';
import { objectTags, readParameters, readPaths, resourceSchemas } from './readOperations.ts';
import { otherPaths, otherSchemas } from './otherOperations.ts';
import { eventPaths, eventSchemas } from './eventOperations.ts';
import { webhookPaths, webhookSchemas } from './webhookOperations.ts';
import { writeOperations, type WritableObject } from './writeOperations.ts';
import { writeBodySchema } from '@gp-gateway/protocol';

/**
 * The objects `POST /v1/{object}` creates (the protocol's WRITABLE_OBJECT_NAMES), each with its body
 * schema from packages/protocol and an example body; the document grows a create operation per entry
 * (writeOperations.ts). Each example uses the demo's own ids, so that the sandbox accepts it with
 * `validateOnly=true` (routes.test.ts sends it).
 */
const WRITABLE: readonly WritableObject[] = [
  {
    object: 'customers',
    body: writeBodySchema('customers'),
    example: { id: 'API0001', name: 'Example Trading Ltd', paymentTermsId: 'NET 30', creditLimit: '5000.00' },
  },
  {
    object: 'customer-addresses',
    body: writeBodySchema('customer-addresses'),
    example: {
      customerId: 'AARONACA0001',
      code: 'WAREHOUSE',
      line1: '12 Harbour Road',
      city: 'Chicago',
      state: 'IL',
      postalCode: '60601',
      country: 'USA',
    },
  },
  {
    object: 'vendors',
    body: writeBodySchema('vendors'),
    example: { id: 'API0001', name: 'Example Supplies Inc', paymentTermsId: 'NET 30' },
  },
  {
    object: 'vendor-addresses',
    body: writeBodySchema('vendor-addresses'),
    example: {
      vendorId: 'AARONCHE0001',
      code: 'REMIT',
      line1: '400 Main Street',
      city: 'Fargo',
      state: 'ND',
      postalCode: '58102',
      country: 'USA',
    },
  },
  {
    object: 'sales-orders',
    body: writeBodySchema('sales-orders'),
    example: {
      docTypeId: 'STDORD',
      customerId: 'AARONACA0001',
      date: '2026-11-30',
      batchId: 'API',
      siteId: 'EAST',
      lines: [{ itemId: 'ACCS-10011-BK', quantity: '2', unitPrice: '14.95' }],
    },
  },
  {
    object: 'ar-invoices',
    body: writeBodySchema('ar-invoices'),
    example: {
      customerId: 'AARONACA0001',
      date: '2026-11-30',
      salesAmount: '1200.00',
      description: 'Consulting, November',
      batchId: 'API',
    },
  },
  {
    object: 'ap-invoices',
    body: writeBodySchema('ap-invoices'),
    example: { vendorId: 'AARONCHE0001', vendorDocumentNumber: 'INV-88123', date: '2026-11-30', purchasesAmount: '840.00', batchId: 'API' },
  },
  {
    object: 'gl-entries',
    body: writeBodySchema('gl-entries'),
    example: {
      reference: 'Accrual',
      date: '2026-11-30',
      batchId: 'API',
      lines: [
        { accountNumber: '000-1100-00', debit: '250.00' },
        { accountNumber: '000-1110-00', credit: '250.00' },
      ],
    },
  },
];

const API_VERSION = '1.0.0';

/**
 * The OpenAPI 3.1 document of the API, built from the protocol's catalogue and zod schemas. Pure and
 * deterministic: `pnpm openapi` writes it to docs/openapi.json, `GET /v1/openapi.json` serves it, and a
 * test fails when the two differ.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = { ...otherPaths(), ...eventPaths(), ...webhookPaths(), ...readPaths() };
  // `/v1/{object}` is both the list (GET) and the create (POST): one path item with both.
  for (const [path, item] of Object.entries(writeOperations(WRITABLE))) paths[path] = { ...(paths[path] as object), ...item };
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
      { name: 'events', description: 'The change feed: what changed in GP, read with a cursor that follows it.' },
      { name: 'webhooks', description: 'Webhook deliveries of the change feed, for monitoring them.' },
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
      schemas: { ...resourceSchemas(), ...eventSchemas(), ...webhookSchemas(), ...otherSchemas(), ...errors.schemas },
      responses: errors.responses,
    },
  };
}
