import { z } from 'zod';
import { filterQuerySchema, filterWireSchema, queryParamName, type FilterSpecs, type FilterValues } from './filters.ts';
import type { ValidationIssue } from './errors.ts';
import { CompanySchema, CustomerAddressSchema, CustomerSchema, GlEntrySchema } from './resources.ts';

/**
 * The API-level catalogue: which objects exist, their resource schema, their filters and the form of
 * their id. Gateway routes, agent validation and MCP tools all read this one table.
 */
export interface ObjectSpec {
  /** Path segment under /v1, e.g. `customer-addresses`. */
  readonly name: string;
  readonly description: string;
  readonly resource: z.ZodObject;
  readonly filters: FilterSpecs;
  /**
   * How get-by-id ids look: `plain` is the `id` field; `composite` joins parts with `:` (decision D4);
   * null means the object has no get-by-id.
   */
  readonly idForm:
    | { kind: 'plain' }
    | { kind: 'composite'; parts: readonly [string, string]; splitAt: 'first' | 'last' }
    | null;
  /** Objects read from a company database honour X-Company; `companies` reads the system database. */
  readonly companyScoped: boolean;
}

const ids = { kind: 'ids', description: 'fetch specific ids (repeat the parameter, at most 50)' } as const;
const exact = (description: string, maxLength = 31) => ({ kind: 'string', maxLength, description }) as const;

export const OBJECTS = {
  companies: {
    name: 'companies',
    description: 'Company databases of the connection (DYNAMICS..SY01500)',
    resource: CompanySchema,
    filters: { id: ids },
    idForm: { kind: 'plain' },
    companyScoped: false,
  },
  customers: {
    name: 'customers',
    description: 'Customers (RM00101)',
    resource: CustomerSchema,
    filters: {
      q: { kind: 'search', description: 'case-insensitive substring of the name' },
      id: ids,
      classId: exact('customer class id'),
      inactive: { kind: 'boolean', description: 'inactive customers only (true) or active only (false)' },
      hold: { kind: 'boolean', description: 'customers on hold (true) or not (false)' },
      paymentTermsId: exact('payment terms id'),
      salespersonId: exact('salesperson id'),
      salesTerritoryId: exact('sales territory id'),
      currencyId: exact('currency id'),
      taxScheduleId: exact('tax schedule id'),
      updatedSince: { kind: 'timestamp', description: 'rows whose modifiedAt is at or after this instant' },
    },
    idForm: { kind: 'plain' },
    companyScoped: true,
  },
  'customer-addresses': {
    name: 'customer-addresses',
    description: 'Addresses of one customer (RM00102); id is <customerId>:<code>',
    resource: CustomerAddressSchema,
    filters: {
      customerId: { kind: 'string', maxLength: 31, required: true, description: 'the customer whose addresses to list' },
      shippingMethodId: exact('shipping method id'),
      taxScheduleId: exact('tax schedule id'),
    },
    idForm: { kind: 'composite', parts: ['customerId', 'code'], splitAt: 'last' },
    companyScoped: true,
  },
  'gl-entries': {
    name: 'gl-entries',
    description: 'Posted general ledger lines of open (GL20000) and history (GL30000) years',
    resource: GlEntrySchema,
    filters: {
      year: { kind: 'enum', values: ['open', 'history'], description: 'open years only, or history years only' },
      accountNumber: exact('account number as formatted in GP, e.g. 000-1100-00', 129),
      journalEntryNumber: { kind: 'integer', description: 'journal entry number' },
      series: { kind: 'integer', description: 'GP series number (2 Financial, 3 Sales, 4 Purchasing, …)' },
      originatingMasterId: exact('customer or vendor id the entry came from'),
      dateFrom: { kind: 'date', description: 'transaction date on or after (inclusive)' },
      dateTo: { kind: 'date', description: 'transaction date on or before (inclusive)' },
    },
    idForm: null,
    companyScoped: true,
  },
} as const satisfies Record<string, ObjectSpec>;

export type ObjectName = keyof typeof OBJECTS;
export const OBJECT_NAMES = Object.keys(OBJECTS) as [ObjectName, ...ObjectName[]];
export const ObjectNameSchema = z.enum(OBJECT_NAMES);

export function objectSpec(name: string): ObjectSpec | undefined {
  return Object.hasOwn(OBJECTS, name) ? OBJECTS[name as ObjectName] : undefined;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_CURSOR_LENGTH = 2048;

const LimitSchema = z
  .string('must be given once')
  .regex(/^\d{1,4}$/, `must be an integer from 1 to ${MAX_LIMIT}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`);
const CursorSchema = z.string('must be given once').min(1, 'must not be empty').max(MAX_CURSOR_LENGTH, 'is not a valid cursor');

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
  const result = listQuerySchema(spec).safeParse(query);
  if (!result.success) return { ok: false, issues: issuesOf(result.error) };
  const { limit, cursor, ...raw } = result.data as Record<string, unknown> & { limit?: number; cursor?: string };
  const filters: FilterValues = {};
  for (const [name, filter] of Object.entries(spec.filters)) {
    const value = raw[queryParamName(name, filter)];
    if (value !== undefined) filters[name] = value as FilterValues[string];
  }
  return { ok: true, value: { limit: limit ?? DEFAULT_LIMIT, cursor: cursor ?? null, filters } };
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

/** Splits a composite id (decision D4). Document ids split at the first `:`, others at the last. */
export function splitCompositeId(id: string, at: 'first' | 'last'): [string, string] | null {
  const i = at === 'first' ? id.indexOf(':') : id.lastIndexOf(':');
  if (i <= 0 || i === id.length - 1) return null;
  return [id.slice(0, i), id.slice(i + 1)];
}
