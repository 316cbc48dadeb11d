import { z } from 'zod';
import { OBJECTS, WRITABLE_OBJECT_NAMES, writeBodySchema, type ObjectSpec, type ValidationIssue } from '@gp-gateway/protocol';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../errors/apiError.ts';
import { jsonSchemaOf, parseArguments } from './arguments.ts';
import { toolError, toolResult } from './results.ts';
import { CompanyArgument, namingCompanyArgument, recordIds, targetFor, type ToolContext } from './toolContext.ts';

const objectMessage = `is required: one of ${WRITABLE_OBJECT_NAMES.join(', ')}`;

const CreateRecordArguments = z
  .object({
    object: z
      .enum(WRITABLE_OBJECT_NAMES, {
        error: (issue) =>
          issue.input === undefined
            ? objectMessage
            : `${String(issue.input)} cannot be created; the objects create_record writes are ${WRITABLE_OBJECT_NAMES.join(', ')}`,
      })
      .describe('The object to create, e.g. customers'),
    fields: z
      .record(z.string(), z.unknown(), 'must be an object of the record’s fields')
      .describe('The record’s fields, as the input schema for the object gives them; money and quantities are decimal strings'),
    validateOnly: z
      .boolean('must be true or false')
      .optional()
      .describe('Run every check, GP’s included, and change nothing; answers what would be created. Default false'),
    idempotencyKey: z
      .string('must be a string')
      .optional()
      .describe(
        'Any unique string (1–255 printable characters) naming this create: calling again with the same key and fields returns the first answer instead of creating a second record. Use a new key for each new record, the same one when retrying',
      ),
    company: CompanyArgument.optional(),
  })
  .strict();

/**
 * The arguments' JSON Schema, with `fields` described per object: one variant per writable object,
 * its `fields` the JSON Schema of the same body schema REST validates with (docs/api.md#mcp).
 */
function inputSchema(): Tool['inputSchema'] {
  const base = jsonSchemaOf(CreateRecordArguments);
  const variants = WRITABLE_OBJECT_NAMES.map((name) => {
    const { $schema: _, ...fields } = z.toJSONSchema(writeBodySchema(name), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
    return { properties: { object: { const: name }, fields }, required: ['object', 'fields'] };
  });
  return { ...base, oneOf: variants };
}

const AnyRecord = z.looseObject({});

export const CREATE_RECORD_TOOL: Tool = {
  name: 'create_record',
  title: 'Create a record',
  description:
    `Creates one record in GP: ${WRITABLE_OBJECT_NAMES.join(', ')} (sales orders and journal entries with their lines). ` +
    'Answers {"data": the record as GP now holds it} (a journal entry: the array of its lines). A create never updates: an existing id is ALREADY_EXISTS. ' +
    'Try the fields with validateOnly: true first. Pass an idempotencyKey, and the same one when retrying after an error or a timeout, so that a retry never creates a second record.',
  inputSchema: inputSchema(),
  outputSchema: jsonSchemaOf(z.object({ data: z.union([AnyRecord, z.array(AnyRecord)]) }), 'output'),
  annotations: { title: 'Create a record', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** The writer's issues as MCP names them: body fields under `fields.`, the key as `idempotencyKey`. */
function asArguments(issues: ValidationIssue[]): ValidationIssue[] {
  return issues.map((i) => {
    if (i.path === 'Idempotency-Key') return { ...i, path: 'idempotencyKey' };
    if (i.path === 'body') return { ...i, path: 'fields' };
    if (i.path === 'X-Company' || i.path === 'X-Connection-Id' || i.path === 'company') return i;
    return { ...i, path: `fields.${i.path}` };
  });
}

/** `create_record` (docs/api.md#mcp): the REST write with MCP's arguments; a stored refusal is replayed as the same tool error. */
export async function createRecord(context: ToolContext, raw: Record<string, unknown> | undefined): Promise<CallToolResult> {
  if (!context.target.key.scopes.includes('write')) throw new ApiError('FORBIDDEN', 'This API key lacks the write scope.');
  const args = parseArguments(CreateRecordArguments, raw);
  const spec: ObjectSpec = OBJECTS[args.object];
  const result = await namingCompanyArgument(args.company, async () => {
    try {
      const place = context.writer.place({
        target: targetFor(context, spec, args.company),
        object: args.object,
        validateOnly: args.validateOnly ?? false,
      });
      return await context.writer.write(place, { body: args.fields, idempotencyKey: args.idempotencyKey, requestId: context.requestId });
    } catch (error) {
      const issues = error instanceof ApiError && error.code === 'VALIDATION_ERROR' ? (error.details?.issues as ValidationIssue[]) : null;
      if (issues) throw ApiError.validation(asArguments(issues));
      throw error;
    }
  });
  // A GP refusal (400, 409) is an answer, kept under the key: a replay is the same tool error.
  if (result.kind === 'refused') return toolError(result.error, result.requestId);
  const data = JSON.parse(result.record.toString()) as Record<string, unknown> | Record<string, unknown>[];
  const addId = recordIds(spec);
  const shown = addId && !Array.isArray(data) ? addId(data) : data;
  return toolResult({ data: shown }, JSON.stringify({ data: shown }));
}
