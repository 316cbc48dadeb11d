import { z } from 'zod';
import { filterQuerySchema, filterWireSchema, queryParamName, type FilterValues } from './filters.ts';
import type { ValidationIssue } from './errors.ts';
import type { ObjectSpec } from './objects.ts';

/**
 * What a request says, checked against an object of the catalogue (objects.ts): a list's query
 * string (REST), its filters as JSON (MCP tools) or on the wire (the agent), and composite ids.
 */

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_CURSOR_LENGTH = 2048;

export const LimitSchema = z
  .string('must be given once')
  .regex(/^\d{1,4}$/, `must be an integer from 1 to ${MAX_LIMIT}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`);
export const CursorSchema = z.string('must be given once').min(1, 'must not be empty').max(MAX_CURSOR_LENGTH, 'is not a valid cursor');

export interface ListQuery {
  limit: number;
  cursor: string | null;
  filters: FilterValues;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export function issuesOf(error: z.ZodError, prefix = ''): ValidationIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { path: issue.keys.join(', '), message: `unknown query parameter${issue.keys.length > 1 ? 's' : ''}` };
    }
    return { path: prefix + issue.path.map(String).join('.'), message: issue.message };
  });
}

const querySchemas = new Map<ObjectSpec, z.ZodType>();
function listQuerySchema(spec: ObjectSpec): z.ZodType {
  let schema = querySchemas.get(spec);
  if (!schema) {
    schema = filterQuerySchema(spec.filters).extend({ limit: LimitSchema.optional(), cursor: CursorSchema.optional() });
    querySchemas.set(spec, schema);
  }
  return schema;
}

/** Validates the raw query string of `GET /v1/{object}` into limit, cursor and typed filters. */
export function parseListQuery(spec: ObjectSpec, query: Record<string, unknown>): Parsed<ListQuery> {
  // A required filter left out: say so, rather than zod's "Invalid input".
  const result = listQuerySchema(spec).safeParse(query, {
    error: (issue) =>
      issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')
        ? `is required for ${spec.name}`
        : undefined,
  });
  if (!result.success) return { ok: false, issues: issuesOf(result.error) };
  const { limit, cursor, ...raw } = result.data as Record<string, unknown> & { limit?: number; cursor?: string };
  const filters: FilterValues = {};
  for (const [name, filter] of Object.entries(spec.filters)) {
    const value = raw[queryParamName(name, filter)];
    if (value !== undefined) filters[name] = value as FilterValues[string];
  }
  const refused = refusedCombinations(spec, filters);
  if (refused.length) return { ok: false, issues: refused };
  return { ok: true, value: { limit: limit ?? DEFAULT_LIMIT, cursor: cursor ?? null, filters } };
}

/** Each filter given beside a value of another filter that refuses it, named with the reason. */
function refusedCombinations(spec: ObjectSpec, filters: FilterValues): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, filter] of Object.entries(spec.filters)) {
    if (filter.kind !== 'enum' || !filter.refuses || filters[name] !== filter.refuses.value) continue;
    for (const other of filter.refuses.filters) {
      if (filters[other] === undefined) continue;
      const param = queryParamName(other, spec.filters[other]!);
      issues.push({ path: param, message: `cannot be combined with ${name}=${filter.refuses.value}: ${filter.refuses.reason}` });
    }
  }
  return issues;
}

/** A JSON value written the way a query string carries it: scalars as text, arrays element by element. */
function asQueryValue(value: unknown): unknown {
  const scalar = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
  return Array.isArray(value) ? value.map(scalar) : scalar(value);
}

/**
 * Validates the filters an MCP tool received as JSON (`{ "inactive": false, "id": ["A"] }`) with the
 * very schema of the REST query string, after writing each value as a query string carries it
 * (`inactive=false`, `id[]=A`): REST and MCP accept, reject and normalise the same filters, with the
 * same messages. Issue paths read `filters.<name>`. Where a query string has no equivalent input: null
 * means absent, an unknown name is "unknown filter", and a `fromPath` filter (the document whose
 * lines to list) is an ordinary required string.
 */
export function parseToolFilters(spec: ObjectSpec, filters: Readonly<Record<string, unknown>>): Parsed<FilterValues> {
  const query: Record<string, unknown> = {};
  const fromPath: FilterValues = {};
  const issues: ValidationIssue[] = [];
  const nameOfParam = new Map<string, string>();
  for (const name of Object.keys(filters)) {
    if (!Object.hasOwn(spec.filters, name)) issues.push({ path: `filters.${name}`, message: 'unknown filter' });
  }
  for (const [name, filter] of Object.entries(spec.filters)) {
    const value = Object.hasOwn(filters, name) ? filters[name] : undefined;
    if (filter.kind === 'string' && filter.fromPath) {
      if (typeof value === 'string' && value !== '') {
        fromPath[name] = value;
      } else {
        const message = value === undefined || value === null ? 'is required' : 'must be a non-empty string';
        issues.push({ path: `filters.${name}`, message });
      }
      continue;
    }
    const param = queryParamName(name, filter);
    nameOfParam.set(param, name);
    if (value !== undefined && value !== null) query[param] = asQueryValue(value);
  }
  const parsed = parseListQuery(spec, query);
  if (!parsed.ok) {
    for (const issue of parsed.issues) {
      const [param = '', ...rest] = issue.path.split('.');
      issues.push({ path: ['filters', nameOfParam.get(param) ?? param, ...rest].join('.'), message: issue.message });
    }
  }
  if (issues.length || !parsed.ok) return { ok: false, issues };
  return { ok: true, value: { ...parsed.value.filters, ...fromPath } };
}

const wireSchemas = new Map<ObjectSpec, z.ZodType>();
/** The schema an agent applies to the filters it receives (it trusts nothing it did not validate). */
export function filterWireSchemaOf(spec: ObjectSpec): z.ZodType {
  let schema = wireSchemas.get(spec);
  if (!schema) {
    schema = filterWireSchema(spec.filters);
    wireSchemas.set(spec, schema);
  }
  return schema;
}

/** Splits a composite id (docs/api.md#composite-ids). Document ids split at the first `:`, others at the last. */
export function splitCompositeId(id: string, at: 'first' | 'last'): [string, string] | null {
  const i = at === 'first' ? id.indexOf(':') : id.lastIndexOf(':');
  if (i <= 0 || i === id.length - 1) return null;
  return [id.slice(0, i), id.slice(i + 1)];
}
