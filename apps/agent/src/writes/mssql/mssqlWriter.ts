import sql from 'mssql';
import { type WritableObjectName, type WriteBody, type WriteOutcome } from '@gp-gateway/protocol';
import { CATALOGUE } from '../../catalogue/index.ts';
import { PreparedResource } from '../../catalogue/compile.ts';
import { unpostedApInvoices, unpostedArInvoices, unpostedGlEntries } from '../../catalogue/resources/work.ts';
import type { ResourceDef } from '../../catalogue/types.ts';
import { COMPANY_ID, DEFAULT_SYSTEM_DATABASE, SYSTEM_DATABASE_NAME } from '../../db/executor.ts';
import { bindValue, DEFAULT_LOCK_TIMEOUT_MS, parseConnectionString, poolConfig, sqlTypeOf } from '../../db/mssqlExecutor.ts';
import type { CompiledQuery } from '../../sql/model.ts';
import { mssqlDialect } from '../../sql/mssqlDialect.ts';
import { renderSelect } from '../../sql/render.ts';
import { AgentError } from '../../service/agentError.ts';
import { JOURNAL_TABLE, replayFromJournal } from '../journal.ts';
import { alreadyExists } from '../refusals.ts';
import type { Writer } from '../writeService.ts';
import { bindParams } from './bindParams.ts';
import { econnectWrite } from './econnect.ts';
import type { TsqlBatch } from './econnectCalls.ts';
import { checkReferencesMssql } from '../references/mssql.ts';
import { writeFailure } from './writeErrors.ts';

type Done = { outcome: WriteOutcome; answer: string | null };
type Request = { object: WritableObjectName; company: string; operationId: string; body: WriteBody; validateOnly: boolean };
type Runner = { request(): sql.Request };

/**
 * How long one write request may run before the driver gives up on it (ETIMEOUT, answered as
 * ERP_UNAVAILABLE and rolled back): mssql's default of 15 s cancelled a sales order of a few hundred
 * lines while eConnect was still checking them. Two minutes is past the gateway's deadline (30 s by
 * default), after which the gateway asks for the outcome, which fences the write (journal.ts).
 */
export const WRITE_REQUEST_TIMEOUT_MS = 120_000;

export interface MssqlWriterOptions {
  /** GP's system database (GP_SYSTEM_DATABASE), DYNAMICS unless set. */
  systemDatabase?: string;
  /** How long a write waits for a lock GP holds before error 1222 (GP_MSSQL_LOCK_TIMEOUT_MS). */
  lockTimeoutMs?: number;
  /** WRITE_REQUEST_TIMEOUT_MS unless set. */
  requestTimeoutMs?: number;
}

async function select(on: Runner, query: CompiledQuery): Promise<unknown[][]> {
  const request = on.request();
  request.arrayRowMode = true;
  query.params.forEach((param, i) => request.input(`p${i}`, sqlTypeOf(param), bindValue(param)));
  const result = await request.query(query.sql);
  return (result.recordset ?? []) as unknown as unknown[][];
}

/**
 * Writes on SQL Server through GP's eConnect procedures (econnect.ts; docs/decisions.md#writes-on-the-agent,
 * #the-sql-server-write-path-as-gp-2015-runs-econnect). Broken references are refused first (400,
 * each named in details.issues, as on the embedded database), then an id or number that exists
 * (409); the document's number is taken by GP's procedure in a driver transaction of its own
 * (validate-only takes none: it reads the next one without a lock); then, in one transaction the
 * driver begins, the calls, the record read back through the catalogue, and the journal row; COMMIT,
 * or ROLLBACK when the batch's status row says GP refused. GP's own refusals come back as its error
 * codes, with their words from the system database's taErrorCode; driver failures as writeErrors.ts
 * says.
 */
export class MssqlWriter implements Writer {
  private readonly pool: sql.ConnectionPool;
  private connecting: Promise<sql.ConnectionPool> | null = null;
  private readonly resources = new Map<ResourceDef, PreparedResource>();
  private readonly systemDatabase: string;
  /** Put before every batch: SET LOCK_TIMEOUT holds for the sp_executesql batch it starts. */
  private readonly lockTimeout: string;

