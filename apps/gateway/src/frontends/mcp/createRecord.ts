import { z } from 'zod';
import { OBJECTS, WRITABLE_OBJECT_NAMES, type ObjectSpec, type ValidationIssue } from '@gp-gateway/protocol';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../errors/apiError.ts';
import { createdRecordId } from '../../core/writes/writeAudit.ts';
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
      .describe('e.g. customers'),
    fields: z
      .record(z.string(), z.unknown(), 'must be an object of the record’s fields')
      .describe('Their schema: list_objects with the object (createFields); money as decimal strings'),
    validateOnly: z
      .boolean('must be true or false')
      .optional()
      .describe('Check everything, GP’s checks included, and change nothing. Default false'),
    idempotencyKey: z
      .string('must be a string')
      .optional()
      .describe('A new unique string (1–255 characters) per record, the same when retrying: a retry returns the first answer'),
    company: CompanyArgument.optional(),
  })
  .strict();

export const CREATE_RECORD_TOOL: Tool = {
  name: 'create_record',
  title: 'Create a record',
  description:
    'Creates one record in GP and answers it as GP holds it (never updates). Get the fields’ schema from list_objects, ' +
    'try with validateOnly: true, and retry with the same idempotencyKey: a retry never creates a second record.',
  // One plain object schema: hosts refuse oneOf, allOf and anyOf at the top of a tool's input (Anthropic's
  // API does), and the eight bodies' schemas were three quarters of tools/list; list_objects gives one on demand.
  inputSchema: jsonSchemaOf(CreateRecordArguments),
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
  if (result.kind === 'created') context.noteCreated(createdRecordId(args.object, result.record));
  const data = JSON.parse(result.record.toString()) as Record<string, unknown> | Record<string, unknown>[];
  const addId = recordIds(spec);
  const shown = addId && !Array.isArray(data) ? addId(data) : data;
  return toolResult(JSON.stringify({ data: shown }));
}
