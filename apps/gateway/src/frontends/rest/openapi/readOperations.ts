import {
  getEnvelopeSchema,
  listEnvelopeSchema,
  MAX_IDS,
  MAX_RECORD_ID_LENGTH,
  MAX_SEARCH_LENGTH,
  OBJECTS,
  queryParamName,
  type FilterSpec,
  type ObjectSpec,
} from '@gp-gateway/protocol';
import { z } from 'zod';
import { idExampleOf } from '../../../core/reads/idExamples.ts';
import { DATE_FILTER_PATTERN, TIMESTAMP_FILTER_PATTERN } from './datePatterns.ts';
import { jsonSchemaOf, schemaRef, type JsonSchema } from './jsonSchema.ts';
import { pagingParameters } from './paging.ts';
import { AGENT_ERRORS, AUTHENTICATED_ERRORS, errorResponses, rateLimitHeaders } from './responses.ts';

/**
 * The read routes of docs/api.md (lists, gets, lines), one path per object of the protocol's catalogue,
 * so that each has its own typed filters, id form and response schema.
 */

/** Values of the filters a list requires, from the same sandbox rows. */
const REQUIRED_FILTER_EXAMPLES: Readonly<Record<string, string>> = { customerId: 'AARONACA0001', vendorId: 'AARONCHE0001' };

/** The JSON Schema of one filter as a query parameter, from its declaration in the protocol (filters.ts). */
function filterSchema(filter: FilterSpec): JsonSchema {
  switch (filter.kind) {
    case 'string':
      return { type: 'string', minLength: 1, maxLength: filter.maxLength };
    case 'search':
      return { type: 'string', minLength: 1, maxLength: MAX_SEARCH_LENGTH };
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer', minimum: -2147483648, maximum: 2147483647 };
    case 'enum':
      return { type: 'string', enum: [...filter.values] };
    case 'timestamp':
      return { type: 'string', pattern: TIMESTAMP_FILTER_PATTERN, examples: ['2026-03-01T14:05:09.123Z'] };
    case 'date':
      return { type: 'string', pattern: DATE_FILTER_PATTERN, examples: ['2025-03-31'] };
    case 'ids':
      // 129: the protocol's limit on one id of `id[]` (docs/api.md#size-limits), which it does not export.
      return { type: 'array', items: { type: 'string', minLength: 1, maxLength: 129 }, minItems: 1, maxItems: MAX_IDS };
  }
}

function filterDescription(filter: FilterSpec): string {
  switch (filter.kind) {
    case 'timestamp':
      return `${filter.description}: an ISO-8601 date-time (any offset, converted to UTC) or a date meaning its UTC midnight.`;
    case 'date':
      return `${filter.description}: a date YYYY-MM-DD (1900 to 9999), or a date-time of which only the date as written counts.`;
    case 'ids':
      return `${filter.description}; repeat the parameter: \`id[]=A&id[]=B\`.`;
    default:
      return `${filter.description}.`;
  }
}

function filterParameters(spec: ObjectSpec): unknown[] {
  return Object.entries(spec.filters)
    .filter(([, filter]) => !(filter.kind === 'string' && filter.fromPath))
    .map(([name, filter]) => {
      const required = filter.kind === 'string' && filter.required === true;
      return {
        name: queryParamName(name, filter),
        in: 'query',
        description: filterDescription(filter),
        required,
        schema: filterSchema(filter),
        ...(filter.kind === 'ids' ? { style: 'form', explode: true } : {}),
        ...(required && REQUIRED_FILTER_EXAMPLES[name] ? { example: REQUIRED_FILTER_EXAMPLES[name] } : {}),
      };
    });
}

const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** components.parameters: paging and the routing headers (docs/api.md#routing-headers). */
export function readParameters(): Record<string, unknown> {
  const [limit, cursor] = pagingParameters('Objects', 'the same filters and company');
  return {
    Limit: limit,
    Cursor: cursor,
    ConnectionId: {
      name: 'X-Connection-Id',
      in: 'header',
      description: 'The connection to read from. Required with a live key; a test key may leave it out or send `sandbox`.',
      schema: { type: 'string', minLength: 1 },
      examples: { sandbox: { value: 'sandbox', summary: 'the demo sandbox of test keys' } },
    },
    Company: {
      name: 'X-Company',
      in: 'header',
      description: "The company database (GP's INTERID, case-insensitive); the connection's default company when absent.",
      schema: { type: 'string', minLength: 1 },
      examples: { two: { value: 'TWO', summary: 'a sandbox company' } },
    },
  };
}

function routingParameters(spec: ObjectSpec): unknown[] {
  // `companies` reads GP's system database: X-Company is refused there.
  return spec.companyScoped ? [param('ConnectionId'), param('Company')] : [param('ConnectionId')];
}

const readSecurity = [{ bearerKey: ['read'] }];

function okResponse(description: string, schema: JsonSchema): unknown {
  return { description, headers: rateLimitHeaders(), content: { 'application/json': { schema } } };
}

const pascal = (words: string[]) => words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');

/** An English singular of the last word of an object's name: `customer-addresses` → `address`. */
function singular(word: string): string {
  if (word.endsWith('people')) return `${word.slice(0, -6)}person`;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|ch|sh|x)es$/.test(word)) return word.slice(0, -2);
  return word.replace(/s$/, '');
}