  constructor(connection: string, options: MssqlWriterOptions = {}) {
    const systemDatabase = options.systemDatabase ?? DEFAULT_SYSTEM_DATABASE;
    // Written into statements (bracket-quoted), so checked as the read side checks it.
    if (!SYSTEM_DATABASE_NAME.test(systemDatabase)) throw new Error(`not a system database name: ${systemDatabase}`);
    this.systemDatabase = systemDatabase;
    const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    if (!Number.isSafeInteger(lockTimeoutMs) || lockTimeoutMs < 0) throw new Error(`not a lock timeout in milliseconds: ${lockTimeoutMs}`);
    this.lockTimeout = `SET LOCK_TIMEOUT ${lockTimeoutMs};\n`;
    const config = parseConnectionString(connection);
    this.pool = new sql.ConnectionPool({ ...poolConfig(config, {}), requestTimeout: options.requestTimeoutMs ?? WRITE_REQUEST_TIMEOUT_MS });
  }

  /** One batch; its last result set is its status row(s). */
  private async run(on: Runner, batch: TsqlBatch): Promise<Record<string, unknown>[]> {
    const result = await bindParams(on.request(), batch.params).query(this.lockTimeout + batch.sql);
    return (result.recordsets as unknown as Record<string, unknown>[][]).at(-1) ?? [];
  }

  private connected(): Promise<sql.ConnectionPool> {
    this.connecting ??= this.pool.connect().catch((error: unknown) => {
      this.connecting = null;
      throw new AgentError(
        'ERP_UNAVAILABLE',
        'The GP database is not answering the agent; the agent log says why.',
        (error as Error).message,
      );
    });
    return this.connecting;
  }

  private async company(pool: sql.ConnectionPool, company: string): Promise<string> {
    const id = company.toUpperCase();
    const rows = await select(pool, {
      sql: `SELECT 1 FROM [${this.systemDatabase}].[dbo].[SY01500] WHERE [INTERID] = @p0`,
      params: [{ value: id, type: { kind: 'varchar', length: 5 } }],
    });
    if (!COMPANY_ID.test(id) || rows.length === 0) throw new AgentError('VALIDATION_ERROR', 'unknown company');
    return id;
  }

  private async journal(on: Runner, company: string, operationId: string): Promise<{ state: string; answer: string | null } | null> {
    const [row] = await select(on, {
      sql: `SELECT [STATE], [ANSWER] FROM [${company}].[dbo].[${JOURNAL_TABLE}] WHERE [OPERATION_ID] = @p0`,
      params: [{ value: operationId, type: { kind: 'varchar', length: 64 } }],
    });
    return row ? { state: String(row[0]), answer: row[1] === null ? null : String(row[1]) } : null;
  }

  async write(request: Request, afterCommit?: () => void): Promise<Done> {
    const pool = await this.connected();
    let company: string | null = null;
    let committing = false;
    try {
      company = await this.company(pool, request.company);
      return await this.attempt(pool, company, request, afterCommit, () => (committing = true));
    } catch (error) {
      const failure = writeFailure(error);
      // The connection failed while COMMIT was on its way: whether it committed is the journal's to say, not a guess.
      if (committing && company !== null && failure instanceof AgentError && failure.code === 'ERP_UNAVAILABLE') {
        const known = await this.journal(pool, company, request.operationId).catch(() => null);
        if (known?.state === 'committed') return { outcome: 'created', answer: known.answer };
      }
      throw failure;
    }
  }

