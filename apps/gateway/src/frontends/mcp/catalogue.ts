import { z } from 'zod';
import {
  DateOnlySchema,
  DecimalStringSchema,
  MAX_IDS,
  MAX_SEARCH_LENGTH,
  OBJECTS,
  UtcTimestampSchema,
  writeBodySchema,
  writeSpec,
  type FilterSpec,
  type ObjectSpec,
  type WritableObjectName,
} from '@gp-gateway/protocol';
import { idExampleOf } from '../../core/reads/idExamples.ts';

/**
 * What `list_objects` answers: every object with its fields, its filters and the form of its id,
 * generated from the protocol's catalogue (OBJECTS), so it describes exactly what REST serves.
 * Field types are short names (legend in `types`); filters are one line each (describeFilter).
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
function fieldType(schema: JsonSchema): string {
  const names = variantsOf(schema).map((v) => (v.type === 'string' ? (PATTERN_TYPES.get(v.pattern) ?? 'string') : String(v.type)));
  const unique = [...new Set(names.filter((n) => n !== 'null'))];
  return [...unique, ...(names.includes('null') ? ['null'] : [])].join('|');
}

function fieldsOf(spec: ObjectSpec): Record<string, string> {
  const properties = toJsonSchema(spec.resource, 'output').properties as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, fieldType(schema)]));
}

/**
 * A filter in one line: its type, its bounds and what it means, e.g. `string ≤31: customer class id`
 * or `one of open|history: …`. The JSON Schema of every filter of every object made list_objects
 * 25 KB (about 6,000 tokens), most of it the same keywords again and again; what a model needs is
 * the type and the meaning.
 */
function describeFilter(filter: FilterSpec): string {
  switch (filter.kind) {
    case 'string':
      return `string ≤${filter.maxLength}${filter.required ? ', required' : ''}: ${filter.description}`;
    case 'search':
      return `string ≤${MAX_SEARCH_LENGTH}: ${filter.description}`;
    case 'ids':
      return `array of up to ${MAX_IDS} ids: ${filter.description}`;
    case 'enum':
      return `one of ${filter.values.join('|')}: ${filter.description}`;
    case 'timestamp':
      return `timestamp (or a date: its UTC midnight): ${filter.description}`;
    case 'date':
    case 'boolean':
    case 'integer':
      return `${filter.kind}: ${filter.description}`;
  }
}

function filtersOf(spec: ObjectSpec): Record<string, string> {
  return Object.fromEntries(Object.entries(spec.filters).map(([name, filter]) => [name, describeFilter(filter)]));
}

function idFormOf(spec: ObjectSpec): string | null {
  if (!spec.idForm) return null;
  return spec.idForm.kind === 'plain' ? '<id>' : `<${spec.idForm.parts[0]}>:<${spec.idForm.parts[1]}>`;
}

const ObjectDescriptionSchema = z.object({
  name: z.string(),
  description: z.string(),
  fields: z.record(z.string(), z.string()),
  filters: z.record(z.string(), z.string()),
  idForm: z.string().nullable(),
  idExample: z.string().nullable().optional(),
  companyScoped: z.boolean(),
  linesOf: z.string().nullable(),
  /** For one writable object asked by name: the JSON Schema of the fields create_record takes. */
  createFields: z.record(z.string(), z.unknown()).optional(),
});
const CatalogueSchema = z.object({
  types: z.record(z.string(), z.string()),
  objects: z.array(ObjectDescriptionSchema),
});
export type Catalogue = z.infer<typeof CatalogueSchema>;

/** The JSON Schema of an object's write body: the schema REST validates POST /v1/{object} with. */
function createFieldsOf(name: string): Record<string, unknown> | undefined {
  const spec = writeSpec(name);
  if (!spec) return undefined;
  const { $schema: _, ...schema } = z.toJSONSchema(writeBodySchema(name as WritableObjectName), {
    target: 'draft-7',
    io: 'input',
  }) as Record<string, unknown>;
  return schema;
}

function describe(spec: ObjectSpec, withCreateFields: boolean): z.infer<typeof ObjectDescriptionSchema> {
  const createFields = withCreateFields ? createFieldsOf(spec.name) : undefined;
  return {
    name: spec.name,
    // The REST path in a lines object's description means nothing to an MCP client.
    description: spec.parent
      ? `${spec.description.split(';')[0]}; list them with filters.documentId = the ${spec.parent} id`
      : spec.description,
    fields: fieldsOf(spec),
    filters: filtersOf(spec),
    idForm: idFormOf(spec),
    ...(idExampleOf(spec) ? { idExample: idExampleOf(spec) } : {}),
    companyScoped: spec.companyScoped,
    linesOf: spec.parent ?? null,
    ...(createFields ? { createFields } : {}),
  };
}

const catalogues = new Map<string, string>();

/** Every object, or the one named, as list_objects' text; built on first use and kept: it depends on nothing but the protocol. */
export function catalogueText(object?: string): string {
  const key = object ?? '';
  let text = catalogues.get(key);
  if (text === undefined) {
    const specs = Object.values(OBJECTS as Record<string, ObjectSpec>).filter((spec) => object === undefined || spec.name === object);
    // A body's schema only for the object asked by name: all eight would triple the answer.
    const catalogue: Catalogue = { types: { ...TYPE_LEGEND }, objects: specs.map((spec) => describe(spec, object !== undefined)) };
    text = JSON.stringify(catalogue);
    catalogues.set(key, text);
  }
  return text;
}
