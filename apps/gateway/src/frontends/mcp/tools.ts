import { z } from 'zod';
import {
  MAX_CURSOR_LENGTH,
  MAX_RECORD_ID_LENGTH,
  OBJECT_NAMES,
  OBJECTS,
  parseToolFilters,
  type ObjectName,
  type ObjectSpec,
  type ValidationIssue,
} from '@gp-gateway/protocol';
import { ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../errors/apiError.ts';
import { documentFilter } from '../../core/reads/recordReader.ts';
import { jsonSchemaOf, parseArguments } from './arguments.ts';
import { pageWithinBudget } from './budget.ts';
import { idExampleOf } from '../../core/reads/idExamples.ts';
import { catalogueText } from './catalogue.ts';
import { nearestName } from './suggest.ts';
import { toolError, toolResult } from './results.ts';
import { createRecord, CREATE_RECORD_TOOL } from './createRecord.ts';
import { listEvents, LIST_EVENTS_TOOL } from './listEvents.ts';
import { CompanyArgument, namingCompanyArgument, recordIds, targetFor, type ToolContext } from './toolContext.ts';

export type { ToolContext } from './toolContext.ts';

/** A tool page (docs/api.md#mcp) holds at most 100 records; fewer by default, since a model pays for every one it reads. */
const MCP_MAX_LIMIT = 100;
const MCP_DEFAULT_LIMIT = 25;

const LIMIT_MESSAGE = `must be an integer from 1 to ${MCP_MAX_LIMIT}`;
const WITH_GET = OBJECT_NAMES.filter((name) => OBJECTS[name].idForm !== null) as [ObjectName, ...ObjectName[]];

function objectArgument(names: [ObjectName, ...ObjectName[]]) {
  return z.enum(names, {
    error: (issue) => {
      if (issue.input === undefined) return `is required: one of ${names.join(', ')}`;
      if (typeof issue.input !== 'string') return `must be the name of an object: one of ${names.join(', ')}`;
      if (Object.hasOwn(OBJECTS, issue.input)) return `${issue.input} has no get by id; list it with list_records and filters instead`;
      const meant = nearestName(issue.input, names);
      return meant
        ? `is not an object of this API; did you mean ${meant}? list_objects lists them`
        : `is not an object of this API; objects are ${names.join(', ')}`;
    },
  });
}

const ListObjectsArguments = z
  .object({ object: objectArgument(OBJECT_NAMES).optional().describe('One object to describe, e.g. customers; all of them when absent') })
  .strict();
/** As advertised: the names are what the tool answers, so the schema need not list them too. */
const ListObjectsAdvertised = z
  .object({
    object: z.string().optional().describe('One object to describe, e.g. customers (with its createFields if writable); all when absent'),
  })
  .strict();

const ListRecordsArguments = z
  .object({
    object: objectArgument(OBJECT_NAMES).describe('The object to list, e.g. customers'),
    filters: z
      .record(z.string(), z.unknown(), 'must be an object of filters, e.g. {"inactive": false}')
      .optional()
      .describe('As list_objects gives them, e.g. {"inactive": false, "q": "elec"} or {"id": ["A", "B"]}'),
    limit: z.int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(MCP_MAX_LIMIT, LIMIT_MESSAGE).optional().describe(`default ${MCP_DEFAULT_LIMIT}`),
    cursor: z
      .string('must be a string')
      .min(1, 'must not be empty')
      .max(MAX_CURSOR_LENGTH, 'is not a valid cursor')
      .optional()
      .describe('nextCursor of the previous page'),
    company: CompanyArgument.optional(),
  })
  .strict();

/**
 * What list_records and get_record advertise: `object` a plain string, not the enum of every name
 * (list_objects gives them, and a wrong one is answered with the nearest); every character of
 * tools/list is read by the model on every turn. The arguments are still checked with the enums.
 */
const advertised = (schema: z.ZodObject, description: string) => jsonSchemaOf(schema.extend({ object: z.string().describe(description) }));

const GetRecordArguments = z
  .object({
    object: objectArgument(WITH_GET).describe('The object, e.g. customers'),
    id: z
      .string('must be a string')
      .min(1, 'must not be empty')
      .max(MAX_RECORD_ID_LENGTH, `must be at most ${MAX_RECORD_ID_LENGTH} characters`)
      .describe('In the object’s idForm, e.g. AARONACA0001 or order:ORDST1050'),
    company: CompanyArgument.optional(),
  })
  .strict();

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The read tools: the same for every caller, built once. */
const TOOLS: Tool[] = [
  {
    name: 'list_objects',
    title: 'List objects',
    description:
      'Call it first: every object (customers, vendors, items, GL, receivables, payables, orders, …) or the one named, with its fields, filters and id form.',
    inputSchema: jsonSchemaOf(ListObjectsAdvertised),
    annotations: { title: 'List objects', ...READ_ONLY },
  },
  {
    name: 'list_records',
    title: 'List records',
    description:
      'A page of an object’s records, {data, nextCursor}: while nextCursor is not null, call again with it (same object, filters, company). ' +
      'At most limit records and 64 KiB, so fewer may come while more follow. Money and quantities are decimal strings.',
    inputSchema: advertised(ListRecordsArguments, 'The object to list, e.g. customers (list_objects names them)'),
    annotations: { title: 'List records', ...READ_ONLY },
  },
  {
    name: 'get_record',
    title: 'Get a record',
    description: 'One record by id, {data}; objects without an idForm are read with list_records.',
    inputSchema: advertised(GetRecordArguments, 'The object, e.g. customers (list_objects: those with an idForm)'),
    annotations: { title: 'Get a record', ...READ_ONLY },
  },
  LIST_EVENTS_TOOL,
];

async function listObjects(_context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const args = parseArguments(ListObjectsArguments, raw);
  return toolResult(catalogueText(args.object));
}

/** `filters` as an object, or as that object in a JSON string (which some clients send). */
function filtersArgument(raw: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (typeof raw?.filters !== 'string') return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.filters);
  } catch {
    return raw;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...raw, filters: parsed } : raw;
}

