import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import sql from 'mssql';
import { checkWriteBody, WRITABLE_OBJECT_NAMES, type WritableObjectName, type WriteBody } from '@gp-gateway/protocol';
import { demoDatabasePaths } from '@gp-gateway/gp-demo';
import { batchesOf } from '@gp-gateway/gp-demo/mssql';
import { MssqlExecutor } from '../apps/agent/src/db/mssqlExecutor.ts';
import { AgentError } from '../apps/agent/src/service/agentError.ts';
import { payloadText, ReadService } from '../apps/agent/src/service/readService.ts';
import { MSSQL_JOURNAL_DDL, JOURNAL_TABLE } from '../apps/agent/src/writes/journal.ts';
import { econnectWrite } from '../apps/agent/src/writes/mssql/econnect.ts';
import { MssqlWriter } from '../apps/agent/src/writes/mssql/mssqlWriter.ts';
import { runWriteChecks } from '../apps/agent/src/writes/writeCheck.ts';
import { WriteService } from '../apps/agent/src/writes/writeService.ts';
import {
  plannedCalls,
  recordedCallsSql,
  STAND_IN_REFUSAL,
  STAND_IN_SCRIPT,
  type Call,
} from '../apps/agent/src/writes/mssql/stand-in/standIn.ts';
import { loadDemoIntoReachableSqlServer } from './support/mssqlDemo.ts';
import { createAgentLogin } from './support/mssqlLogin.ts';

/**
 * Every write on SQL Server through MssqlWriter, when MSSQL_URL names a throwaway server (the suite
 * drops and recreates DYNAMICS, TWO and NWIND, like e2e/mssql.test.ts). GP's eConnect procedures are
 * not available there, so they are a STAND-IN (apps/agent/src/writes/mssql/stand-in/): procedures
 * with the signatures the writer calls, which record each call and insert the rows GP would insert.
 * What this proves is the writer's side: the batches run on a real server, the calls go in the
 * right order with the right parameters, the journal and the read-back, validate-only, replays, a
 * GP refusal turned into details.gp, broken references refused before any call. The writer runs as
 * a least-privilege login made by the scripts `gp-agent mssql grant-read` and `grant-write` print,
 * never as the administrator of MSSQL_URL, and the stand-in reaches into DYNAMICS where GP's
 * procedures do, so a grant missing from the scripts fails here. It does not prove that GP's real
 * eConnect accepts the calls (docs/decisions.md#writes-on-the-agent).
 */
const MSSQL_URL = process.env.MSSQL_URL;
if (!MSSQL_URL) {
  console.warn(
    '\n*** SKIPPED: SQL Server write suite (stand-in eConnect). Set MSSQL_URL (e.g. "Server=localhost,1433;User Id=sa;Password=…;Encrypt=false") to run it. ***\n',
  );
}

const COMPANY = 'TWO';
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** A field as read back equals what was sent: amounts by value ("80" is "80.00"; the amounts here are exact in a double), the rest as text. */
const sameValue = (read: unknown, sent: string) =>
  DECIMAL.test(sent) && DECIMAL.test(String(read)) ? Number(sent) === Number(read) : String(read) === sent;
let ids = 0;
const opId = () => `mssql-write-${process.pid}-${Date.now()}-${ids++}`;

