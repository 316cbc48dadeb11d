import {
  filterWireSchemaOf,
  objectSpec,
  OBJECTS,
  PositionSchema,
  splitCompositeId,
  type Company,
  type FilterValues,
  type GetOperation,
  type ListOperation,
  type ObjectName,
  type ReadOperation,
  type Position,
  type AgentHealth,
} from '@gp-gateway/protocol';
import { AccountFrameworkError, gpTablesFor } from '@gp-gateway/gp-schema';
import { readsAccountSegments } from '../catalogue/accountFramework.ts';
import { CATALOGUE } from '../catalogue/index.ts';
import { WORK_READS } from '../catalogue/resources/work.ts';
import { keyValue, PreparedResource } from '../catalogue/compile.ts';
import { DatabaseConfigurationError, DatabaseUnavailableError, QueryCancelledError, type Executor } from '../db/executor.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { renderSelect } from '../sql/render.ts';
import { renderJsonPage } from '../catalogue/sqlite/pageJson.ts';
import { readAccountFramework } from './accountFramework.ts';
import { AgentError } from './agentError.ts';
import { tracedExecutor } from '../db/tracedExecutor.ts';

export interface ReadResult {
  /**
   * The serialised `data` of the answer: a JSON array for lists, one object for get. As text, or as
   * its UTF-8 bytes where SQLite wrote it (list pages on the embedded database).
   */
  payload: string | Buffer;
  next: Position | null;
}

/** A payload as text, for the agent's own reading of an answer (companies, `gp-agent query`). */
export function payloadText(payload: string | Buffer): string {
  return typeof payload === 'string' ? payload : payload.toString('utf8');
}

/**
 * What answers the gateway's operations: a ReadService on the calling thread, or a
 * ThreadedReadService, which runs a ReadService in each SQLite thread.
 */
export interface OperationHandler {
  handle(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult>;
  health(): Promise<HealthReport>;
  /**
   * Where a list page ends (its `next`), without reading its rows: lets ReadAhead read two pages
   * at once. Only where the threads are the agent's own (the embedded database): on SQL Server the
   * agent adds no speculative statements beyond the one page read ahead.
   */
  pageEnd?(op: ListOperation, signal?: AbortSignal): Promise<Position | null>;
  /**
   * Whether `op` is answered on the calling thread, within the call: nothing can stop it midway, so
   * AgentSession gives it no AbortController, and ReadAhead reads no such page ahead (reading it
   * would hold up the answer in hand rather than overlap its trip to the client).
   */
  answersOnCallingThread?(op: ReadOperation): boolean;
}

/** A list operation as checked by ReadService: what its pages are read with. */
interface CheckedList {
  resource: PreparedResource;
  company: string | null;
  filters: FilterValues;
  limit: number;
  after: Position | null;
}

/** How long a known company list is trusted before an unknown company id triggers a re-read. */
const COMPANY_REFRESH_MS = 30_000;

/** What a client reads for a cursor of a list walked in the agent's earlier order (by DEX_ROW_ID). */
const OLD_CURSOR =
  'this cursor was issued by an earlier version of the agent, which walked lists in another order; start the list again without a cursor';

/** What an API client reads when GP's database fails; the agent's log and its health say why. */
/** What mends a read the login may not make (a permission-denied or missing-object error). */
const GRANT_READ_FIX =
  'run the script `gp-agent mssql grant-read` prints, as a SQL Server administrator; `gp-agent diagnose` lists every missing grant';
const ERP_UNAVAILABLE_MESSAGE = 'The GP database is not answering the agent; the agent log says why.';

/** The agent's view of GP for the hello and status frames. */
export interface HealthReport {
  companies: Company[];
  health: AgentHealth;
}

/**
 * Executes the typed operations the gateway sends, through the catalogue only. Every operation is
 * validated again here: the agent trusts nothing it did not check itself.
 */
export class ReadService implements OperationHandler {
  private readonly executor: Executor;
  /** Every object's resource in GP_TABLES' shape; those of `framed` are answered from `installResources` instead. */
  private readonly resources = new Map<string, PreparedResource>();
  /** Objects whose statements name account segment columns, which the install's account framework decides. */
  private readonly framed = new Set<string>();
  /** Those objects' resources in the install's framework, read once (health asks for it at start). */
  private installResources: Promise<Map<string, PreparedResource>> | null = null;
  /** Per object with unposted documents: the filter value that lists them, and their work table's resource. */
  private readonly work = new Map<string, { filter: string; value: string; resource: PreparedResource }>();
  private companyIds: Set<string> | null = null;
  private companiesReadAt = 0;

