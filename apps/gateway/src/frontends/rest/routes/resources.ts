import type { Express, Request, RequestHandler, Response } from 'express';
import { issuesOf, MAX_RECORD_ID_LENGTH, OBJECTS, objectSpec, parseListQuery, type ObjectSpec } from '@gp-gateway/protocol';
import { z } from 'zod';
import { documentFilter, noGetById, type ReadTarget, type RecordReader } from '../../../core/reads/recordReader.ts';
import { ApiError } from '../../../errors/apiError.ts';
import { routeHeadersOf } from '../../../core/routing/routeHeaders.ts';
import { sendJson } from '../sendJson.ts';

export interface ResourceRoutesOptions {
  reader: RecordReader;
}

const NoQuery = z.object({}).strict();

/** A top-level object; lines of a document are reached only through their parent's path. */
function objectOf(req: Request): ObjectSpec {
  const spec = objectSpec(String(req.params.object));
  if (!spec || spec.parent) throw new ApiError('NOT_FOUND', 'No such route.');
  return spec;
}

/** The lines object listed under /v1/{parent}/{id}/lines. */
function linesOf(req: Request): ObjectSpec {
  const parent = String(req.params.object);
  const spec = Object.values(OBJECTS as Record<string, ObjectSpec>).find((o) => o.parent === parent);
  if (!spec) throw new ApiError('NOT_FOUND', 'No such route.');
  return spec;
}

function targetOf(req: Request, res: Response): ReadTarget {
  return { ...res.locals.auth!, headers: routeHeadersOf(req), maxInFlight: res.locals.limits!.maxInFlightPerConnection };
}

/**
 * `GET /v1/{object}`, `/v1/{object}/{id}` and `/v1/{object}/{id}/lines` for every object of the
 * protocol catalogue, each route after `guards` (authentication, limits, the read scope). They are
 * mounted on the app itself: behind a `/v1` prefix and a router of their own, express walked four
 * more layers per request, ~10% of the gateway's CPU per get.
 */
export function mountResourceRoutes(app: Express, guards: RequestHandler[], { reader }: ResourceRoutesOptions): void {
  async function list(req: Request, res: Response, spec: ObjectSpec, pathFilters: Record<string, string>) {
    const query = parseListQuery(spec, req.query as Record<string, unknown>);
    if (!query.ok) throw ApiError.validation(query.issues);
    const filters = { ...query.value.filters, ...pathFilters };
    const open = await reader.openList(targetOf(req, res), spec, filters, query.value.cursor);
    const page = await reader.page(open, query.value.limit);
    // The agent's payload is already JSON: splice it in rather than parse and re-serialise every row.
    sendJson(res, ['{"data":', page.payload, `,"nextCursor":${JSON.stringify(page.nextCursor)}}`]);
  }

  app.get('/v1/:object', ...guards, (req, res) => list(req, res, objectOf(req), {}));

  app.get('/v1/:object/:id/lines', ...guards, (req, res) => {
    const spec = linesOf(req);
    return list(req, res, spec, documentFilter(String(req.params.id)));
  });

  app.get('/v1/:object/:id', ...guards, async (req, res) => {
    const spec = objectOf(req);
    if (!spec.idForm) throw noGetById(spec);
    const query = NoQuery.safeParse(req.query);
    if (!query.success) throw ApiError.validation(issuesOf(query.error));
    const id = String(req.params.id);
    // Refused here, as MCP's get_record does: an agent would refuse the request, and the client must not wait for it.
    if (id.length > MAX_RECORD_ID_LENGTH) {
      throw ApiError.validation([{ path: 'id', message: `must be at most ${MAX_RECORD_ID_LENGTH} characters` }]);
    }
    const payload = await reader.get(targetOf(req, res), spec, id);
    sendJson(res, ['{"data":', payload, '}']);
  });
}
