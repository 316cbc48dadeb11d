import { MAX_CURSOR_LENGTH, type FilterValues, type ObjectSpec, type ReadOperation, type Position } from '@gp-gateway/protocol';
import type { AgentRouter, Tenant } from '../agents/agentRouter.ts';
import type { ApiKey, Connection } from '../../infrastructure/store/store.ts';
import { ApiError } from '../../errors/apiError.ts';
import { agentKeyOf, checkCompany, requestedCompany, resolveConnection, type RouteHeaders } from '../routing/connectionRouting.ts';
import type { CursorBinding, CursorCodec } from './cursor.ts';

export interface RecordReaderOptions {
  agents: AgentRouter;
  cursors: CursorCodec;
  /** How long an agent gets to answer before the caller gets UPSTREAM_TIMEOUT. */
  requestTimeoutMs: number;
}

/**
 * Who reads, and where to: the caller's key, its routing headers as sent, the connection they name
 * as read with the key (AuthContext), and its organisation's in-flight cap.
 */
export interface ReadTarget {
  key: ApiKey;
  headers: RouteHeaders;
  connection: Connection | null;
  maxInFlight: number;
}

/** A list whose connection, company and cursor have been checked: pages can be asked of it. */
export interface OpenList {
  readonly spec: ObjectSpec;
  readonly binding: CursorBinding;
  readonly agentKey: string;
  readonly tenant: Tenant;
  readonly company: string | null;
  /** Where the page starts: the verified cursor's position, or null for the first page. */
  readonly after: Position | null;
}

export interface ListPage {
  /** The agent's serialised JSON array of records, as the UTF-8 bytes it sent. */
  payload: Buffer;
  nextCursor: string | null;
}

const tenantOf = (target: ReadTarget): Tenant => ({ orgId: target.key.orgId, maxInFlight: target.maxInFlight });

/** Longest document id a lines list accepts (GP document numbers are at most 21 characters). */
const MAX_DOCUMENT_ID = 64;

const BAD_CURSOR = 'is not a cursor of this list; pass nextCursor back unchanged with the same filters';

/** The filter of a lines list (the document whose lines to list); a longer id than any document has is a 404. */
export function documentFilter(id: string): { documentId: string } {
  if (id.length > MAX_DOCUMENT_ID) throw new ApiError('NOT_FOUND', 'No document with that id.');
  return { documentId: id };
}

/** The 404 of a get on an object that has none (gl-entries, lines, fiscal periods). */
export function noGetById(spec: ObjectSpec): ApiError {
  return new ApiError('NOT_FOUND', `${spec.name} has no get by id; list it with filters instead.`);
}

/**
 * Reads records for REST and MCP alike: resolves the connection and company a key asks for, verifies
 * and signs cursors, and asks the connection's agent. Errors are ApiErrors, in the order the
 * contract's errors imply: connection, company, cursor, agent offline, company unknown to the agent.
 */
export class RecordReader {
  private readonly agents: AgentRouter;
  private readonly cursors: CursorCodec;
  private readonly requestTimeoutMs: number;

  constructor(options: RecordReaderOptions) {
    this.agents = options.agents;
    this.cursors = options.cursors;
    this.requestTimeoutMs = options.requestTimeoutMs;
  }

  /** Resolves where a list is read and where its page starts; `filters` are already validated. */
  async openList(target: ReadTarget, spec: ObjectSpec, filters: FilterValues, cursor: string | null): Promise<OpenList> {
    const { connection, company, agentKey } = this.route(target, spec);
    const binding = { orgId: connection.orgId, connectionId: connection.id, company, object: spec.name, filters };
    const after = cursor === null ? null : this.cursors.decode(cursor, binding);
    if (cursor !== null && after === null) throw ApiError.validation([{ path: 'cursor', message: BAD_CURSOR }]);
    return { spec, binding, agentKey, tenant: tenantOf(target), company, after };
  }

  /**
   * One page of an open list: at most `limit` records from the list's start, and the signed cursor
   * that continues right after the last of them. Every call starts at the same position, so a caller
   * may ask again with a smaller limit and get a prefix of the same walk.
   */
  async page(list: OpenList, limit: number): Promise<ListPage> {
    const answer = await this.ask(list.agentKey, list.tenant, list.company, {
      kind: 'list',
      object: list.spec.name as ReadOperation['object'],
      company: list.company,
      filters: list.binding.filters,
      limit,
      after: list.after,
    });
    const nextCursor = answer.next === null ? null : this.cursors.encode(list.binding, answer.next);
    // The limit the gateway holds clients to holds for what it hands them: a position too long to
    // come back as a cursor is the agent's fault, not a page the client could continue.
    if (nextCursor !== null && nextCursor.length > MAX_CURSOR_LENGTH)
      throw new ApiError('UPSTREAM_ERROR', 'The connection’s agent sent a position longer than a cursor may be.');
    return { payload: answer.payload, nextCursor };
  }

  /** One record by id: the agent's serialised JSON object, as bytes. The object must have get-by-id. */
  async get(target: ReadTarget, spec: ObjectSpec, id: string): Promise<Buffer> {
    const { company, agentKey } = this.route(target, spec);
    const answer = await this.ask(agentKey, tenantOf(target), company, {
      kind: 'get',
      object: spec.name as ReadOperation['object'],
      company,
      id,
    });
    return answer.payload;
  }

  private route(target: ReadTarget, spec: ObjectSpec) {
    const connection = resolveConnection(target.headers, target.key, target.connection);
    const company = requestedCompany(target.headers, connection, spec.companyScoped);
    return { connection, company, agentKey: agentKeyOf(connection) };
  }

  private async ask(agentKey: string, tenant: Tenant, company: string | null, op: ReadOperation) {
    const reach = await this.agents.reach(agentKey);
    if (!reach) throw new ApiError('CONNECTION_OFFLINE', 'The connection’s agent is offline.');
    checkCompany(company, reach.companies);
    return this.agents.request(agentKey, op, this.requestTimeoutMs, tenant);
  }
}
