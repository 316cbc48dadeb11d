import { z } from 'zod';
import { DateOnlySchema, DecimalStringSchema, filterToolSchema, OBJECTS, UtcTimestampSchema, type ObjectSpec } from '@gp-gateway/protocol';

/**
 * What `list_objects` answers: every object with its fields, its filters and the form of its id,
 * generated from the protocol's catalogue (OBJECTS), so it describes exactly what REST serves.
 * Field types are short names (legend in `types`); filters are the JSON Schema of the `filters`
 * argument of `list_records` for that object.
 */
type JsonSchema = { type?: string; pattern?: string; anyOf?: JsonSchema[]; [key: string]: unknown };

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonSchema;
const patternOf = (schema: z.ZodType) => toJsonSchema(schema, 'output').pattern;

const TYPE_LEGEND = {
  decimal: 'a decimal string such as "1250.00" (money and quantities are never JSON numbers)',
  date: 'a date YYYY-MM-DD',
  timestamp: 'a UTC timestamp such as 2026-03-01T14:05:09.123Z',
} as const;

const PATTERN_TYPES = new Map<string | undefined, keyof typeof TYPE_LEGEND>([
  [patternOf(DecimalStringSchema), 'decimal'],
  [patternOf(DateOnlySchema), 'date'],
  [patternOf(UtcTimestampSchema), 'timestamp'],
]);

function variantsOf(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ? schema.anyOf.flatMap(variantsOf) : [schema];
}

/** `string`, `decimal|null`, `timestamp|date|null`, … */
export function fieldType(schema: JsonSchema): string {
  const names = variantsOf(schema).map((v) => (v.type === 'string' ? (PATTERN_TYPES.get(v.pattern) ?? 'string') : String(v.type)));
  const unique = [...new Set(names.filter((n) => n !== 'null'))];
  return [...unique, ...(names.includes('null') ? ['null'] : [])].join('|');
}

function fieldsOf(spec: ObjectSpec): Record<string, string> {
  const properties = toJsonSchema(spec.resource, 'output').properties as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, fieldType(schema)]));
}

function filtersOf(spec: ObjectSpec): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = toJsonSchema(filterToolSchema(spec.filters), 'input');
  return schema;
}

function idFormOf(spec: ObjectSpec): string | null {
  if (!spec.idForm) return null;
  return spec.idForm.kind === 'plain' ? '<id>' : `<${spec.idForm.parts[0]}>:<${spec.idForm.parts[1]}>`;
}

export const ObjectDescriptionSchema = z.object({
  name: z.string(),
  description: z.string(),
  fields: z.record(z.string(), z.string()),
  filters: z.record(z.string(), z.unknown()),
  idForm: z.string().nullable(),
  companyScoped: z.boolean(),
  linesOf: z.string().nullable(),
});
export const CatalogueSchema = z.object({
  types: z.record(z.string(), z.string()),
  objects: z.array(ObjectDescriptionSchema),
});
export type Catalogue = z.infer<typeof CatalogueSchema>;

function describe(spec: ObjectSpec): z.infer<typeof ObjectDescriptionSchema> {
  return {
    name: spec.name,
    // The REST path in a lines object's description means nothing to an MCP client.
    description: spec.parent
      ? `${spec.description.split(';')[0]}; list them with filters.documentId = the ${spec.parent} id`
      : spec.description,
    fields: fieldsOf(spec),
    filters: filtersOf(spec),
    idForm: idFormOf(spec),
    companyScoped: spec.companyScoped,
    linesOf: spec.parent ?? null,
  };
}

let catalogue: { structured: Catalogue; text: string } | null = null;

/** Built on first use and kept: it depends on nothing but the protocol. */
export function catalogueResult(): { structured: Catalogue; text: string } {
  if (!catalogue) {
    const structured = { types: { ...TYPE_LEGEND }, objects: Object.values(OBJECTS as Record<string, ObjectSpec>).map(describe) };
    catalogue = { structured, text: JSON.stringify(structured) };
  }
  return catalogue;
}
