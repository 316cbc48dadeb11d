import { z } from 'zod';
import { textProblem, textRule } from './text.ts';

/**
 * The filter vocabulary of v1 (docs/api.md#filters). Each object declares its
 * filters with these kinds; the REST query schema, the gateway⇄agent wire schema and the MCP tool
 * schema are all derived from the same declaration, so they cannot drift apart.
 */
export type FilterSpec =
  /** `fromPath` filters are taken from the URL path (e.g. a document's lines), never from the query. */
  | { kind: 'string'; maxLength: number; required?: boolean; fromPath?: boolean; description: string }
  | { kind: 'search'; description: string }
  | { kind: 'boolean'; description: string }
  | { kind: 'integer'; description: string }
  | {
      kind: 'enum';
      values: readonly [string, ...string[]];
      description: string;
      /** Filters this one refuses beside one of its values (gl-entries `year=unposted` takes no dates), and why. */
      refuses?: { value: string; filters: readonly string[]; reason: string };
    }
  | { kind: 'timestamp'; description: string }
  | { kind: 'date'; description: string }
  | { kind: 'ids'; description: string };

export type FilterSpecs = Readonly<Record<string, FilterSpec>>;

export const MAX_SEARCH_LENGTH = 64;
export const MAX_IDS = 50;
const MAX_ID_LENGTH = 129;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * A date-time: a real time of day (24:00 is the end of the day, as JavaScript reads it) and an
 * offset from -14:00 to +14:00, as real zones have (openapi/datePatterns.ts says the same).
 */
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T(?:(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?|24:00(?::00(?:\.0{1,9})?)?)(?:Z|[+-](?:0\d|1[0-3]):[0-5]\d|[+-]14:00)$/;

function isRealDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 9999) return false;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
}

/** A date or date-time reduced to the calendar date as written: GP dates carry no time or zone. */
const DateFilterSchema = z.string().transform((text, ctx) => {
  const dateTime = DATE_TIME.exec(text);
  const date = dateTime ? dateTime[1]! : text;
  if (!isRealDate(date)) {
    ctx.addIssue({ code: 'custom', message: 'must be a date (YYYY-MM-DD, years 1900 to 9999) or an ISO-8601 date-time' });
    return z.NEVER;
  }
  return date;
});

/** A date-time (or a date, meaning its UTC midnight) normalised to UTC with milliseconds. */
export const TimestampFilterSchema = z.string().transform((text, ctx) => {
  const dateTime = DATE_TIME.exec(text);
  const valid = dateTime ? isRealDate(dateTime[1]!) : isRealDate(text);
  const parsed = valid ? new Date(dateTime ? text : `${text}T00:00:00Z`) : null;
  const utc = parsed && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : null;
  // In UTC it must still be a date of years 1900 to 9999 (9999-12-31T23:00-05:00 is not): the agent
  // validates the normalised value again, and a year past 9999 is not even an ISO date.
  if (utc === null || !isRealDate(utc.slice(0, 10))) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an ISO-8601 date-time from 1900-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, such as 2026-03-01T14:05:09.123Z',
    });
    return z.NEVER;
  }
  return utc;
});

const QueryInteger = z
  .string()
  .regex(/^-?\d{1,10}$/, 'must be an integer')
  .transform(Number)
  .refine((n) => Number.isSafeInteger(n) && n >= -2147483648 && n <= 2147483647, 'is out of range');

const QueryBoolean = z.enum(['true', 'false'], 'must be true or false').transform((v) => v === 'true');

/** A query parameter given more than once arrives as an array; only `id[]` may repeat. */
function single<T extends z.ZodType<unknown, string>>(schema: T) {
  return z.union([z.string(), z.array(z.string())]).pipe(z.string('must be given once').pipe(schema));
}

