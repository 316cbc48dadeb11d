import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { DatabaseConfigurationError, DatabaseUnavailableError, QueryCancelledError } from './executor.ts';
import sql from 'mssql';
import { MssqlExecutor, poolConfig, translate } from './mssqlExecutor.ts';

/**
 * Cancellation and error mapping against a real SQL Server, which cannot run on these machines:
 * set MSSQL_URL to an ADO-style connection string ("Server=host,1433;User Id=…;Password=…;
 * Encrypt=true;TrustServerCertificate=true") to run them. Without it they are skipped, loudly.
 */
const url = process.env.MSSQL_URL;
const skip = url
  ? false
  : 'SKIPPED LOUDLY: MSSQL_URL is not set, so SQL Server cancellation, row streaming and error mapping were NOT tested';
const executor = url ? new MssqlExecutor(url) : null;
after(async () => {
  await executor?.close();
});

test('an aborted query is cancelled on the server (request.cancel) and rejects with QueryCancelledError', { skip }, async () => {
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), 200);
  await assert.rejects(
    executor!.query(null, { sql: "WAITFOR DELAY '00:00:20'; SELECT 1", params: [] }, controller.signal),
    QueryCancelledError,
  );
  const ms = performance.now() - started;
  assert.ok(ms < 3000, `cancelled after ${Math.round(ms)} ms`);
  // The connection is usable again afterwards.
  assert.deepEqual(await executor!.query(null, { sql: 'SELECT 1', params: [] }), [[1]]);
});

test('a table the login cannot see is DatabaseUnavailableError, which the API answers as ERP_UNAVAILABLE', { skip }, async () => {
  await assert.rejects(executor!.checkReadable('master', 'NO_SUCH_GP_TABLE'), DatabaseUnavailableError);
});

test('a server that refuses the login is DatabaseUnavailableError', { skip }, async () => {
  const wrong = new MssqlExecutor(`${url};Password=certainly-not-the-password`);
  try {
    await assert.rejects(wrong.query(null, { sql: 'SELECT 1', params: [] }), DatabaseUnavailableError);
  } finally {
    await wrong.close().catch(() => {});
  }
});

/** 5,000 numbered rows, produced by SQL Server itself. */
const NUMBERS = {
  sql: 'SELECT TOP (5000) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n FROM sys.all_objects a CROSS JOIN sys.all_objects b',
  params: [],
};

test('rows are streamed to the caller in order, one array at a time', { skip }, async () => {
  const seen: unknown[][] = [];
  await executor!.forEachRow(null, NUMBERS, (row) => seen.push(row));
  assert.equal(seen.length, 5000);
  assert.deepEqual(seen.slice(0, 2), [[1], [2]]);
});

test('a failure while handling a streamed row cancels the statement and rejects with it', { skip }, async () => {
  let rows = 0;
  const failure = new Error('encoding failed');
  await assert.rejects(
    executor!.forEachRow(null, NUMBERS, () => {
      if (++rows === 10) throw failure;
    }),
    (error: unknown) => error === failure,
  );
  assert.equal(rows, 10, 'no row handed on after the failure');
  assert.deepEqual(await executor!.query(null, { sql: 'SELECT 1', params: [] }), [[1]]);
});

/**
 * This one needs no SQL Server: a socket that accepts and never answers is what a hung or
 * firewalled server looks like to tedious, which then waits out its connect timeout.
 */
