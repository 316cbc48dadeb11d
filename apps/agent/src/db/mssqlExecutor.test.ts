import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { DatabaseUnavailableError, QueryCancelledError } from './executor.ts';
import { MssqlExecutor } from './mssqlExecutor.ts';

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
test('while SQL Server cannot be reached, requests fail at once instead of each waiting out the connect timeout', async () => {
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
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.ok((await timed()) >= 350, 'after the retry interval, a request tries to connect again');
  } finally {
    await unreachable.close().catch(() => {});
    silent.close();
  }
});
