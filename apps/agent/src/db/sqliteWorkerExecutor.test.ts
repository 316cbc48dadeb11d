import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Operation } from '@gp-gateway/protocol';
import { generateDemo } from '@gp-gateway/gp-demo';
import { AgentError } from '../service/agentError.ts';
import { payloadText, ReadService } from '../service/readService.ts';
import { DatabaseUnavailableError, QueryCancelledError } from './executor.ts';
import { SqliteExecutor } from './sqliteExecutor.ts';
import { SqliteWorkerExecutor } from './sqliteWorkerExecutor.ts';

/** Real statements on real threads: what `gp-agent run` relies on to cancel a query past its deadline. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-workers-'));
for (const name of ['DYNAMICS', 'TWO']) {
  const db = new Database(path.join(dir, `${name}.sqlite`));
  db.exec('CREATE TABLE SY01500 (INTERID TEXT, DEX_ROW_ID INTEGER PRIMARY KEY); INSERT INTO SY01500 (INTERID) VALUES (\'TWO\')');
  db.close();
}
const executor = new SqliteWorkerExecutor({ dir, workers: 2, cancelGraceMs: 150 });
after(async () => {
  await executor.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let generatedDemo: string | null = null;
/** The generated demo database, made on first use, so that each test can also run alone. */
function demoDir(): string {
  if (!generatedDemo) {
    generatedDemo = path.join(dir, 'demo');
    generateDemo({ dir: generatedDemo, seed: 3 });
  }
  return generatedDemo;
}

/** Counts to `n`, one row per number: a statement that keeps producing rows. */
const counting = (n: number) => ({ sql: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT x FROM c`, params: [] });
/** Counts to `n` and returns nothing: a long scan that matches no row. */
const silent = (n: number) => ({ sql: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT x FROM c WHERE x < 0`, params: [] });

async function cancelAfter(ms: number, run: (signal: AbortSignal) => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), ms);
  const error = await run(controller.signal).then(() => null, (e: unknown) => e);
  return { error, ms: performance.now() - started };
}

test('rows come back as arrays; integers as numbers, scaled amounts as exact text', async () => {
  assert.deepEqual(await executor.query(null, { sql: 'SELECT INTERID, DEX_ROW_ID, CAST(9007199254740993 AS TEXT) FROM SY01500', params: [] }), [['TWO', 1, '9007199254740993']]);
});

test('a statement producing rows stops at its next row once cancelled', async () => {
  const { error, ms } = await cancelAfter(100, (signal) => executor.query(null, counting(1e9), signal));
  assert.ok(error instanceof QueryCancelledError, String(error));
  assert.ok(ms < 400, `cancelled after ${Math.round(ms)} ms`);
});

test('a statement producing no row is stopped by replacing its thread, and the executor carries on', async () => {
  const { error, ms } = await cancelAfter(100, (signal) => executor.query(null, silent(3e7), signal));
  assert.ok(error instanceof QueryCancelledError, String(error));
  assert.match((error as Error).message, /thread was stopped/);
  assert.ok(ms < 600, `cancelled after ${Math.round(ms)} ms`);
  assert.deepEqual(await executor.query(null, { sql: 'SELECT 1', params: [] }), [[1]]);
});

test('tasks beyond the threads wait their turn; a waiting task cancelled never runs', async () => {
  const controller = new AbortController();
  const busy = [executor.query(null, counting(200_000)), executor.query(null, counting(200_000))];
  const waiting = executor.query(null, { sql: 'SELECT 2', params: [] }, controller.signal);
  controller.abort();
  await assert.rejects(waiting, QueryCancelledError);
  const results = await Promise.all([...busy, executor.query(null, { sql: 'SELECT 3', params: [] })]);
  assert.deepEqual(results.map((r) => r.length), [200_000, 200_000, 1]);
});

test('a missing database is DatabaseUnavailableError, across the thread boundary', async () => {
  await assert.rejects(executor.query('NWIND', { sql: 'SELECT 1', params: [] }), (error: Error) => {
    assert.ok(error instanceof DatabaseUnavailableError);
    assert.match(error.message, /database NWIND not found/);
    return true;
  });
  await assert.rejects(executor.checkReadable('TWO', 'RM00101'), DatabaseUnavailableError);
  await executor.checkReadable(null, 'SY01500');
  assert.equal(await executor.gpVersion(), 'demo');
});

