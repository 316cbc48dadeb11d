import { z } from 'zod';
import type { ValidationIssue } from '@gp-gateway/protocol';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../errors/apiError.ts';

/**
 * The JSON Schema a tool advertises for its arguments (or its result), generated from the zod schema
 * that validates them. Draft-07, as the SDK's own tools use: every client validator understands it.
 * Without `$schema`: draft-07 is what MCP assumes, and every character of tools/list is read by the
 * model on every turn.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Tool['inputSchema'] {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
  return withoutStringKeyNames(jsonSchema) as Tool['inputSchema'];
}

/** zod writes `propertyNames: {type: "string"}` for every record, which JSON's keys are anyway. */
function withoutStringKeyNames(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutStringKeyNames);
  if (schema === null || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema).filter(
    ([key, value]) => !(key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}'),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutStringKeyNames(value)]));
}

function issueOf(issue: z.core.$ZodIssue): ValidationIssue {
  if (issue.code === 'unrecognized_keys') {
    return { path: issue.keys.join(', '), message: `unknown argument${issue.keys.length > 1 ? 's' : ''}` };
  }
  return { path: issue.path.map(String).join('.'), message: issue.message };
}

/**
 * Validates a tool's arguments; a failure is VALIDATION_ERROR naming each bad argument, as REST names
 * query parameters. An argument given as null counts as absent (models send null for "not given").
 */
export function parseArguments<T extends z.ZodType>(schema: T, raw: Record<string, unknown> | undefined): z.output<T> {
  const given = Object.fromEntries(Object.entries(raw ?? {}).filter(([, value]) => value !== null));
  const result = schema.safeParse(given);
  if (!result.success) throw ApiError.validation(result.error.issues.map(issueOf));
  return result.data;
}