  private async attempt(
    pool: sql.ConnectionPool,
    company: string,
    request: Request,
    afterCommit: (() => void) | undefined,
    committing: () => void,
  ): Promise<Done> {
    const known = await this.journal(pool, company, request.operationId);
    if (known) return replayFromJournal(known, request.operationId);
    // Every reference checked against GP before a number is taken or a procedure called (references/describe.ts).
    await checkReferencesMssql(() => pool.request(), company, request.object, request.body, this.systemDatabase);
    await this.refuseExisting(pool, company, request);
    const plan = econnectWrite(request.object, request.body, request.operationId, company);
    let number: string | null = null;
    // A real write takes its number for good, in its own short transaction, as eConnect does;
    // validate-only takes none: it reads the next one without a lock (econnect.ts peekStep).
    if (plan.numbers && !request.validateOnly) number = await this.takeNumber(pool, plan.numbers);
    if (plan.peek && request.validateOnly) number = this.numberOf((await this.run(pool, plan.peek))[0]);
    const tx = new sql.Transaction(pool);
    await tx.begin(sql.ISOLATION_LEVEL.READ_COMMITTED);
    let open = true;
    try {
      const [status] = await this.run(tx, plan.main(number));
      if (status?.stopped === 'journal') {
        await tx.rollback();
        open = false;
        return replayFromJournal((await this.journal(pool, company, request.operationId))!, request.operationId);
      }
      if (status?.stopped === 'gp') {
        await tx.rollback();
        open = false;
        throw await this.gpRefusal(pool, String(status.procedure), String(status.codes ?? ''), Number(status.state));
      }
      if (status?.stopped !== 'ok') throw new Error(`the write's batch ended without its status row (${JSON.stringify(status)})`);
      const { id, answer } = await this.readBack(tx, company, request, number);
      if (request.validateOnly) {
        await tx.rollback();
        open = false;
        return { outcome: 'validated', answer };
      }
      // The answer as nvarchar(max), like the journal's column: names keep every character.
      await tx
        .request()
        .input('op', sql.VarChar(64), request.operationId)
        .input('object', sql.VarChar(40), request.object)
        .input('id', sql.VarChar(100), id)
        .input('answer', sql.NVarChar(sql.MAX), answer)
        .query(
          `INSERT INTO [${company}].[dbo].[${JOURNAL_TABLE}] ([OPERATION_ID], [OBJECT_NAME], [CREATED_ID], [STATE], [ANSWER]) ` +
            "VALUES (@op, @object, @id, 'committed', @answer)",
        );
      committing();
      await tx.commit();
      open = false;
      afterCommit?.();
      return { outcome: 'created', answer };
    } finally {
      if (open) await tx.rollback().catch(() => {});
    }
  }

  async outcome(companyId: string, operationId: string): Promise<Done> {
    try {
      return await this.settle(companyId, operationId);
    } catch (error) {
      throw writeFailure(error);
    }
  }

  private async settle(companyId: string, operationId: string): Promise<Done> {
    const pool = await this.connected();
    const company = await this.company(pool, companyId);
    // Inserting the abandoned row fences the operation: its write, should it still run, fails on the key.
    const [row] = await select(pool, {
      sql:
        `BEGIN TRY INSERT INTO [${company}].[dbo].[${JOURNAL_TABLE}] ([OPERATION_ID], [OBJECT_NAME], [STATE]) VALUES (@p0, '', 'abandoned'); ` +
        "SELECT 'abandoned' END TRY BEGIN CATCH IF ERROR_NUMBER() NOT IN (2627, 2601) THROW; SELECT 'known' END CATCH",
      params: [{ value: operationId, type: { kind: 'varchar', length: 64 } }],
    });
    if (row?.[0] === 'abandoned') return { outcome: 'not_executed', answer: null };
    const known = (await this.journal(pool, company, operationId))!;
    return known.state === 'committed' ? { outcome: 'replayed', answer: known.answer } : { outcome: 'not_executed', answer: null };
  }

  /**
   * GP's numbering procedure in a transaction the driver begins and ends: committed when the status
   * row carries a number, rolled back (by the driver, never inside the batch) when GP refused.
   */
  private async takeNumber(pool: sql.ConnectionPool, batch: TsqlBatch): Promise<string> {
    const tx = new sql.Transaction(pool);
    await tx.begin(sql.ISOLATION_LEVEL.READ_COMMITTED);
    let open = true;
    try {
      const [row] = await this.run(tx, batch);
      const number = this.numberOf(row);
      open = false;
      await tx.commit();
      return number;
    } finally {
      if (open) await tx.rollback().catch(() => {});
    }
  }

  private numberOf(row: Record<string, unknown> | undefined): string {
    if (!row || Number(row.state) !== 0 || !row.number)
      throw new AgentError('VALIDATION_ERROR', `GP could not give the next number (error ${String(row?.state)})`);
    return String(row.number).trimEnd();
  }

