import { z } from 'zod';

/** A JSON Schema object as OpenAPI 3.1 embeds it (JSON Schema draft 2020-12). */
export type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1, through zod's own converter: what a
 * response holds is described by the very schema the gateway and its tests validate with. `output`
 * describes what the API answers, `input` what it accepts (a request body); the `$schema` key is
 * dropped because the document's dialect says it.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema;
  return rest;
}

/** A reference to a schema under components/schemas. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}
