import sql from 'mssql';
import { type WritableObjectName, type WriteBody, type WriteOutcome } from '@gp-gateway/protocol';
import { CATALOGUE } from '../../catalogue/index.ts';
import { PreparedResource } from '../../catalogue/compile.ts';
import { unpostedApInvoices, unpostedArInvoices, unpostedGlEntries } from '../../catalogue/resources/work.ts';
import type { ResourceDef } from '../../catalogue/types.ts';
import { COMPANY_ID, SYSTEM_DATABASE } from '../../db/executor.ts';
import { bindValue, parseConnectionString, poolConfig, sqlTypeOf } from '../../db/mssqlExecutor.ts';
import type { CompiledQuery } from '../../sql/model.ts';
import { mssqlDialect } from '../../sql/mssqlDialect.ts';
import { renderSelect } from '../../sql/render.ts';
import { AgentError } from '../../service/agentError.ts';
import { JOURNAL_TABLE, replayFromJournal } from '../journal.ts';
import { alreadyExists } from '../refusals.ts';
import type { Writer } from '../writeService.ts';
import { bindParams } from './bindParams.ts';
import { econnectWrite, type TsqlBatch } from './econnect.ts';
import { checkReferencesMssql } from '../references/mssql.ts';

type Done = { outcome: WriteOutcome; answer: string | null };
type Request = { object: WritableObjectName; company: string; operationId: string; body: WriteBody; validateOnly: boolean };
type Runner = { request(): sql.Request };

async function run(on: Runner, batch: TsqlBatch): Promise<Record<string, unknown>[]> {
  const result = await bindParams(on.request(), batch.params).query(batch.sql);
  return (result.recordsets as unknown as Record<string, unknown>[][]).at(-1) ?? [];
}

async function select(on: Runner, query: CompiledQuery): Promise<unknown[][]> {
  const request = on.request();
  request.arrayRowMode = true;
  query.params.forEach((param, i) => request.input(`p${i}`, sqlTypeOf(param), bindValue(param)));
  const result = await request.query(query.sql);
  return (result.recordset ?? []) as unknown as unknown[][];
}

/**
 * Writes on SQL Server through GP's eConnect procedures (econnect.ts; docs/decisions.md#writes-on-the-agent).
 * Broken references are refused first (400, each named in details.issues, as on the embedded
 * database), then an id or number that exists (409); the document's number is taken in its own
 * transaction (validate-only: inside the write's, and rolled back with it); then, in one transaction,
 * the calls, the record read back through the catalogue, and the journal row; COMMIT. GP's own
 * refusals come back as its error codes, with their words from DYNAMICS..taErrorCode.
 */
export class MssqlWriter implements Writer {
  private readonly pool: sql.ConnectionPool;
  private connecting: Promise<sql.ConnectionPool> | null = null;
  private readonly resources = new Map<ResourceDef, PreparedResource>();

  constructor(connection: string) {
    this.pool = new sql.ConnectionPool(poolConfig(parseConnectionString(connection), {}));
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
      sql: `SELECT 1 FROM [${SYSTEM_DATABASE}].[dbo].[SY01500] WHERE [INTERID] = @p0`,
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
    const company = await this.company(pool, request.company);
    const known = await this.journal(pool, company, request.operationId);
    if (known) return replayFromJournal(known, request.operationId);
    // Every reference checked against GP before a number is taken or a procedure called (references/describe.ts).
    await checkReferencesMssql(() => pool.request(), company, request.object, request.body);
    await this.refuseExisting(pool, company, request);
    const plan = econnectWrite(request.object, request.body, request.operationId, company);
    let number: string | null = null;
    // A real write takes its number for good, in its own short transaction, as eConnect does.
    if (plan.numbers && !request.validateOnly) number = await this.number(pool, plan.numbers);
    const tx = new sql.Transaction(pool);
    await tx.begin(sql.ISOLATION_LEVEL.READ_COMMITTED);
    let open = true;
    try {
      if (plan.numbers && request.validateOnly) number = await this.number(tx, plan.numbers);
      const [status] = await run(tx, plan.main(number));
      if (status?.stopped === 'journal') {
        open = false;
        return replayFromJournal((await this.journal(pool, company, request.operationId))!, request.operationId);
      }
      if (status?.stopped === 'gp') {
        open = false;
        throw await this.gpRefusal(pool, String(status.procedure), String(status.codes ?? ''), Number(status.state));
      }
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
      await tx.commit();
      open = false;
      afterCommit?.();
      return { outcome: 'created', answer };
    } finally {
      if (open) await tx.rollback().catch(() => {});
    }
  }

  async outcome(companyId: string, operationId: string): Promise<Done> {
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

  private async number(on: Runner, batch: TsqlBatch): Promise<string> {
    const [row] = await run(on, batch);
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
        sql: `SELECT [ErrorCode], RTRIM([ErrorDesc]) FROM [${SYSTEM_DATABASE}].[dbo].[taErrorCode] WHERE [ErrorCode] IN (${numbers.map((_, i) => `@p${i}`).join(', ')})`,
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