test('the test-only delay applies to company databases and ends early when cancelled', async () => {
  const slow = new SqliteWorkerExecutor({ dir, workers: 1, testDelayMs: 5_000 });
  try {
    const started = performance.now();
    assert.deepEqual(await slow.query(null, { sql: 'SELECT 1', params: [] }), [[1]], 'the system database is not delayed');
    assert.ok(performance.now() - started < 2_000);
    const { error, ms } = await cancelAfter(100, (signal) => slow.query('TWO', { sql: 'SELECT 1', params: [] }, signal));
    assert.ok(error instanceof QueryCancelledError, String(error));
    assert.ok(ms < 400, `cancelled after ${Math.round(ms)} ms`);
  } finally {
    await slow.close();
  }
});

test('operations (lists on the threads, gets inline) answer what a ReadService on this thread answers', async () => {
  const demo = demoDir();
  const pool = new SqliteWorkerExecutor({ dir: demo, workers: 2 });
  const local = new ReadService(new SqliteExecutor({ dir: demo }));
  try {
    const first: Operation = { kind: 'list', object: 'gl-entries', company: 'TWO', filters: {}, limit: 50, after: null };
    const page = await pool.handle(first);
    assert.deepEqual(page, await local.handle(first));
    assert.equal((JSON.parse(payloadText(page.payload)) as unknown[]).length, 50);
    const second: Operation = { ...first, after: page.next };
    assert.deepEqual(await pool.handle(second), await local.handle(second));
    const customers = await local.handle({ kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 1, after: null });
    const [customer] = JSON.parse(payloadText(customers.payload)) as Array<{ id: string }>;
    const get: Operation = { kind: 'get', object: 'customers', company: 'TWO', id: customer!.id };
    assert.deepEqual(await pool.handle(get), await local.handle(get));
    assert.deepEqual(await pool.health().then((h) => h.companies), await local.health().then((h) => h.companies));

    // The agent's own refusals keep their code across the thread boundary.
    await assert.rejects(pool.handle({ ...get, id: 'NOSUCHCUSTOMER' }), (error: Error) => error instanceof AgentError && error.code === 'NOT_FOUND');
    await assert.rejects(pool.handle({ ...first, company: 'ZZZ' }), (error: Error) => error instanceof AgentError && error.code === 'VALIDATION_ERROR');
  } finally {
    await pool.close();
  }
});

test('an operation is cancelled on its thread like a single statement', async () => {
  const demo = demoDir();
  const slow = new SqliteWorkerExecutor({ dir: demo, workers: 1, testDelayMs: 5_000 });
  try {
    const op: Operation = { kind: 'list', object: 'customers', company: 'TWO', filters: { inactive: false }, limit: 10, after: null };
    const { error, ms } = await cancelAfter(100, (signal) => slow.handle(op, signal));
    assert.ok(error instanceof QueryCancelledError, String(error));
    assert.ok(ms < 400, `cancelled after ${Math.round(ms)} ms`);
  } finally {
    await slow.close();
  }
});

test('a short unfiltered page is answered on the calling thread even while every thread is busy; other lists wait', async () => {
  const demo = demoDir();
  const slow = new SqliteWorkerExecutor({ dir: demo, workers: 1, testDelayMs: 5_000 });
  const local = new ReadService(new SqliteExecutor({ dir: demo }));
  const busy = new AbortController();
  try {
    const filtered: Operation = { kind: 'list', object: 'customers', company: 'TWO', filters: { inactive: false }, limit: 10, after: null };
    const holding = slow.handle(filtered, busy.signal).catch((error: unknown) => error);
    const short: Operation = { kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 100, after: null };
    assert.equal(slow.answersOnCallingThread(short), true);
    const started = performance.now();
    const page = await slow.handle(short);
    assert.ok(performance.now() - started < 2_000, 'the short page did not wait for the thread');
    assert.deepEqual(page, await local.handle(short));
    assert.notEqual(page.next, null, 'the demo has more than one page of customers');
    const second: Operation = { ...short, after: page.next };
    assert.deepEqual(await slow.handle(second), await local.handle(second), 'a later page reads only its rows too');

    // A longer page, a filtered one, and a table with conditions of its own wait for a thread.
    for (const op of [{ ...short, limit: 101 }, filtered, { ...short, object: 'gl-entries' }] as Operation[]) {
      assert.equal(slow.answersOnCallingThread(op), false, JSON.stringify(op));
      const { error } = await cancelAfter(200, (signal) => slow.handle(op, signal));
      assert.ok(error instanceof QueryCancelledError, `${JSON.stringify(op)}: ${String(error)}`);
    }
    busy.abort();
    assert.ok((await holding) instanceof QueryCancelledError);
  } finally {
    busy.abort();
    await slow.close();
  }
});
