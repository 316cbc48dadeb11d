import { z } from 'zod';
import {
  getEnvelopeSchema,
  listEnvelopeSchema,
  MAX_CURSOR_LENGTH,
  MAX_RECORD_ID_LENGTH,
  OBJECT_NAMES,
  OBJECTS,
  parseToolFilters,
  type ObjectName,
  type ObjectSpec,
} from '@gp-gateway/protocol';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { ApiError } from '../errors/apiError.ts';
import { documentFilter, type ReadTarget, type RecordReader } from '../reads/recordReader.ts';
import { jsonSchemaOf, parseArguments } from './arguments.ts';
import { pageWithinBudget } from './budget.ts';
import { CatalogueSchema, catalogueResult } from './catalogue.ts';
import { toolError, toolResult } from './results.ts';

/** A tool page (docs/api.md#mcp) holds at most 100 records; fewer by default, since a model pays for every one it reads. */
export const MCP_MAX_LIMIT = 100;
export const MCP_DEFAULT_LIMIT = 25;

/** What a tool call may use: one per HTTP request, so the key and headers are the request's. */
export interface ToolContext {
  reader: RecordReader;
  target: ReadTarget;
  requestId: string;
  /** Largest text of a result, in bytes (budget.ts). */
  budgetBytes: number;
  log: Logger;
}

const LIMIT_MESSAGE = `must be an integer from 1 to ${MCP_MAX_LIMIT}`;
const WITH_GET = OBJECT_NAMES.filter((name) => OBJECTS[name].idForm !== null) as [ObjectName, ...ObjectName[]];

function objectArgument(names: [ObjectName, ...ObjectName[]]) {
  return z.enum(names, {
    error: (issue) =>
      typeof issue.input === 'string' && Object.hasOwn(OBJECTS, issue.input)
        ? `${issue.input} has no get by id; list it with list_records and filters instead`
        : 'is not an object of this API; list_objects lists them',
  });
}

const CompanyArgument = z
  .string('must be a string')
  .min(1, 'must not be empty')
  .describe('Company database id, e.g. TWO. Default: the X-Company header, else the connection’s default company.');

const ListObjectsArguments = z.object({}).strict();

const ListRecordsArguments = z
  .object({
    object: objectArgument(OBJECT_NAMES).describe('The object to list, e.g. customers'),
    filters: z
      .record(z.string(), z.unknown(), 'must be an object of filters')
      .optional()
      .describe(
        'Filters of this object, as list_objects describes them, e.g. {"inactive": false, "q": "elec"}. Ids filter with "id": ["A", "B"].',
      ),
    limit: z
      .int(LIMIT_MESSAGE)
      .min(1, LIMIT_MESSAGE)
      .max(MCP_MAX_LIMIT, LIMIT_MESSAGE)
      .optional()
      .describe(`Most records to return; default ${MCP_DEFAULT_LIMIT}`),
    cursor: z
      .string('must be a string')
      .min(1, 'must not be empty')
      .max(MAX_CURSOR_LENGTH, 'is not a valid cursor')
      .optional()
      .describe('The nextCursor of the previous page, unchanged, with the same object, filters and company'),
    company: CompanyArgument.optional(),
  })
  .strict();

const GetRecordArguments = z
  .object({
    object: objectArgument(WITH_GET).describe('The object, e.g. customers'),
    id: z
      .string('must be a string')
      .min(1, 'must not be empty')
      .max(MAX_RECORD_ID_LENGTH, `must be at most ${MAX_RECORD_ID_LENGTH} characters`)
      .describe('The record’s id in the idForm list_objects gives, e.g. AARONFIT0001, AARONFIT0001:PRIMARY or invoice:STDINV2261'),
    company: CompanyArgument.optional(),
  })
  .strict();

