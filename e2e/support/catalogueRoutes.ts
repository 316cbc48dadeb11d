import { OBJECTS, type ObjectSpec } from '@gp-gateway/protocol';

/**
 * Every read route of the protocol catalogue, made concrete for one dataset: `GET /v1/{object}`
 * (with its required filters filled in), `GET /v1/{object}/{id}` for objects with get-by-id, and
 * `GET /v1/{parent}/{id}/lines` for line objects. Built from `OBJECTS`, so objects added to the
 * catalogue are covered without touching the tests that use it.
 */
export interface CatalogueRoute {
  /** Stable across datasets, e.g. `list customers`, `get customers`, `lines of sales-orders`. */
  name: string;
  /** The path for a dataset, using ids that exist in it. */
  path(sample: DatasetSample): string;
}

/** The first row of each object in one dataset (undefined when it has none). */
export type DatasetSample = Map<string, Record<string, unknown> | undefined>;

/** Fetches a path with a key that reaches the dataset; returns the parsed body when it is 200. */
export type Fetcher = (path: string) => Promise<{ status: number; body: any }>;

const specs = () => Object.values(OBJECTS as Record<string, ObjectSpec>);
const MISSING_ID = 'NO-SUCH-ID';

/** Filters a list cannot go without, other than those taken from the path. */
function requiredFilters(spec: ObjectSpec): string[] {
  return Object.entries(spec.filters)
    .filter(([, f]) => (f as { required?: boolean }).required && !(f as { fromPath?: boolean }).fromPath)
    .map(([name]) => name);
}

/** `customerId` is the id of a row of `customers`: the object a required reference filter points at. */
function referencedObject(filter: string): string {
  const stem = filter.replace(/Id$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const target = specs().find((s) => s.name === `${stem}s` || s.name === `${stem}es`);
  if (!target) throw new Error(`cannot tell which object the required filter ${filter} refers to; teach e2e/support/catalogueRoutes.ts`);
  return target.name;
}

function idOf(spec: ObjectSpec, row: Record<string, unknown> | undefined): string {
  if (!row || !spec.idForm) return MISSING_ID;
  if (spec.idForm.kind === 'plain') return String(row.id);
  const [a, b] = spec.idForm.parts;
  return `${String(row[a])}:${String(row[b])}`;
}

function listPath(spec: ObjectSpec, sample: DatasetSample): string {
  if (spec.parent) {
    const parent = specs().find((s) => s.name === spec.parent)!;
    return `/v1/${parent.name}/${encodeURIComponent(idOf(parent, sample.get(parent.name)))}/lines`;
  }
  const query = requiredFilters(spec).map((filter) => {
    const target = specs().find((s) => s.name === referencedObject(filter))!;
    return `${filter}=${encodeURIComponent(idOf(target, sample.get(target.name)))}`;
  });
  return `/v1/${spec.name}${query.length ? `?${query.join('&')}` : ''}`;
}

export function catalogueRoutes(): CatalogueRoute[] {
  return specs().flatMap((spec): CatalogueRoute[] => {
    if (spec.parent) return [{ name: `lines of ${spec.parent}`, path: (sample) => listPath(spec, sample) }];
    const list = { name: `list ${spec.name}`, path: (sample: DatasetSample) => listPath(spec, sample) };
    if (!spec.idForm) return [list];
    return [
      list,
      { name: `get ${spec.name}`, path: (sample) => `/v1/${spec.name}/${encodeURIComponent(idOf(spec, sample.get(spec.name)))}` },
    ];
  });
}

/**
 * The first row of every object a dataset has, found through the API: objects without required
 * filters first, then those whose required filters point at rows found in the first round.
 */
export async function sampleDataset(fetch: Fetcher): Promise<DatasetSample> {
  const sample: DatasetSample = new Map();
  const firstRow = async (spec: ObjectSpec) => {
    const res = await fetch(`${listPath(spec, sample).replace(/\?|$/, (m) => (m ? '?limit=1&' : '?limit=1'))}`);
    if (res.status !== 200 && res.status !== 404) throw new Error(`sampling ${spec.name}: ${res.status} ${JSON.stringify(res.body)}`);
    sample.set(spec.name, res.status === 200 ? res.body.data[0] : undefined);
  };
  const topLevel = specs().filter((s) => !s.parent);
  // One at a time: a connection takes only so many requests at once (docs/api.md#in-flight-cap).
  for (const spec of topLevel.filter((s) => !requiredFilters(s).length)) await firstRow(spec);
  for (const spec of topLevel.filter((s) => requiredFilters(s).length)) await firstRow(spec);
  return sample;
}