describe('writes on SQL Server through the stand-in eConnect procedures', { skip: !MSSQL_URL && 'MSSQL_URL is not set' }, () => {
  let dir: string;
  let pool: sql.ConnectionPool;
  let writer: MssqlWriter;
  let executor: MssqlExecutor;
  let reads: ReadService;
  let dropLogin: () => Promise<void> = async () => {};
  const refs = {
    customers: [] as string[],
    vendors: [] as string[],
    items: [] as string[],
    accounts: [] as string[],
    /** An inventoried item (ITEMTYPE 1) priced in 2 decimals (DECPLCUR 3, GP's decimals + 1). */
    stockItem: '',
    /** An item sold by the each, whose schedule (EACH) also has a CASE; RETAIL prices both units, WHOLESALE the each only. */
    eachItem: '',
    /** A customer whose price level is WHOLESALE. */
    wholesaleCustomer: '',
    /** Active vendors that are (TEN99TYPE 2 and above) and are not (1) 1099 vendors. */
    ten99Vendor: '',
    notTen99Vendor: '',
    /** An inactive posting account (GL00100.ACTIVE 0, ACCTTYPE 1). */
    inactiveAccount: '',
  };

  before(async () => {
    const loaded = await loadDemoIntoReachableSqlServer(MSSQL_URL!, 'e2e-mssql-writes-');
    dir = loaded.dir;
    const demo = loaded.demo;
    const local = new Database(demoDatabasePaths(demo).companyDatabases[COMPANY]!, { readonly: true });
    const column = (query: string) => local.prepare(query).pluck().all() as string[];
    refs.customers = column('SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE INACTIVE = 0 ORDER BY CUSTNMBR LIMIT 3');
    refs.vendors = column('SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1 ORDER BY VENDORID LIMIT 2');
    refs.items = column('SELECT rtrim(ITEMNMBR) FROM IV00101 ORDER BY ITEMNMBR LIMIT 2');
    refs.stockItem = column('SELECT rtrim(ITEMNMBR) FROM IV00101 WHERE ITEMTYPE = 1 AND DECPLCUR = 3 ORDER BY ITEMNMBR LIMIT 1')[0]!;
    refs.accounts = column(
      'SELECT rtrim(n.ACTNUMST) FROM GL00105 n JOIN GL00100 a ON a.ACTINDX = n.ACTINDX WHERE a.ACTIVE = 1 AND a.ACCTTYPE = 1 ORDER BY n.ACTINDX LIMIT 3',
    );
    refs.eachItem = column(
      "SELECT rtrim(ITEMNMBR) FROM IV00101 WHERE rtrim(SELNGUOM) = 'EACH' AND INACTIVE = 0 AND rtrim(PRCLEVEL) = 'RETAIL' ORDER BY ITEMNMBR LIMIT 1",
    )[0]!;
    refs.wholesaleCustomer = column(
      "SELECT rtrim(CUSTNMBR) FROM RM00101 WHERE rtrim(PRCLEVEL) = 'WHOLESALE' AND INACTIVE = 0 AND HOLD = 0 ORDER BY CUSTNMBR LIMIT 1",
    )[0]!;
    refs.ten99Vendor = column('SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1 AND TEN99TYPE >= 2 ORDER BY VENDORID LIMIT 1')[0]!;
    refs.notTen99Vendor = column('SELECT rtrim(VENDORID) FROM PM00200 WHERE VENDSTTS = 1 AND TEN99TYPE = 1 ORDER BY VENDORID LIMIT 1')[0]!;
    refs.inactiveAccount = column(
      'SELECT rtrim(n.ACTNUMST) FROM GL00105 n JOIN GL00100 a ON a.ACTINDX = n.ACTINDX WHERE a.ACTIVE = 0 AND a.ACCTTYPE = 1 ORDER BY n.ACTINDX LIMIT 1',
    )[0]!;
    local.close();
    // One connection, so that `USE [TWO]` applies to the script's batches (procedures are created in the current database).
    const config = (sql.ConnectionPool as unknown as { parseConnectionString(s: string): sql.config }).parseConnectionString(MSSQL_URL!);
    pool = await new sql.ConnectionPool({ ...config, pool: { min: 1, max: 1 } }).connect();
    await pool.request().batch(`USE [${COMPANY}]`);
    for (const batch of batchesOf(fs.readFileSync(STAND_IN_SCRIPT, 'utf8'))) await pool.request().batch(batch);
    await pool.request().batch(MSSQL_JOURNAL_DDL);
    // The agent's login as a customer's DBA makes it: the read and write role scripts, nothing more.
    const agent = await createAgentLogin(pool, MSSQL_URL!, [COMPANY]);
    dropLogin = agent.drop;
    await pool.request().batch(`USE [${COMPANY}]`);
    writer = new MssqlWriter(agent.connection);
    executor = new MssqlExecutor(agent.connection);
    reads = new ReadService(executor);
  });

  after(async () => {
    await writer?.close();
    await executor?.close();
    await dropLogin().catch(() => {});
    await pool?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A body as the protocol checks it (the gateway and the agent both run these checks before a writer sees it). */
  const checked = (object: WritableObjectName, body: Record<string, unknown>): WriteBody => {
    const result = checkWriteBody(object, body);
    assert.ok(result.ok, JSON.stringify(result));
    return result.body;
  };

  const write = (object: WritableObjectName, body: WriteBody, options: { operationId?: string; validateOnly?: boolean } = {}) =>
    writer.write({
      object,
      company: COMPANY,
      operationId: options.operationId ?? opId(),
      body,
      validateOnly: options.validateOnly ?? false,
    });

  async function refusal(promise: Promise<unknown>): Promise<AgentError> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AgentError) return error;
      throw error;
    }
    assert.fail('the write was not refused');
  }

  /** The calls the stand-in recorded after call `since`. */
  async function callsSince(since: number): Promise<Call[]> {
    const rows = (await pool.request().query(recordedCallsSql(COMPANY))).recordset as {
      call: number;
      procedure: string;
      name: string | null;
      value: string | null;
    }[];
    const calls = new Map<number, Call>();
    for (const row of rows.filter((r) => r.call > since)) {
      const call = calls.get(row.call) ?? { procedure: row.procedure, parameters: {} };
      if (row.name !== null) call.parameters[row.name] = row.value ?? '';
      calls.set(row.call, call);
    }
    return [...calls.values()];
  }

  const lastCall = async () =>
    Number(
      (await pool.request().query(`SELECT COALESCE(MAX([CALL_ID]), 0) AS [id] FROM [${COMPANY}].[dbo].[GPGW_STANDIN_CALLS]`)).recordset[0]
        .id,
    );

  /** Every table a write can change, summarised: equal before and after, nothing changed. */
  async function fingerprint(): Promise<string> {
    const tables = [
      'RM00101',
      'RM00102',
      'RM00103',
      'PM00200',
      'PM00300',
      'SOP10100',
      'SOP10200',
      'RM10301',
      'PM10000',
      'RM10101',
      'PM10100',
      'GL10000',
      'GL10001',
    ].concat(['SY00500', 'SOP40200', 'RM40401', 'PM40100', 'GL40000', 'GPGW_STANDIN_CALLS', 'GPGW_STANDIN_PARAMETERS', JOURNAL_TABLE]);
    const parts = await Promise.all(
      tables.map(async (table) => {
        const result = await pool
          .request()
          .query(`SELECT COUNT_BIG(*) AS [n], CHECKSUM_AGG(BINARY_CHECKSUM(*)) AS [sum] FROM [${COMPANY}].[dbo].[${table}]`);
        return `${table}:${String(result.recordset[0].n)}:${String(result.recordset[0].sum)}`;
      }),
    );
    return parts.join(' ');
  }

  async function journalRow(operationId: string) {
    const result = await pool
      .request()
      .input('op', sql.VarChar(64), operationId)
      .query(`SELECT [OBJECT_NAME], [CREATED_ID], [STATE], [ANSWER] FROM [${COMPANY}].[dbo].[${JOURNAL_TABLE}] WHERE [OPERATION_ID] = @op`);
    return result.recordset[0] as { OBJECT_NAME: string; CREATED_ID: string; STATE: string; ANSWER: string } | undefined;
  }

  async function get(object: string, id: string): Promise<unknown> {
    return JSON.parse(payloadText((await reads.handle({ kind: 'get', object: object as never, company: COMPANY, id })).payload));
  }

  /** Bodies of every writable object, against the loaded demo. */
  const bodies = (): Record<WritableObjectName, Record<string, unknown>> => ({
    customers: {
      id: 'MSSQLAPI0001',
      name: 'SQL Server API customer',
      paymentTermsId: 'Net 30',
      currencyId: 'Z-US$',
      creditLimit: '2500.00',
    },
    'customer-addresses': { customerId: refs.customers[0], code: 'MSSQL-SHIP', line1: '1 Test Way', city: 'Chicago', postalCode: '60601' },
    vendors: { id: 'MSSQLVEND', name: 'SQL Server API vendor', paymentTermsId: 'Net 30' },
    'vendor-addresses': { vendorId: refs.vendors[0], code: 'MSSQL-REMIT', line1: 'PO Box 1', city: 'Fargo' },
    'sales-orders': {
      docTypeId: 'STDORD',
      customerId: refs.customers[0],
      date: '2026-11-20',
      batchId: 'MSSQL-ORDERS',
      siteId: 'WAREHOUSE',
      freightAmount: '12.50',
      lines: [
        { itemId: refs.items[0], quantity: '2', unitPrice: '19.99' },
        { itemId: refs.items[1], quantity: '1.5', unitPrice: '100', description: 'Special' },
      ],
    },
    'ar-invoices': { customerId: refs.customers[1], date: '2026-11-21', salesAmount: '1000.00', freightAmount: '80', batchId: 'MSSQL-RM' },
    'ap-invoices': {
      vendorId: refs.vendors[1],
      vendorDocumentNumber: 'MSSQL-INV-1',
      date: '2026-11-21',
      purchasesAmount: '500.5',
      batchId: 'MSSQL-PM',
    },
    'gl-entries': {
      reference: 'SQL Server accrual',
      date: '2026-11-22',
      batchId: 'MSSQL-GL',
      lines: [
        { accountNumber: refs.accounts[0], debit: '100.00', lineDescription: 'one' },
        { accountNumber: refs.accounts[1], credit: '100.00' },
      ],
    },
  });

  /** The number a created document took, from its answer (null for records with ids of their own). */
  function numberOf(object: WritableObjectName, answer: unknown): string | null {
    const record = answer as Record<string, unknown>;
    if (object === 'sales-orders') return String(record.number);
    if (object === 'ar-invoices') return String(record.documentNumber);
    if (object === 'ap-invoices') return String(record.voucherNumber);
    if (object === 'gl-entries') return String((answer as { journalEntryNumber: number }[])[0]!.journalEntryNumber);
    return null;
  }

  /** How each created record reads back through the read path, after the write committed. */
  async function readBack(object: WritableObjectName, body: WriteBody, answer: unknown): Promise<unknown> {
    const number = numberOf(object, answer);
    switch (object) {
      case 'customers':
      case 'vendors':
        return get(object, String(body.id));
      case 'customer-addresses':
        return get(object, `${String(body.customerId)}:${String(body.code)}`);
      case 'vendor-addresses':
        return get(object, `${String(body.vendorId)}:${String(body.code)}`);
      case 'sales-orders':
        return get(object, `order:${number}`);
      case 'ar-invoices':
      case 'ap-invoices':
        return get(object, `invoice:${number}`);
      case 'gl-entries': {
        const page = await reads.handle({
          kind: 'list',
          object: 'gl-entries',
          company: COMPANY,
          filters: { year: 'unposted', journalEntryNumber: Number(number) },
          limit: 1000,
          after: null,
        });
        return JSON.parse(payloadText(page.payload));
      }
    }
  }

  for (const object of Object.keys(bodies()) as WritableObjectName[]) {
    test(`${object}: validate-only changes nothing; then created through the calls in order, journalled, read back; the same operation id replays`, async () => {
      const body = checked(object, bodies()[object]);
      const before = await fingerprint();
      const validated = await write(object, body, { validateOnly: true });
      assert.equal(validated.outcome, 'validated');
      assert.equal(await fingerprint(), before, 'validate-only left the database as it was (numbers, calls, journal included)');

      const since = await lastCall();
      const operationId = opId();
      const created = await write(object, body, { operationId });
      assert.equal(created.outcome, 'created');
      const answer = JSON.parse(created.answer!) as unknown;

      // The calls: the number step first (its own transaction), then the procedures, lines before headers.
      const plan = econnectWrite(object, body, operationId, COMPANY);
      const number = numberOf(object, answer);
      const expected = [...(plan.numbers ? plannedCalls(plan.numbers) : []), ...plannedCalls(plan.main(number))];
      assert.deepEqual(await callsSince(since), expected);

      const journal = await journalRow(operationId);
      assert.equal(journal?.STATE, 'committed');
      assert.equal(journal?.OBJECT_NAME, object);
      assert.equal(journal?.ANSWER, created.answer);
      assert.deepEqual(await readBack(object, body, answer), answer, 'a later GET answers what the write answered');
      // What was sent reads back (the fields a record has under the same names).
      const record = (Array.isArray(answer) ? answer[0] : answer) as Record<string, unknown>;
      for (const [field, value] of Object.entries(body))
        if (field !== 'lines' && field in record && typeof value === 'string' && !/Id$|^id$/.test(field))
          assert.ok(sameValue(record[field], value), `${object}.${field}: sent ${value}, read back ${String(record[field])}`);

      const settled = await fingerprint();
      const again = await write(object, { ...body }, { operationId });
      assert.deepEqual(again, { outcome: 'replayed', answer: created.answer });
      assert.equal(await fingerprint(), settled, 'a replay writes nothing and calls nothing');
    });
  }

  test('a refusal from GP (the stand-in refuses a marked customer) comes back as details.gp, and nothing is left', async () => {
    const before = await fingerprint();
    const refused = await refusal(write('customers', checked('customers', { id: 'MSSQLREFUSE', name: STAND_IN_REFUSAL.customerName })));
    assert.equal(refused.code, 'VALIDATION_ERROR');
    assert.deepEqual((refused.details as { gp: unknown }).gp, STAND_IN_REFUSAL.gp);
    assert.equal(await fingerprint(), before, 'the call, the customer and the journal row were rolled back together');
  });

  test('broken references are refused before any procedure is called, each named in details.issues', async () => {
    const before = await fingerprint();
    const order = bodies()['sales-orders'] as { lines: Record<string, unknown>[] };
    const broken = await refusal(
      write(
        'sales-orders',
        checked('sales-orders', {
          ...order,
          customerId: 'NOSUCHCUSTOMER',
          siteId: 'NOWHERE',
          lines: [order.lines[0], { ...order.lines[1], itemId: 'NO-SUCH-ITEM' }],
        }),
      ),
    );
    assert.equal(broken.code, 'VALIDATION_ERROR');
    assert.deepEqual((broken.details as { issues: unknown[] }).issues, [
      { path: 'customerId', message: 'no customer with this id' },
      { path: 'siteId', message: 'no site with this id' },
      { path: 'lines.1.itemId', message: 'no item with this id' },
    ]);
    const gl = await refusal(
      write(
        'gl-entries',
        checked('gl-entries', {
          reference: 'x',
          date: '2026-11-22',
          batchId: 'MSSQL-ORDERS',
          lines: [
            { accountNumber: '999-9999-99', debit: '1' },
            { accountNumber: refs.accounts[0], credit: '1' },
          ],
        }),
      ),
    );
    assert.deepEqual((gl.details as { issues: unknown[] }).issues, [
      { path: 'lines.0.accountNumber', message: 'no account with this number' },
    ]);
    const currency = await refusal(
      write('customers', checked('customers', { id: 'MSSQLNEW', name: 'x', paymentTermsId: 'Net 999', currencyId: 'Z-XX$' })),
    );
    assert.deepEqual((currency.details as { issues: unknown[] }).issues, [
      { path: 'paymentTermsId', message: 'no payment terms with this id' },
      { path: 'currencyId', message: 'no currency with this id' },
    ]);
    assert.equal(await fingerprint(), before, 'no number taken, no procedure called, nothing written');
  });

  /** Runs `change` as the administrator, then `work`, then `restore`, whatever `work` did (GRANT and REVOKE name objects of the current database only). */
  async function withChange<T>(change: string, restore: string, work: () => Promise<T>): Promise<T> {
    await pool.request().batch(change);
    try {
      return await work();
    } finally {
      await pool.request().batch(restore);
    }
  }

  test("a grant missing from the write role fails as on GP: 403 naming it, nothing left (the stand-in executes DYNAMICS..tasmGetNextNoteIndex, as GP's taUpdateCreateCustomerRcd does)", async () => {
    const before = await fingerprint();
    const denied = await withChange(
      `USE [DYNAMICS]; REVOKE EXECUTE ON [dbo].[tasmGetNextNoteIndex] FROM [gp_gateway_write]; USE [${COMPANY}];`,
      `USE [DYNAMICS]; GRANT EXECUTE ON [dbo].[tasmGetNextNoteIndex] TO [gp_gateway_write]; USE [${COMPANY}];`,
      () => refusal(write('customers', checked('customers', { id: 'MSSQLNOGRANT', name: 'no grant' }))),
    );
    assert.equal(denied.code, 'FORBIDDEN');
    assert.match(denied.message, /lacks EXECUTE on DYNAMICS\.\.tasmGetNextNoteIndex: run the script `gp-agent mssql grant-write` prints/);
    const sop = await withChange(
      `USE [DYNAMICS]; REVOKE SELECT ON [dbo].[SY05501] FROM [gp_gateway_write]; USE [${COMPANY}];`,
      `USE [DYNAMICS]; GRANT SELECT ON [dbo].[SY05501] TO [gp_gateway_write]; USE [${COMPANY}];`,
      // Validate-only: it takes no number, so nothing at all may change.
      () => refusal(write('sales-orders', checked('sales-orders', bodies()['sales-orders']), { validateOnly: true })),
    );
    assert.equal(sop.code, 'FORBIDDEN');
    assert.match(sop.message, /lacks SELECT on DYNAMICS\.\.SY05501/);
    assert.equal(await fingerprint(), before, 'the transaction was rolled back by the driver');
  });

  test('the write check (gp-agent diagnose --writes) as the least-privilege login: every object works through the stand-in, nothing is written and no number taken; a revoked grant is named on the objects it stops', async () => {
    const before = await fingerprint();
    const writes = new WriteService(writer, { allowWrites: false, validateOnlyWhenOff: true });
    const works = await runWriteChecks(writes, reads, [COMPANY]);
    assert.deepEqual(
      works.companies[0]!.objects.map((o) => [o.object, o.status, o.message ?? '']),
      WRITABLE_OBJECT_NAMES.map((object) => [object, 'works', '']),
    );
    const denied = await withChange(
      `USE [DYNAMICS]; REVOKE EXECUTE ON [dbo].[tasmGetNextNoteIndex] FROM [gp_gateway_write]; USE [${COMPANY}];`,
      `USE [DYNAMICS]; GRANT EXECUTE ON [dbo].[tasmGetNextNoteIndex] TO [gp_gateway_write]; USE [${COMPANY}];`,
      () => runWriteChecks(writes, reads, [COMPANY]),
    );
    const customers = denied.companies[0]!.objects.find((o) => o.object === 'customers')!;
    assert.equal(customers.status, 'forbidden');
    assert.match(customers.message!, /lacks EXECUTE on DYNAMICS\.\.tasmGetNextNoteIndex/);
    assert.equal(await fingerprint(), before, 'validate-only: nothing written, no number taken');
  });

  test("GP's currency check (1305: not set up for the company in DYNAMICS..MC60100) comes back as details.gp, in a status row the driver read", async () => {
    const before = await fingerprint();
    const refused = await withChange(
      "DELETE FROM [DYNAMICS].[dbo].[MC60100] WHERE [CURNCYID] = 'Z-US$'",
      "INSERT INTO [DYNAMICS].[dbo].[MC60100] ([CMPANYID], [CURNCYID]) SELECT [CMPANYID], 'Z-US$' FROM [DYNAMICS].[dbo].[SY01500]",
      () => refusal(write('customers', checked('customers', { id: 'MSSQLNOCUR', name: 'x', currencyId: 'Z-US$' }))),
    );
    assert.equal(refused.code, 'VALIDATION_ERROR');
    assert.deepEqual(
      (refused.details as { gp: { code: number }[] }).gp.map((g) => g.code),
      [1305],
    );
    assert.equal(await fingerprint(), before);
  });

  test("receivables numbering through taGetPaymentNumber: GP's error 124 for a type without RM40401 row, and a used number skipped", async () => {
    const body = checked('ar-invoices', bodies()['ar-invoices']);
    const refused = await withChange(
      'UPDATE [TWO].[dbo].[RM40401] SET [RMDTYPAL] = 99 WHERE [RMDTYPAL] = 1',
      'UPDATE [TWO].[dbo].[RM40401] SET [RMDTYPAL] = 1 WHERE [RMDTYPAL] = 99',
      () => refusal(write('ar-invoices', body)),
    );
    assert.equal(refused.code, 'VALIDATION_ERROR');
    assert.match(refused.message, /GP could not give the next number \(error 124\)/);
    // A number a document already has is skipped, as GP's loop over RM00401 skips it.
    const next = String(
      (await pool.request().query('SELECT RTRIM([DOCNUMBR]) AS [n] FROM [TWO].[dbo].[RM40401] WHERE [RMDTYPAL] = 1')).recordset[0].n,
    );
    const taken = await write('ar-invoices', checked('ar-invoices', { ...bodies()['ar-invoices'], documentNumber: next }));
    assert.equal(taken.outcome, 'created');
    const numbered = JSON.parse((await write('ar-invoices', body)).answer!) as { documentNumber: string };
    assert.notEqual(numbered.documentNumber, next);
  });

  test("amounts as GP checks them: GP computes 1.5 × 19.99 as 29.99 at the currency's 2 decimals, the header sums the lines; a unit price with more decimals than the item's is GP's 4646", async () => {
    const order = bodies()['sales-orders'] as Record<string, unknown>;
    const created = await write(
      'sales-orders',
      checked('sales-orders', { ...order, lines: [{ itemId: refs.items[0], quantity: '1.5', unitPrice: '19.99' }] }),
    );
    const answer = JSON.parse(created.answer!) as { number: string; subtotal: string };
    const lines = (
      await pool
        .request()
        .input('n', sql.VarChar(21), answer.number)
        .query(`SELECT CAST([XTNDPRCE] AS varchar(30)) AS [x] FROM [${COMPANY}].[dbo].[SOP10200] WHERE [SOPTYPE] = 2 AND [SOPNUMBE] = @n`)
    ).recordset as { x: string }[];
    assert.deepEqual(
      lines.map((l) => l.x),
      ['29.99000'],
    );
    assert.ok(sameValue(answer.subtotal, '29.99'), `subtotal ${answer.subtotal}`);
    const before = await fingerprint();
    const refused = await refusal(
      write(
        'sales-orders',
        checked('sales-orders', { ...order, lines: [{ itemId: refs.stockItem, quantity: '1', unitPrice: '19.995' }] }),
        {
          validateOnly: true,
        },
      ),
    );
    assert.deepEqual(
      (refused.details as { gp: { code: number }[] }).gp.map((g) => g.code),
      [4646],
    );
    assert.equal(await fingerprint(), before);
  });

  test('a return passes its quantity back to stock on hand, which GP requires of an inventoried item (183)', async () => {
    const order = bodies()['sales-orders'] as Record<string, unknown>;
    const returned = await write(
      'sales-orders',
      checked('sales-orders', {
        ...order,
        type: 'return',
        docTypeId: 'STDRTN',
        lines: [{ itemId: refs.stockItem, quantity: '2', unitPrice: '19.99' }],
      }),
      { validateOnly: true },
    );
    assert.equal(returned.outcome, 'validated');
  });

  /** Runs `batch` against the stand-in as the administrator, in a transaction rolled back: the @state a procedure set (0: it took the call). */
  const call = async (batch: string) =>
    Number(
      (
        await pool
          .request()
          .query(`BEGIN TRAN; DECLARE @rc int, @state int = 0, @codes varchar(255) = ''; ${batch} SELECT @state AS [state]; ROLLBACK;`)
      ).recordset[0].state,
    );

  test("the stand-in refuses where GP's procedures refuse: 4647, 67, 183 and 866 when called without what GP requires", async () => {
    // Called directly (the writer never sends these): the stand-in's checks, which the findings above rest on.
    const customer = refs.customers[0]!;
    const item = refs.stockItem;
    const line = (extra: string) =>
      `EXEC @rc = [${COMPANY}].[dbo].[taSopLineIvcInsert] @I_vSOPTYPE = 2, @I_vSOPNUMBE = 'STANDIN-CHK', @I_vCUSTNMBR = '${customer}', @I_vDOCDATE = '2026-11-20', @I_vITEMNMBR = '${item}', @I_vDOCID = 'STDORD', ${extra}, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`;
    assert.equal(await call(line('@I_vQUANTITY = 1.5, @I_vUNITPRCE = 19.99, @I_vXTNDPRCE = 29.985')), 4647);
    assert.equal(await call(line('@I_vQUANTITY = 1.5, @I_vUNITPRCE = 19.99, @I_vDEFEXTPRICE = 1')), 0);
    assert.equal(
      await call(
        `${line('@I_vQUANTITY = 1, @I_vUNITPRCE = 10, @I_vDEFEXTPRICE = 1')} EXEC @rc = [${COMPANY}].[dbo].[taSopHdrIvcInsert] @I_vSOPTYPE = 2, @I_vSOPNUMBE = 'STANDIN-CHK', @I_vDOCID = 'STDORD', @I_vCUSTNMBR = '${customer}', @I_vDOCDATE = '2026-11-20', @I_vBACHNUMB = 'STANDIN-CHK', @I_vSUBTOTAL = 11, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`,
      ),
      67,
    );
    assert.equal(
      await call(
        `EXEC @rc = [${COMPANY}].[dbo].[taSopLineIvcInsert] @I_vSOPTYPE = 4, @I_vSOPNUMBE = 'STANDIN-RTN', @I_vCUSTNMBR = '${customer}', @I_vDOCDATE = '2026-11-20', @I_vITEMNMBR = '${item}', @I_vDOCID = 'STDRTN', @I_vQUANTITY = 2, @I_vUNITPRCE = 10, @I_vDEFEXTPRICE = 1, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`,
      ),
      183,
    );
    // GP computes the taxes (CREATETAXES = 1), so a tax amount passed with it is refused.
    assert.equal(
      await call(
        `${line('@I_vQUANTITY = 1, @I_vUNITPRCE = 10, @I_vDEFEXTPRICE = 1')} EXEC @rc = [${COMPANY}].[dbo].[taSopHdrIvcInsert] @I_vSOPTYPE = 2, @I_vSOPNUMBE = 'STANDIN-CHK', @I_vDOCID = 'STDORD', @I_vCUSTNMBR = '${customer}', @I_vDOCDATE = '2026-11-20', @I_vBACHNUMB = 'STANDIN-CHK', @I_vTAXAMNT = 1, @I_vDEFPRICING = 1, @I_vCREATETAXES = 1, @I_vDEFTAXSCHDS = 1, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`,
      ),
      866,
    );
  });

  /** The GP codes of a refusal from GP (details.gp), in the order GP answered them. */
  const gpCodes = (refused: AgentError) => (refused.details as { gp: { code: number }[] }).gp.map((g) => g.code);
  /** The issues of a refusal the agent made itself (details.issues), as `path: message`. */
  const issuesOf = (refused: AgentError) =>
    (refused.details as { issues: { path: string; message: string }[] }).issues.map((i) => `${i.path}: ${i.message}`);
  /** A write as the agent receives it: the body checked again by the protocol's own schema (WriteService), then the writer. */
  const agentWrite = (object: WritableObjectName, body: Record<string, unknown>) =>
    new WriteService(writer, { allowWrites: true }).write({
      kind: 'write',
      object,
      company: COMPANY,
      operationId: opId(),
      body,
      validateOnly: false,
    });

  test("a unit of measure not in the item's schedule (GP's 5313) and a price level without a price for the item in the unit (9177) come back from taSopLineIvcInsert as details.gp, and nothing is left", async () => {
    // Made by GP, not by the agent on SQL Server: both depend on the item's schedule and the level GP
    // settles on (docs/decisions.md#units-of-measure-and-price-levels). Validate-only, as a refused
    // real write leaves a gap in GP's numbering (docs/decisions.md, a failed write's number is a gap).
    const order = bodies()['sales-orders'] as Record<string, unknown>;
    const line = { itemId: refs.eachItem, quantity: '2', unitPrice: '10' };
    const sales = (lines: Record<string, unknown>[]) =>
      checked('sales-orders', { ...order, customerId: refs.wholesaleCustomer, lines: lines.map((l) => ({ ...line, ...l })) });
    // What the refused lines differ by is taken: a case at RETAIL, the each at WHOLESALE.
    const taken = await write('sales-orders', sales([{ unitOfMeasure: 'CASE', priceLevel: 'RETAIL' }, { priceLevel: 'WHOLESALE' }]), {
      validateOnly: true,
    });
    assert.equal(taken.outcome, 'validated');
    const before = await fingerprint();
    const unit = await refusal(write('sales-orders', sales([{ unitOfMeasure: 'PALLET' }]), { validateOnly: true }));
    assert.equal(unit.code, 'VALIDATION_ERROR');
    assert.deepEqual(gpCodes(unit), [5313]);
    // WHOLESALE prices the each only (the demo's price lists): a case at that level has no price.
    const price = await refusal(write('sales-orders', sales([{ unitOfMeasure: 'CASE', priceLevel: 'WHOLESALE' }]), { validateOnly: true }));
    assert.equal(price.code, 'VALIDATION_ERROR');
    assert.deepEqual(gpCodes(price), [9177]);
    // Absent, the level is the customer's (WHOLESALE) only where it prices the unit, else the item's (RETAIL): no 9177.
    const defaulted = await write('sales-orders', sales([{ unitOfMeasure: 'CASE' }]), { validateOnly: true });
    assert.equal(defaulted.outcome, 'validated');
    assert.equal(await fingerprint(), before, 'the calls were rolled back by the driver, no number taken');
  });

  test("a price level that does not exist (GP's 928) is refused by the agent's reference check before any call, naming the line", async () => {
    // The agent's check (references/describe.ts priceLevel, reading IV40800), not GP's: a real write,
    // refused before a number is taken or a procedure called (docs/decisions.md#units-of-measure-and-price-levels).
    const order = bodies()['sales-orders'] as { lines: Record<string, unknown>[] };
    const before = await fingerprint();
    const refused = await refusal(
      write('sales-orders', checked('sales-orders', { ...order, lines: [order.lines[0], { ...order.lines[1], priceLevel: 'NOSUCH' }] })),
    );
    assert.equal(refused.code, 'VALIDATION_ERROR');
    assert.deepEqual(issuesOf(refused), ['lines.1.priceLevel: no price level with this id (GP error 928)']);
    assert.equal(await fingerprint(), before, 'no number taken, no procedure called, nothing written');
  });

  test("the 1099 amount: a vendor that is not a 1099 vendor (GP's 713) is the agent's reference check; more than the purchases (714) and negative (5631) the agent's body check; each before any call", async () => {
    // None reaches taPMTransactionInsert (docs/decisions.md#the-1099-amount): 713 is a reference check
    // (references/describe.ts ten99Vendor, only above zero, as GP checks), 714 and 5631 are refused by
    // the protocol's checkWriteBody, which the agent runs again on every write (WriteService).
    const invoice = { ...bodies()['ap-invoices'], vendorId: refs.ten99Vendor, purchasesAmount: '800' };
    const before = await fingerprint();
    const notTen99 = await refusal(
      write(
        'ap-invoices',
        checked('ap-invoices', { ...invoice, vendorId: refs.notTen99Vendor, vendorDocumentNumber: 'MSSQL-713', ten99Amount: '1' }),
      ),
    );
    assert.equal(notTen99.code, 'VALIDATION_ERROR');
    assert.deepEqual(issuesOf(notTen99), [
      'ten99Amount: the vendor is not a 1099 vendor (its ten99Type is none): GP refuses a 1099 amount for it (error 713)',
    ]);
    const above = await refusal(agentWrite('ap-invoices', { ...invoice, vendorDocumentNumber: 'MSSQL-714', ten99Amount: '800.01' }));
    assert.equal(above.code, 'VALIDATION_ERROR');
    assert.deepEqual(issuesOf(above), ['ten99Amount: more than purchasesAmount: GP refuses a 1099 amount above the purchases (error 714)']);
    const negative = await refusal(agentWrite('ap-invoices', { ...invoice, vendorDocumentNumber: 'MSSQL-5631', ten99Amount: '-1' }));
    assert.equal(negative.code, 'VALIDATION_ERROR');
    assert.deepEqual(issuesOf(negative), ['ten99Amount: must not be negative']);
    assert.equal(await fingerprint(), before, 'no voucher number taken, no procedure called, nothing written');
    // What the refusals stop short of is taken: the 1099 vendor's amount up to the purchases.
    const taken = await write(
      'ap-invoices',
      checked('ap-invoices', { ...invoice, vendorDocumentNumber: 'MSSQL-1099', ten99Amount: '800' }),
      {
        validateOnly: true,
      },
    );
    assert.equal(taken.outcome, 'validated');
  });

  test("distribution lines: an unknown account (GP's 1340, 769) or an inactive one (9001) is the agent's reference check, lines that do not balance its body check; each before any call", async () => {
    // None reaches taRMDistribution or taPMDistribution (docs/decisions.md#distribution-lines): the
    // account is a reference check (references/describe.ts account, lines.N.accountNumber, before a
    // number is taken); balanced lines are the agent's own rule, in the protocol's checkWriteBody.
    const [first, second, third] = refs.accounts as [string, string, string];
    const ar = { ...bodies()['ar-invoices'], salesAmount: '100', freightAmount: '20' };
    const arLines = [
      { type: 'receivables', accountNumber: first, debit: '120' },
      { type: 'sales', accountNumber: second, credit: '100' },
      { type: 'freight', accountNumber: third, credit: '20' },
    ];
    const ap = { ...bodies()['ap-invoices'], vendorDocumentNumber: 'MSSQL-DIST', purchasesAmount: '75.5' };
    const apLines = [
      { type: 'purchases', accountNumber: second, debit: '75.5' },
      { type: 'payables', accountNumber: first, credit: '75.5' },
    ];
    const before = await fingerprint();
    const issues = async (object: 'ar-invoices' | 'ap-invoices', body: Record<string, unknown>) => {
      const refused = await refusal(write(object, checked(object, body)));
      assert.equal(refused.code, 'VALIDATION_ERROR');
      return issuesOf(refused);
    };
    assert.deepEqual(
      await issues('ar-invoices', { ...ar, lines: [{ ...arLines[0]!, accountNumber: '999-9999-99' }, ...arLines.slice(1)] }),
      ['lines.0.accountNumber: no account with this number'],
    );
    assert.deepEqual(
      await issues('ar-invoices', { ...ar, lines: [arLines[0]!, { ...arLines[1]!, accountNumber: refs.inactiveAccount }, arLines[2]!] }),
      ['lines.1.accountNumber: the account is inactive'],
    );
    assert.deepEqual(await issues('ap-invoices', { ...ap, lines: [{ ...apLines[0]!, accountNumber: '999-9999-99' }, apLines[1]!] }), [
      'lines.0.accountNumber: no account with this number',
    ]);
    assert.deepEqual(
      await issues('ap-invoices', { ...ap, lines: [apLines[0]!, { ...apLines[1]!, accountNumber: refs.inactiveAccount }] }),
      ['lines.1.accountNumber: the account is inactive'],
    );
    const unbalanced = await refusal(agentWrite('ap-invoices', { ...ap, lines: [apLines[0]!, { ...apLines[1]!, credit: '75' }] }));
    assert.equal(unbalanced.code, 'VALIDATION_ERROR');
    assert.deepEqual(issuesOf(unbalanced), ['lines: the distributions do not balance: debits and credits must be equal']);
    const unbalancedAr = await refusal(
      agentWrite('ar-invoices', { ...ar, lines: [arLines[0]!, arLines[1]!, { ...arLines[2]!, credit: '19' }] }),
    );
    assert.deepEqual(issuesOf(unbalancedAr), ['lines: the distributions do not balance: debits and credits must be equal']);
    assert.equal(await fingerprint(), before, 'no number taken, no procedure called, nothing written');
  });

  test("the stand-in refuses where GP's procedures refuse, also the checks the agent makes first: 713, 714, 5631, 928, 1340, 769 and 9001", async () => {
    // Called directly (the agent refuses these before any call, tests above): the stand-in still
    // answers as GP's taPMTransactionInsert, taSopLineIvcInsert, taRMDistribution and taPMDistribution do.
    const voucher = (vendor: string, amounts: string) =>
      `EXEC @rc = [${COMPANY}].[dbo].[taPMTransactionInsert] @I_vBACHNUMB = 'STANDIN-CHK', @I_vVCHNUMWK = 'STANDIN-CHK', @I_vVENDORID = '${vendor}', @I_vDOCNUMBR = 'STANDIN-CHK', @I_vDOCTYPE = 1, @I_vDOCDATE = '2026-11-21', ${amounts}, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`;
    assert.equal(await call(voucher(refs.ten99Vendor, '@I_vPRCHAMNT = 100, @I_vDOCAMNT = 100, @I_vTEN99AMNT = -1')), 5631);
    assert.equal(await call(voucher(refs.notTen99Vendor, '@I_vPRCHAMNT = 100, @I_vDOCAMNT = 100, @I_vTEN99AMNT = 1')), 713);
    assert.equal(await call(voucher(refs.ten99Vendor, '@I_vPRCHAMNT = 100, @I_vDOCAMNT = 100, @I_vTEN99AMNT = 100.01')), 714);
    assert.equal(await call(voucher(refs.ten99Vendor, '@I_vPRCHAMNT = 100, @I_vDOCAMNT = 100, @I_vTEN99AMNT = 100')), 0);
    assert.equal(
      await call(
        `EXEC @rc = [${COMPANY}].[dbo].[taSopLineIvcInsert] @I_vSOPTYPE = 2, @I_vSOPNUMBE = 'STANDIN-CHK', @I_vCUSTNMBR = '${refs.wholesaleCustomer}', @I_vDOCDATE = '2026-11-20', @I_vITEMNMBR = '${refs.eachItem}', @I_vDOCID = 'STDORD', @I_vQUANTITY = 1, @I_vUNITPRCE = 10, @I_vDEFEXTPRICE = 1, @I_vPRCLEVEL = 'NOSUCH', @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`,
      ),
      928,
    );
    const rm = (account: string) =>
      `EXEC @rc = [${COMPANY}].[dbo].[taRMDistribution] @I_vRMDTYPAL = 1, @I_vDOCNUMBR = 'STANDIN-CHK', @I_vCUSTNMBR = '${refs.customers[0]}', @I_vDISTTYPE = 3, @I_vACTNUMST = '${account}', @I_vDEBITAMT = 1, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`;
    const pm = (account: string) =>
      `EXEC @rc = [${COMPANY}].[dbo].[taPMDistribution] @I_vDOCTYPE = 1, @I_vVCHRNMBR = 'STANDIN-CHK', @I_vVENDORID = '${refs.vendors[0]}', @I_vDISTTYPE = 6, @I_vACTNUMST = '${account}', @I_vDEBITAMT = 1, @O_iErrorState = @state OUTPUT, @oErrString = @codes OUTPUT;`;
    assert.equal(await call(rm('999-9999-99')), 1340);
    assert.equal(await call(rm(refs.accounts[0]!)), 0);
    assert.equal(await call(pm('999-9999-99')), 769);
    assert.equal(await call(pm(refs.inactiveAccount)), 9001);
    assert.equal(await call(pm(refs.accounts[0]!)), 0);
  });
});