  private async gpRefusal(pool: sql.ConnectionPool, procedure: string, codes: string, state: number): Promise<AgentError> {
    const numbers = [
      ...new Set(
        codes
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number)
          .concat(state ? [state] : []),
      ),
    ].filter(Number.isSafeInteger);
    const words = new Map<number, string>();
    if (numbers.length) {
      const rows = await select(pool, {
        sql: `SELECT [ErrorCode], RTRIM([ErrorDesc]) FROM [${this.systemDatabase}].[dbo].[taErrorCode] WHERE [ErrorCode] IN (${numbers.map((_, i) => `@p${i}`).join(', ')})`,
        params: numbers.map((value) => ({ value, type: { kind: 'int' } })),
      }).catch(() => []);
      for (const [code, text] of rows) words.set(Number(code), String(text));
    }
    const gp = numbers.map((code) => ({ code, message: words.get(code) ?? 'GP gave no description for this code' }));
    return new AgentError('VALIDATION_ERROR', `GP refused the record (${procedure}): see details.gp`, null, { gp });
  }

  /** 409 before GP is called: an id or number that exists (eConnect would update it, or fail with a code). */
  private async refuseExisting(pool: sql.ConnectionPool, company: string, request: Request): Promise<void> {
    const body = request.body;
    const checks: Array<[string, string, Record<string, string | number>]> = [];
    if (request.object === 'customers')
      checks.push([`a customer ${String(body.id)} already exists`, 'RM00101', { CUSTNMBR: String(body.id) }]);
    if (request.object === 'vendors') checks.push([`a vendor ${String(body.id)} already exists`, 'PM00200', { VENDORID: String(body.id) }]);
    if (request.object === 'customer-addresses')
      checks.push(['that address already exists', 'RM00102', { CUSTNMBR: String(body.customerId), ADRSCODE: String(body.code) }]);
    if (request.object === 'vendor-addresses')
      checks.push(['that address already exists', 'PM00300', { VENDORID: String(body.vendorId), ADRSCODE: String(body.code) }]);
    for (const [message, table, where] of checks) {
      const columns = Object.keys(where);
      const rows = await select(pool, {
        sql: `SELECT TOP (1) 1 FROM [${company}].[dbo].[${table}] WHERE ${columns.map((c, i) => `[${c}] = @p${i}`).join(' AND ')}`,
        params: columns.map((c) => ({ value: where[c]!, type: { kind: 'varchar', length: 64 } })),
      });
      if (rows.length) throw alreadyExists(request.object, message);
    }
  }

  private prepared(def: ResourceDef): PreparedResource {
    let resource = this.resources.get(def);
    if (!resource) this.resources.set(def, (resource = new PreparedResource(def, mssqlDialect)));
    return resource;
  }

  /** The created record as a GET answers it, read inside the write's transaction. */
  private async readBack(
    tx: sql.Transaction,
    company: string,
    request: Request,
    number: string | null,
  ): Promise<{ id: string; answer: string }> {
    const body = request.body;
    const one = async (def: ResourceDef, parts: string[]) => {
      const resource = this.prepared(def);
      for (const query of resource.getQueries(company, parts)) {
        const [row] = await select(tx, renderSelect(query, mssqlDialect));
        if (row) return resource.encode(row);
      }
      throw new AgentError('INTERNAL_ERROR', `GP accepted the ${request.object} but it cannot be read back`);
    };
    switch (request.object) {
      case 'customers':
      case 'vendors':
        return { id: String(body.id), answer: await one(CATALOGUE[request.object], [String(body.id)]) };
      case 'customer-addresses':
      case 'vendor-addresses': {
        const owner = String(body.customerId ?? body.vendorId);
        return { id: `${owner}:${String(body.code)}`, answer: await one(CATALOGUE[request.object], [owner, String(body.code)]) };
      }
      case 'sales-orders': {
        const parts = [String(body.type ?? 'order'), number ?? String(body.number)];
        return { id: parts.join(':'), answer: await one(CATALOGUE['sales-orders'], parts) };
      }
      case 'ar-invoices': {
        const parts = [String(body.type ?? 'invoice'), number ?? String(body.documentNumber)];
        return { id: parts.join(':'), answer: await one(unpostedArInvoices, parts) };
      }
      case 'ap-invoices': {
        const parts = [String(body.type ?? 'invoice'), number ?? String(body.voucherNumber)];
        return { id: parts.join(':'), answer: await one(unpostedApInvoices, parts) };
      }
      case 'gl-entries': {
        const resource = this.prepared(unpostedGlEntries);
        const rows: string[] = [];
        for (const { query } of resource.listQueries(company, { journalEntryNumber: Number(number) }, 1000, null))
          for (const row of await select(tx, renderSelect(query, mssqlDialect))) rows.push(resource.encode(row));
        return { id: String(number), answer: `[${rows.join(',')}]` };
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => {});
  }
}
