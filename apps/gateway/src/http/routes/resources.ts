import { Router, type Request, type Response } from 'express';
import { issuesOf, OBJECTS, objectSpec, parseListQuery, type ObjectSpec, type Operation } from '@gp-gateway/protocol';
import { z } from 'zod';
import type { AgentRouter } from '../../agents/agentRouter.ts';
import { requireScope } from '../../auth/authenticate.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../apiError.ts';
import { agentKeyOf, checkCompany, requestedCompany, resolveConnection } from '../connectionContext.ts';
import type { CursorCodec } from '../cursor.ts';

export interface ResourceRoutesOptions {
  store: Store;
  agents: AgentRouter;
  cursors: CursorCodec;
  /** How long an agent gets to answer before the client gets 504 UPSTREAM_TIMEOUT. */
  requestTimeoutMs: number;
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

/** Longest document id a lines list accepts (GP document numbers are at most 21 characters). */
const MAX_DOCUMENT_ID = 64;

/** `GET /v1/{object}` and `GET /v1/{object}/{id}` for every object of the protocol catalogue. */
export function resourceRoutes({ store, agents, cursors, requestTimeoutMs }: ResourceRoutesOptions): Router {
  const router = Router();
  router.use(requireScope('read'));

  /** Connection, company and agent for one request, in the order the contract's errors imply. */
  async function route(req: Request, res: Response, spec: ObjectSpec) {
    const connection = await resolveConnection(req, res.locals.auth!.key, store);
    const company = requestedCompany(req, connection, spec.companyScoped);
    const agentKey = agentKeyOf(connection);
    return { connection, company, agentKey };
  }

  async function ask(agentKey: string, company: string | null, op: Operation) {
    const known = agents.companies(agentKey);
    if (!known) throw new ApiError('CONNECTION_OFFLINE', 'The connection’s agent is offline.');
    checkCompany(company, known);
    return agents.request(agentKey, op, requestTimeoutMs);
  }

  async function list(req: Request, res: Response, spec: ObjectSpec, pathFilters: Record<string, string>) {
    const query = parseListQuery(spec, req.query as Record<string, unknown>);
    if (!query.ok) throw ApiError.validation(query.issues);
    const filters = { ...query.value.filters, ...pathFilters };
    const { connection, company, agentKey } = await route(req, res, spec);
    const binding = { orgId: connection.orgId, connectionId: connection.id, company, object: spec.name, filters };
    const after = query.value.cursor === null ? null : cursors.decode(query.value.cursor, binding);
    if (query.value.cursor !== null && after === null) {
      throw ApiError.validation([{ path: 'cursor', message: 'is not a cursor of this list; pass nextCursor back unchanged with the same filters' }]);
    }
    const answer = await ask(agentKey, company, {
      kind: 'list',
      object: spec.name as Operation['object'],
      company,
      filters,
      limit: query.value.limit,
      after,
    });
    const nextCursor = answer.next === null ? null : cursors.encode(binding, answer.next);
    // The agent's payload is already JSON: splice it in rather than parse and re-serialise every row.
    res.type('application/json').send(`{"data":${answer.payload},"nextCursor":${JSON.stringify(nextCursor)}}`);
  }

  router.get('/:object', (req, res) => list(req, res, objectOf(req), {}));

  router.get('/:object/:id/lines', (req, res) => {
    const spec = linesOf(req);
    const id = String(req.params.id);
    if (id.length > MAX_DOCUMENT_ID) throw new ApiError('NOT_FOUND', 'No document with that id.');
    return list(req, res, spec, { documentId: id });
  });

  router.get('/:object/:id', async (req, res) => {
    const spec = objectOf(req);
    if (!spec.idForm) throw new ApiError('NOT_FOUND', `${spec.name} has no get by id; list it with filters instead.`);
    const query = NoQuery.safeParse(req.query);
    if (!query.success) throw ApiError.validation(issuesOf(query.error));
    const { company, agentKey } = await route(req, res, spec);
    const answer = await ask(agentKey, company, {
      kind: 'get',
      object: spec.name as Operation['object'],
      company,
      id: String(req.params.id),
    });
    res.type('application/json').send(`{"data":${answer.payload}}`);
  });

  return router;
}