const AnyRecord = z.looseObject({});
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** tools/list: the same for every caller, built once. */
export const TOOLS: Tool[] = [
  {
    name: 'list_objects',
    title: 'List objects',
    description:
      'Every object this API reads (customers, vendors, items, GL accounts and entries, receivables, payables, sales and purchase orders, …): its fields and their types, the filters list_records takes for it (JSON Schema), and the form of its id. Call it first.',
    inputSchema: jsonSchemaOf(ListObjectsArguments),
    outputSchema: jsonSchemaOf(CatalogueSchema, 'output'),
    annotations: { title: 'List objects', ...READ_ONLY },
  },
  {
    name: 'list_records',
    title: 'List records',
    description:
      `Records of one object in a stable order, as {"data": [...], "nextCursor": ...}. While nextCursor is not null, call again with cursor = nextCursor and the same object, filters and company for the next page. ` +
      `A page holds at most limit records (default ${MCP_DEFAULT_LIMIT}, at most ${MCP_MAX_LIMIT}) and at most 64 KiB of JSON, so it may hold fewer than limit while more follow. ` +
      'Money and quantities are decimal strings.',
    inputSchema: jsonSchemaOf(ListRecordsArguments),
    outputSchema: jsonSchemaOf(listEnvelopeSchema(AnyRecord), 'output'),
    annotations: { title: 'List records', ...READ_ONLY },
  },
  {
    name: 'get_record',
    title: 'Get a record',
    description:
      'One record by its id, as {"data": {...}}. Objects without get-by-id (gl-entries, fiscal-periods, lines) are listed with list_records instead.',
    inputSchema: jsonSchemaOf(GetRecordArguments),
    outputSchema: jsonSchemaOf(getEnvelopeSchema(AnyRecord), 'output'),
    annotations: { title: 'Get a record', ...READ_ONLY },
  },
];

/**
 * The target of one call. The `company` argument stands in for X-Company. A client's X-Company header
 * is not applied to objects outside the company databases (`companies`), where REST refuses it:
 * an MCP client sends the same headers with every call and must still be able to list companies.
 */
function targetFor(context: ToolContext, spec: ObjectSpec, company: string | undefined): ReadTarget {
  const headerCompany = spec.companyScoped ? context.target.headers.company : undefined;
  return { ...context.target, headers: { ...context.target.headers, company: company ?? headerCompany } };
}

/** A company problem names the `company` argument when that is where the company came from. */
async function namingCompanyArgument<T>(company: string | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const issues = error instanceof ApiError ? (error.details?.issues as { path: string; message: string }[] | undefined) : undefined;
    if (company === undefined || !issues?.some((i) => i.path === 'X-Company')) throw error;
    throw ApiError.validation(issues.map((i) => (i.path === 'X-Company' ? { ...i, path: 'company' } : i)));
  }
}

async function listObjects(_context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  parseArguments(ListObjectsArguments, raw);
  const { structured, text } = catalogueResult();
  return toolResult(structured, text);
}

async function listRecords(context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const args = parseArguments(ListRecordsArguments, raw);
  const spec: ObjectSpec = OBJECTS[args.object];
  const parsed = parseToolFilters(spec, args.filters ?? {});
  if (!parsed.ok) throw ApiError.validation(parsed.issues);
  const filters = spec.parent ? { ...parsed.value, ...documentFilter(String(parsed.value.documentId)) } : parsed.value;
  const page = await namingCompanyArgument(args.company, async () => {
    const list = await context.reader.openList(targetFor(context, spec, args.company), spec, filters, args.cursor ?? null);
    return pageWithinBudget(context.reader, list, args.limit ?? MCP_DEFAULT_LIMIT, context.budgetBytes);
  });
  return toolResult({ data: page.data, nextCursor: page.nextCursor }, page.text);
}

async function getRecord(context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  // Some clients send an id that looks like a number (GP ids may be digits only) as a JSON number.
  const args = parseArguments(GetRecordArguments, typeof raw?.id === 'number' ? { ...raw, id: String(raw.id) } : raw);
  const spec: ObjectSpec = OBJECTS[args.object];
  const bytes = await namingCompanyArgument(args.company, () => context.reader.get(targetFor(context, spec, args.company), spec, args.id));
  const payload = bytes.toString();
  return toolResult({ data: JSON.parse(payload) as unknown }, `{"data":${payload}}`);
}

type ToolHandler = (context: ToolContext, args: Record<string, unknown> | undefined) => Promise<CallToolResult>;
const HANDLERS: Readonly<Record<string, ToolHandler>> = { list_objects: listObjects, list_records: listRecords, get_record: getRecord };

/**
 * tools/call. An unknown tool is a protocol error (-32602), as the MCP spec has it; every failure of a
 * known tool is a tool error carrying the API's error code, never a protocol error.
 */
export async function callTool(context: ToolContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
  if (!handler) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
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