/** An object's name as words, in the singular: `customer-addresses` → `customer address`. */
function singularPhrase(spec: ObjectSpec): string {
  const words = spec.name.split('-');
  return [...words.slice(0, -1), singular(words.at(-1)!)].join(' ');
}

/** The name of an object's resource schema under components.schemas: `customers` → `Customer`. */
export function resourceSchemaName(spec: ObjectSpec): string {
  const words = spec.name.split('-');
  return pascal([...words.slice(0, -1), singular(words.at(-1)!)]);
}

export function resourceSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.values(OBJECTS as Record<string, ObjectSpec>).map((spec) => [resourceSchemaName(spec), jsonSchemaOf(spec.resource)]),
  );
}

/** The list envelope around a $ref to the resource: the protocol's envelope with the resource left out, then put back by reference. */
function listSchema(spec: ObjectSpec): JsonSchema {
  const envelope = jsonSchemaOf(listEnvelopeSchema(z.object({})));
  (envelope.properties as Record<string, JsonSchema>).data = { type: 'array', items: schemaRef(resourceSchemaName(spec)) };
  return envelope;
}

function getSchema(spec: ObjectSpec): JsonSchema {
  const envelope = jsonSchemaOf(getEnvelopeSchema(z.object({})));
  (envelope.properties as Record<string, JsonSchema>).data = schemaRef(resourceSchemaName(spec));
  return envelope;
}

function idExample(spec: ObjectSpec): string {
  return idExampleOf(spec) ?? 'ID';
}

function idParameter(spec: ObjectSpec, description: string): unknown {
  const form =
    spec.idForm?.kind === 'composite'
      ? `\`<${spec.idForm.parts.join('>:<')}>\`, split at the ${spec.idForm.splitAt} \`:\``
      : 'the `id` field';
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: `${description} (${form}); URL-encode it.`,
    schema: { type: 'string', minLength: 1, maxLength: MAX_RECORD_ID_LENGTH },
    example: idExample(spec),
  };
}

function listOperation(spec: ObjectSpec, lines: boolean): unknown {
  const parent = lines ? (OBJECTS as Record<string, ObjectSpec>)[spec.parent!]! : null;
  return {
    operationId: `list${pascal(spec.name.split('-'))}`,
    summary: lines ? `List the lines of one ${singularPhrase(parent!)}` : `List ${spec.name.replaceAll('-', ' ')}`,
    description: `${spec.description}. Paged with cursors (docs/api.md#lists-and-paging); filters combine with AND.`,
    tags: [parent?.name ?? spec.name],
    security: readSecurity,
    parameters: [
      ...(parent ? [idParameter(parent, 'The document whose lines to list')] : []),
      param('Limit'),
      param('Cursor'),
      ...filterParameters(spec),
      ...routingParameters(spec),
    ],
    responses: {
      '200': okResponse('A page of objects; nextCursor is null on the last page.', listSchema(spec)),
      ...errorResponses([...AUTHENTICATED_ERRORS, ...(parent ? [404] : []), ...AGENT_ERRORS]),
    },
  };
}

function getOperation(spec: ObjectSpec): unknown {
  return {
    operationId: `get${resourceSchemaName(spec)}`,
    summary: `Get one ${singularPhrase(spec)} by id`,
    description: `${spec.description}. The object exactly as a list shows it; 404 when no row has the id.`,
    tags: [spec.name],
    security: readSecurity,
    parameters: [idParameter(spec, 'The id'), ...routingParameters(spec)],
    responses: {
      '200': okResponse('The object.', getSchema(spec)),
      ...errorResponses([...AUTHENTICATED_ERRORS, 404, ...AGENT_ERRORS]),
    },
  };
}

/** paths for every read route: `/v1/{object}`, `/v1/{object}/{id}` where it has get-by-id, `/v1/{parent}/{id}/lines`. */
export function readPaths(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const spec of Object.values(OBJECTS as Record<string, ObjectSpec>)) {
    if (spec.parent) {
      paths[`/v1/${spec.parent}/{id}/lines`] = { get: listOperation(spec, true) };
      continue;
    }
    paths[`/v1/${spec.name}`] = { get: listOperation(spec, false) };
    if (spec.idForm) paths[`/v1/${spec.name}/{id}`] = { get: getOperation(spec) };
  }
  return paths;
}

/** One tag per top-level object, described by the catalogue. */
export function objectTags(): { name: string; description: string }[] {
  return Object.values(OBJECTS as Record<string, ObjectSpec>)
    .filter((spec) => !spec.parent)
    .map((spec) => ({ name: spec.name, description: `${spec.description}.` }));
}