test('while SQL Server cannot be reached, requests fail at once instead of each waiting out the connect timeout', async (t) => {
  // The executor's clock (Date) moves only when the test says; tedious's connect timeout runs on real timers.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  const unreachable = new MssqlExecutor(
    {
      server: '127.0.0.1',
      port,
      user: 'gp',
      password: 'x',
      connectionTimeout: 400,
      options: { encrypt: false, trustServerCertificate: true },
    },
    { retryConnectAfterMs: 1_000 },
  );
  const timed = async () => {
    const started = performance.now();
    await assert.rejects(unreachable.query('TWO', { sql: 'SELECT 1', params: [] }), DatabaseUnavailableError);
    return performance.now() - started;
  };
  try {
    assert.ok((await timed()) >= 350, 'the first request waits for the connect timeout');
    assert.ok((await timed()) < 100, 'the next ones fail at once');
    t.mock.timers.tick(1_000);
    assert.ok((await timed()) >= 350, 'after the retry interval, a request tries to connect again');
  } finally {
    await unreachable.close().catch(() => {});
    silent.close();
  }
});

test("the isolation level is every connection's (tedious connectionIsolationLevel), and dead pooled connections are replaced", () => {
  const config = { server: 'gp01', options: { encrypt: true } } as const;
  for (const [isolation, level] of [
    [undefined, sql.ISOLATION_LEVEL.READ_COMMITTED],
    ['snapshot', sql.ISOLATION_LEVEL.SNAPSHOT],
    ['read-uncommitted', sql.ISOLATION_LEVEL.READ_UNCOMMITTED],
  ] as const) {
    const pool = poolConfig(config as never, isolation ? { isolation } : {}) as unknown as {
      options: Record<string, unknown>;
      validateConnection: unknown;
    };
    assert.equal(pool.options.connectionIsolationLevel, level);
    // isolationLevel is the default of explicit transactions only, which the agent never opens.
    assert.equal(pool.options.isolationLevel, undefined);
    assert.equal(pool.options.encrypt, true);
    assert.equal(pool.validateConnection, 'socket');
  }
});

test('locks, deadlocks, snapshot refusals, timeouts and dropped connections are ERP_UNAVAILABLE, never a 500', () => {
  for (const number of [1205, 1222, 3952, 18456, 4060]) {
    const translated = translate(Object.assign(new Error('x'), { number }), undefined);
    assert.ok(translated instanceof DatabaseUnavailableError && !(translated instanceof DatabaseConfigurationError), String(number));
  }
  for (const code of ['ETIMEOUT', 'ESOCKET', 'ECLOSE', 'ECONNRESET']) {
    assert.ok(translate(Object.assign(new Error('x'), { code }), undefined) instanceof DatabaseUnavailableError, code);
  }
  assert.ok(translate(Object.assign(new Error('x'), { code: 'ECANCEL' }), undefined) instanceof QueryCancelledError);
  // A syntax error is a bug of ours: it stays itself (an internal error).
  const bug = Object.assign(new Error('Incorrect syntax'), { number: 102 });
  assert.equal(translate(bug, undefined), bug);
});

test('a permission the login lacks or an object it cannot see is a configuration error naming it, not a retryable one', () => {
  const denied = translate(
    Object.assign(new Error("The EXECUTE permission was denied on the object 'tasmGetNextNoteIndex', database 'DYNAMICS', schema 'dbo'."), {
      number: 229,
    }),
    undefined,
  );
  assert.ok(denied instanceof DatabaseConfigurationError);
  assert.equal(denied.missing, 'EXECUTE on DYNAMICS..tasmGetNextNoteIndex');
  const column = translate(
    Object.assign(
      new Error("The SELECT permission was denied on the column 'NOTEINDX' of the object 'SY01500', database 'GPSYS', schema 'dbo'."),
      {
        number: 230,
      },
    ),
    undefined,
  );
  assert.equal((column as DatabaseConfigurationError).missing, 'SELECT on GPSYS..SY01500');
  const invalid = translate(Object.assign(new Error("Invalid object name 'DYNAMICS..SY05501'."), { number: 208 }), undefined);
  assert.ok(invalid instanceof DatabaseConfigurationError);
  assert.match(invalid.missing, /^the object DYNAMICS\.\.SY05501 \(it does not exist, or the login may not see it\)$/);
});