  constructor(executor: Executor) {
    this.executor = tracedExecutor(executor);
    for (const [name, def] of Object.entries(CATALOGUE)) {
      const resource = new PreparedResource(def, executor.dialect);
      this.resources.set(name, resource);
      if (readsAccountSegments(resource)) this.framed.add(name);
    }
    for (const [name, work] of Object.entries(WORK_READS))
      this.work.set(name, { filter: work.filter, value: work.value, resource: new PreparedResource(work.def, executor.dialect) });
  }

  /**
   * Answers one operation. Rejects with AgentError (reported to the gateway as is), with
   * DatabaseUnavailableError turned into ERP_UNAVAILABLE, or with QueryCancelledError when `signal`
   * aborted; the caller knows why it aborted and reports that.
   */
  async handle(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult> {
    try {
      return op.kind === 'list' ? await this.list(op, signal) : await this.get(op, signal);
    } catch (error) {
      if (error instanceof AgentError || error instanceof QueryCancelledError) throw error;
      if (signal?.aborted) throw new QueryCancelledError();
      if (error instanceof DatabaseConfigurationError)
        throw new AgentError('FORBIDDEN', `the agent's SQL login lacks ${error.missing}: ${GRANT_READ_FIX}`, error.message);
      if (error instanceof DatabaseUnavailableError) throw new AgentError('ERP_UNAVAILABLE', ERP_UNAVAILABLE_MESSAGE, error.message);
      throw error;
    }
  }

  /**
   * Companies, GP version and whether the database answers, for the hello and status frames. Never
   * rejects for a database problem: that is what it reports.
   */
  async health(): Promise<HealthReport> {
    const checkedAt = new Date().toISOString();
    // The account framework is read at start, with the companies; a failure is the accounts' to report.
    void this.framedResources().catch(() => undefined);
    try {
      const companies = await this.companies();
      const gpVersion = await this.executor.gpVersion().catch(() => null);
      return { companies, health: { database: 'ok', databaseMessage: null, gpVersion, checkedAt } };
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      return { companies: [], health: { database: 'unavailable', databaseMessage: message, gpVersion: null, checkedAt } };
    }
  }

  /** The companies of SY01500, for the hello frame and for validating company ids. */
  async companies(signal?: AbortSignal): Promise<Company[]> {
    const all: Company[] = [];
    let after: Position | null = null;
    do {
      const page = await this.list({ kind: 'list', object: 'companies', company: null, filters: {}, limit: 1000, after }, signal);
      all.push(...(JSON.parse(payloadText(page.payload)) as Company[]));
      after = page.next;
    } while (after);
    this.companyIds = new Set(all.map((c) => c.id.toUpperCase()));
    this.companiesReadAt = Date.now();
    return all;
  }

  /**
   * Whether the list `op` reads only the rows it returns: it has no filters, and its resource reads
   * every table in its key's index order with no condition of its own. Its work is then bounded by its limit
   * (at most limit + 1 rows of each table, each joined row through its key), however big the tables.
   */
  readsOnlyItsRows(op: ListOperation): boolean {
    return Object.keys(op.filters).length === 0 && this.resources.get(op.object)?.unfilteredListReadsOnlyItsRows === true;
  }

  /**
   * Where the list page `op` ends, its `next`, read from the keys alone: no row is written. The
   * same as the page's own `next` while the data stands still; ReadAhead uses it to start reading
   * the page after a page still being read (ThreadedReadService.pageEnd). Embedded database only.
   */
  async listEnd(op: ListOperation, signal?: AbortSignal): Promise<Position | null> {
    return (await this.keyedPage(await this.listed(op, signal), null, signal)).next;
  }

  private async list(op: ListOperation, signal?: AbortSignal): Promise<ReadResult> {
    const list = await this.listed(op, signal);
    const rowJson = list.resource.jsonRow;
    return rowJson ? this.keyedPage(list, rowJson, signal) : this.encodedPage(list, signal);
  }

  /** A list operation checked: its resource, filters, position and company. */
  private async listed(op: ListOperation, signal?: AbortSignal): Promise<CheckedList> {
    const filters = this.validFilters(op.object, op.filters);
    // Unposted documents (status=work, year=unposted) are read from their work table's resource.
    const work = this.work.get(op.object);
    const unposted = work !== undefined && filters[work.filter] === work.value;
    const resource = unposted ? work.resource : await this.resource(op.object);
    if (unposted) {
      const refused = Object.keys(filters).filter((name) => !(name in work.resource.def.filters));
      if (refused.length)
        throw new AgentError('VALIDATION_ERROR', `${refused.join(', ')} cannot be combined with ${work.filter}=${work.value}`);
    }
    const after = op.after === null ? null : this.validPosition(resource, filters, op.after);
    const company = await this.companyFor(resource, op.company, signal);
    const parent = objectSpec(op.object)?.parent;
    if (parent) {
      // Lines of a document that does not exist are a 404, not an empty page.
      await this.get({ kind: 'get', object: parent as ObjectName, company, id: String(filters.documentId) }, signal);
    }
    return { resource, filters, after, company, limit: op.limit };
  }

  /** A page whose rows are read as values and written to JSON here (PreparedResource.encode). */
  private async encodedPage({ resource, company, filters, limit, after }: CheckedList, signal?: AbortSignal): Promise<ReadResult> {
    let payload = '';
    let count = 0;
    let last: Position | null = null;
    let more = false;
    for (const listQuery of resource.listQueries(company, filters, limit + 1, after)) {
      // Ask each select for one row more than still fits, so that we know whether a next page exists.
      const compiled = renderSelect({ ...listQuery.query, limit: limit + 1 - count }, this.executor.dialect);
      await this.executor.forEachRow(
        company,
        compiled,
        (row) => {
          if (count === limit) {
            more = true;
            return;
          }
          payload += (count++ === 0 ? '' : ',') + resource.encode(row);
          last = resource.positionOf(listQuery, row);
        },
        signal,
      );
      if (more) break;
    }
    return { payload: `[${payload}]`, next: more ? last : null };
  }

  /**
   * A page that SQLite wrote (PreparedResource.jsonRow; with `rowJson` null, only its end): each
   * source table gives its rows' JSON as one value, until the page is full; then a single row past
   * the page, in this table or a later one, says whether a next page exists.
   */
  private async keyedPage(list: CheckedList, rowJson: CompiledQuery | null, signal?: AbortSignal): Promise<ReadResult> {
    const { resource, company, filters, limit, after } = list;
    const parts: Uint8Array[] = [];
    let count = 0;
    let last: Position | null = null;
    for (const listQuery of resource.listQueries(company, filters, limit, after)) {
      const compiled = renderJsonPage({ ...listQuery.query, limit: limit - count }, this.executor.dialect, rowJson);
      const [row] = await this.executor.query(company, compiled, signal);
      const rows = Number(row?.[1] ?? 0);
      if (rows > 0) {
        if (rowJson) parts.push(row![0] as Uint8Array);
        count += rows;
        // The row's key values follow its order value (pageJson.ts), one per ORDER BY column.
        const { orderBy } = listQuery.query;
        const keys = row!.slice(3);
        last = [
          listQuery.key,
          listQuery.source,
          ...listQuery.walk.map((column) => keyValue(column, keys[orderBy.findIndex((c) => c.column === column.column)])),
        ];
      }
      if (count === limit) break;
    }
    const more = count === limit && last !== null && (await this.anyRowAfter(list, last, signal));
    return { payload: jsonArrayOf(parts), next: more ? last : null };
  }

  private async anyRowAfter({ resource, company, filters }: CheckedList, after: Position, signal?: AbortSignal): Promise<boolean> {
    for (const { query } of resource.listQueries(company, filters, 1, after)) {
      const rows = await this.executor.query(company, renderSelect(query, this.executor.dialect), signal);
      if (rows.length > 0) return true;
    }
    return false;
  }

  private async get(op: GetOperation, signal?: AbortSignal): Promise<ReadResult> {
    const resource = await this.resource(op.object);
    const spec = objectSpec(op.object)!;
    if (!spec.idForm) throw new AgentError('NOT_FOUND', `${op.object} has no get by id`);
    const parts = spec.idForm.kind === 'plain' ? [op.id] : splitCompositeId(op.id, spec.idForm.splitAt);
    if (!parts) throw new AgentError('NOT_FOUND', `no ${op.object} with that id`);
    const company = await this.companyFor(resource, op.company, signal);
    // Sources are in preference order: a document in both open and history is served from open (docs/api.md#composite-ids).
    // Then the work table: a document eConnect wrote and GP has not posted yet (unposted documents: docs/api.md#writes).
    const work = this.work.get(op.object)?.resource;
    for (const from of work ? [resource, work] : [resource]) {
      for (const query of from.getQueries(company, parts)) {
        const [row] = await this.executor.query(company, renderSelect(query, this.executor.dialect), signal);
        if (row) return { payload: from.encode(row), next: null };
      }
    }
    throw new AgentError('NOT_FOUND', `no ${op.object} with that id`);
  }

  private async resource(object: string): Promise<PreparedResource> {
    const resource = this.framed.has(object) ? (await this.framedResources()).get(object) : this.resources.get(object);
    if (!resource) throw new AgentError('NOT_FOUND', `unknown object ${object}`);
    return resource;
  }

  /**
   * The resources of `framed` prepared in the install's account framework, which is read from the
   * system database once; a read that fails is tried again by the next request that needs it.
   */
  private framedResources(): Promise<Map<string, PreparedResource>> {
    if (!this.installResources) {
      const prepared = readAccountFramework(this.executor).then(
        (framework) => {
          const tables = gpTablesFor(framework);
          return new Map(
            [...this.framed].map((name) => [name, new PreparedResource(CATALOGUE[name as ObjectName], this.executor.dialect, tables)]),
          );
        },
        (error: unknown) => {
          if (error instanceof AccountFrameworkError)
            throw new AgentError('INTERNAL_ERROR', `GP's account framework cannot be used: ${error.message}`, error.message);
          throw error;
        },
      );
      this.installResources = prepared;
      prepared.catch(() => {
        if (this.installResources === prepared) this.installResources = null;
      });
    }
    return this.installResources;
  }

  private validFilters(object: ObjectName, filters: unknown): FilterValues {
    const parsed = filterWireSchemaOf(OBJECTS[object]).safeParse(filters);
    if (!parsed.success) throw new AgentError('VALIDATION_ERROR', `invalid filters for ${object}`);
    return parsed.data as FilterValues;
  }

  private validPosition(resource: PreparedResource, filters: FilterValues, after: unknown): Position {
    const parsed = PositionSchema.safeParse(after);
    const position = parsed.success ? parsed.data : null;
    // Positions were [source, DEX_ROW_ID] before lists paged on GP's own indexes.
    if (position?.length === 2 && position.every((part) => typeof part === 'number')) throw new AgentError('VALIDATION_ERROR', OLD_CURSOR);
    if (position === null || !resource.isPosition(filters, position)) throw new AgentError('VALIDATION_ERROR', 'invalid cursor');
    return position;
  }

  /** Company tables need a company the system database lists; an id is never used unchecked. */
  private async companyFor(resource: PreparedResource, company: string | null, signal?: AbortSignal): Promise<string | null> {
    if (resource.def.database === 'system') return null;
    if (!company) throw new AgentError('VALIDATION_ERROR', 'a company is required');
    const id = company.toUpperCase();
    if (!this.companyIds?.has(id) && Date.now() - this.companiesReadAt > COMPANY_REFRESH_MS) await this.companies(signal);
    if (!this.companyIds?.has(id)) throw new AgentError('VALIDATION_ERROR', 'unknown company');
    return id;
  }
}

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/**
 * `[part,part,…]` as one buffer of its own (never a slice of Node's shared pool), so that a worker
 * thread can hand it over to the main thread without a copy.
 */
function jsonArrayOf(parts: readonly Uint8Array[]): Buffer {
  let length = 2 + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.length;
  const out = Buffer.allocUnsafeSlow(length);
  let at = 0;
  out[at++] = OPEN;
  parts.forEach((part, i) => {
    if (i > 0) out[at++] = COMMA;
    out.set(part, at);
    at += part.length;
  });
  out[at] = CLOSE;
  return out;
}