/** An unknown filter's issue lists the filters the object has. */
function withFilterNames(spec: ObjectSpec, issues: ValidationIssue[]): ValidationIssue[] {
  const names = Object.keys(spec.filters).join(', ');
  return issues.map((i) => (i.message === 'unknown filter' ? { ...i, message: `unknown filter; ${spec.name} filters are ${names}` } : i));
}

async function listRecords(context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const args = parseArguments(ListRecordsArguments, filtersArgument(raw));
  const spec: ObjectSpec = OBJECTS[args.object];
  const parsed = parseToolFilters(spec, args.filters ?? {});
  if (!parsed.ok) throw ApiError.validation(withFilterNames(spec, parsed.issues));
  const filters = spec.parent ? { ...parsed.value, ...documentFilter(String(parsed.value.documentId)) } : parsed.value;
  const page = await namingCompanyArgument(args.company, async () => {
    const list = await context.reader.openList(targetFor(context, spec, args.company), spec, filters, args.cursor ?? null);
    return pageWithinBudget(context.reader, list, args.limit ?? MCP_DEFAULT_LIMIT, context.budgetBytes, recordIds(spec));
  });
  return toolResult(page.text);
}

async function getRecord(context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  // Some clients send an id that looks like a number (GP ids may be digits only) as a JSON number.
  const args = parseArguments(GetRecordArguments, typeof raw?.id === 'number' ? { ...raw, id: String(raw.id) } : raw);
  const spec: ObjectSpec = OBJECTS[args.object];
  let bytes: Buffer;
  try {
    bytes = await namingCompanyArgument(args.company, () => context.reader.get(targetFor(context, spec, args.company), spec, args.id));
  } catch (error) {
    const example = idExampleOf(spec);
    if (!(error instanceof ApiError) || error.code !== 'NOT_FOUND' || !example || spec.idForm?.kind !== 'composite') throw error;
    const [first, second] = spec.idForm.parts;
    throw new ApiError(
      'NOT_FOUND',
      `No record of ${spec.name} has the id "${args.id}". Its ids have the form <${first}>:<${second}>, e.g. ${example}; list_records gives each record's id.`,
    );
  }
  const addId = recordIds(spec);
  if (!addId) {
    return toolResult(`{"data":${bytes.toString()}}`);
  }
  const data = addId(JSON.parse(bytes.toString()) as Record<string, unknown>);
  return toolResult(JSON.stringify({ data }));
}

type ToolHandler = (context: ToolContext, args: Record<string, unknown> | undefined) => Promise<CallToolResult>;
const HANDLERS: Readonly<Record<string, ToolHandler>> = {
  list_objects: listObjects,
  list_records: listRecords,
  get_record: getRecord,
  list_events: listEvents,
  create_record: createRecord,
};

/** tools/list for a key: the read tools, and create_record when the key also has the write scope (docs/api.md#mcp). */
export function toolsFor(scopes: readonly string[]): Tool[] {
  return scopes.includes('write') ? [...TOOLS, CREATE_RECORD_TOOL] : TOOLS;
}

/**
 * tools/call. An unknown tool is a protocol error (-32602), as the MCP spec has it; every failure of a
 * known tool is a tool error carrying the API's error code, never a protocol error.
 */
export async function callTool(context: ToolContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
  // Not an McpError, whose message would be prefixed with "MCP error -32602: " and then again by the client.
  if (!handler)
    throw Object.assign(
      new Error(
        `Unknown tool: ${name}; the tools are ${toolsFor(context.target.key.scopes)
          .map((t) => t.name)
          .join(', ')}`,
      ),
      {
        code: ErrorCode.InvalidParams,
      },
    );
  const started = performance.now();
  const object = typeof args?.object === 'string' && Object.hasOwn(OBJECTS, args.object) ? args.object : undefined;
  let code: string | undefined;
  try {
    return await handler(context, args);
  } catch (error) {
    if (!(error instanceof ApiError)) context.log.error({ err: error, requestId: context.requestId, tool: name }, 'mcp tool failed');
    const apiError =
      error instanceof ApiError
        ? error
        : new ApiError('INTERNAL_ERROR', 'Something went wrong on our side. Quote the request id when you contact support.');
    code = apiError.code;
    return toolError(apiError, context.requestId);
  } finally {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    context.log.info({ requestId: context.requestId, tool: name, object, ok: code === undefined, code, ms }, 'mcp tool call');
  }
}