test('every read runs at the configured isolation level (sys.dm_exec_sessions)', { skip }, async () => {
  // 1 READ UNCOMMITTED, 2 READ COMMITTED, 5 SNAPSHOT; snapshot needs ALLOW_SNAPSHOT_ISOLATION on master.
  for (const [isolation, level] of [
    ['read-committed', 2],
    ['read-uncommitted', 1],
  ] as const) {
    const reader = new MssqlExecutor(url!, { isolation });
    try {
      const rows = await reader.query(null, {
        sql: 'SELECT transaction_isolation_level FROM sys.dm_exec_sessions WHERE session_id = @@SPID',
        params: [],
      });
      assert.deepEqual(rows, [[level]], isolation);
    } finally {
      await reader.close();
    }
  }
});

test('a lock held by another session costs LOCK_TIMEOUT and an ERP_UNAVAILABLE, not the request deadline', { skip }, async () => {
  const holder = new sql.ConnectionPool(url!);
  await holder.connect();
  const reader = new MssqlExecutor(url!, { lockTimeoutMs: 500 });
  const transaction = new sql.Transaction(holder);
  try {
    await holder.request().batch("IF OBJECT_ID('tempdb..##gp_lock_probe') IS NULL CREATE TABLE ##gp_lock_probe (id int)");
    await transaction.begin();
    await new sql.Request(transaction).batch('INSERT INTO ##gp_lock_probe VALUES (1)');
    const started = performance.now();
    await assert.rejects(reader.query(null, { sql: 'SELECT count(*) FROM ##gp_lock_probe', params: [] }), (error: Error) => {
      return error instanceof DatabaseUnavailableError && /1222/.test(error.message);
    });
    assert.ok(performance.now() - started < 5_000);
  } finally {
    await transaction.rollback().catch(() => {});
    await reader.close();
    await holder.close();
  }
});

test('a named system database (GP_SYSTEM_DATABASE) is where system tables are read, as a quoted identifier only', async () => {
  const named = new MssqlExecutor('Server=127.0.0.1,1;User Id=x;Password=y', { systemDatabase: 'GPSYS' });
  try {
    assert.equal(named.systemDatabase, 'GPSYS');
    assert.equal(named.dialect.tableName(null, { database: 'system', table: 'SY01500', alias: 't' }), '[GPSYS].[dbo].[SY01500]');
    assert.equal(named.dialect.tableName('TWO', { database: 'company', table: 'RM00101', alias: 't' }), '[TWO].[dbo].[RM00101]');
    // The default dialect, which golden SQL and other executors share, is untouched.
    assert.equal(
      new MssqlExecutor('Server=x').dialect.tableName(null, { database: 'system', table: 'SY01500', alias: 't' }),
      '[DYNAMICS].[dbo].[SY01500]',
    );
  } finally {
    await named.close();
  }
  assert.throws(() => new MssqlExecutor('Server=x', { systemDatabase: 'GP]; DROP DATABASE TWO; --' }), /not a system database name/);
  assert.throws(() => new MssqlExecutor('Server=x', { lockTimeoutMs: -1 }), /not a lock timeout/);
});

test('each read waits at most GP_MSSQL_LOCK_TIMEOUT_MS for a lock (@@LOCK_TIMEOUT)', { skip }, async () => {
  for (const [options, expected] of [
    [{}, 5000],
    [{ lockTimeoutMs: 1234 }, 1234],
    [{ lockTimeoutMs: 0 }, 0],
  ] as const) {
    const reader = new MssqlExecutor(url!, options);
    try {
      assert.deepEqual(await reader.query(null, { sql: 'SELECT @@LOCK_TIMEOUT', params: [] }), [[expected]]);
    } finally {
      await reader.close();
    }
  }
});

test('snapshot isolation is read from sys.databases: on in master, off in tempdb, a missing database absent', { skip }, async () => {
  const states = await executor!.snapshotIsolationStates(['master', 'tempdb', 'no_such_gp_database']);
  assert.deepEqual([...states].sort(), [
    ['master', 1],
    ['tempdb', 0],
  ]);
});