function queryParamSchema(spec: FilterSpec): z.ZodType {
  switch (spec.kind) {
    case 'string':
      return single(
        z
          .string()
          .min(1, 'must not be empty')
          .max(spec.maxLength, `must be at most ${spec.maxLength} characters`)
          .superRefine(textRule(textProblem)),
      );
    case 'search':
      return single(
        z
          .string()
          .min(1, 'must not be empty')
          .max(MAX_SEARCH_LENGTH, `must be at most ${MAX_SEARCH_LENGTH} characters`)
          .superRefine(textRule(textProblem)),
      );
    case 'boolean':
      return single(QueryBoolean);
    case 'integer':
      return single(QueryInteger);
    case 'enum':
      return single(z.enum(spec.values, `must be one of: ${spec.values.join(', ')}`));
    case 'timestamp':
      return single(TimestampFilterSchema);
    case 'date':
      return single(DateFilterSchema);
    case 'ids':
      return z
        .union([z.string(), z.array(z.string())])
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .pipe(
          z
            .array(
              z
                .string()
                .min(1, 'ids must not be empty')
                .max(MAX_ID_LENGTH, `ids must be at most ${MAX_ID_LENGTH} characters`)
                .superRefine(textRule(textProblem)),
            )
            // A query string cannot send no id at all; an MCP tool can (`id: []`).
            .min(1, 'give at least one id')
            .max(MAX_IDS, `at most ${MAX_IDS} ids`),
        );
  }
}

function wireValueSchema(spec: FilterSpec): z.ZodType {
  switch (spec.kind) {
    case 'string':
      return z.string().min(1).max(spec.maxLength);
    case 'search':
      return z.string().min(1).max(MAX_SEARCH_LENGTH);
    case 'boolean':
      return z.boolean();
    case 'integer':
      return z.number().int();
    case 'enum':
      return z.enum(spec.values);
    case 'timestamp':
      return z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    case 'date':
      return z.string().regex(DATE);
    case 'ids':
      return z.array(z.string().min(1).max(MAX_ID_LENGTH)).min(1).max(MAX_IDS);
  }
}

/**
 * A filter value as an MCP tool takes it: JSON types (booleans, integers, an array of ids) rather than
 * query strings. This is what tools advertise; the values are then validated by the REST query schema
 * itself (`parseToolFilters`), so the advertised form may describe a format that only validation checks.
 */
function toolValueSchema(spec: FilterSpec): z.ZodType {
  switch (spec.kind) {
    case 'string':
      return z.string().min(1).max(spec.maxLength).describe(spec.description);
    case 'search':
      return z.string().min(1).max(MAX_SEARCH_LENGTH).describe(spec.description);
    case 'boolean':
      return z.boolean().describe(spec.description);
    case 'integer':
      return z.int().min(-2147483648).max(2147483647).describe(spec.description);
    case 'enum':
      return z.enum(spec.values).describe(spec.description);
    case 'timestamp':
      return z.string().describe(`${spec.description}; an ISO-8601 date-time, or a date meaning its UTC midnight`);
    case 'date':
      return z.string().describe(`${spec.description}; a date YYYY-MM-DD (a date-time counts as the date written in it)`);
    case 'ids':
      return z.array(z.string().min(1).max(MAX_ID_LENGTH)).min(1).max(MAX_IDS).describe(`fetch specific ids, at most ${MAX_IDS}`);
  }
}

/**
 * One strict object over an object's filters: each filter's value schema, optional unless the filter
 * is required. The three schemas below differ only in the value schema, the key, and whether
 * filters taken from the path take part.
 */
function filtersObject(
  specs: FilterSpecs,
  valueOf: (spec: FilterSpec) => z.ZodType,
  {
    key = (name: string) => name,
    withPathFilters = true,
  }: { key?: (name: string, spec: FilterSpec) => string; withPathFilters?: boolean } = {},
) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (!withPathFilters && spec.kind === 'string' && spec.fromPath) continue;
    const value = valueOf(spec);
    shape[key(name, spec)] = spec.kind === 'string' && spec.required ? value : value.optional();
  }
  return z.object(shape).strict();
}

/** Schema of the filters of one object as an MCP tool advertises them (`fromPath` filters are ordinary ones there). */
export function filterToolSchema(specs: FilterSpecs) {
  return filtersObject(specs, toolValueSchema);
}

/** Query-string name of a filter: `ids` filters are sent as the repeated parameter `id[]`. */
export function queryParamName(name: string, spec: FilterSpec): string {
  return spec.kind === 'ids' ? `${name}[]` : name;
}

/** Schema of the raw query-string filters of one object (strings in, typed values out). */
export function filterQuerySchema(specs: FilterSpecs) {
  return filtersObject(specs, queryParamSchema, { key: queryParamName, withPathFilters: false });
}

/** Schema of the typed filters as they travel from gateway to agent. */
export function filterWireSchema(specs: FilterSpecs) {
  return filtersObject(specs, wireValueSchema);
}

export type FilterValues = Record<string, string | number | boolean | string[]>;
