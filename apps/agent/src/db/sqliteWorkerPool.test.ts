import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DatabaseUnavailableError, QueryCancelledError } from './executor.ts';
import { SqliteWorkerPool } from './sqliteWorkerPool.ts';
import { cancelAfter } from '../testing/cancelAfter.ts';

/** Real statements on real threads: what `gp-agent run` relies on to cancel a query past its deadline. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-workers-'));
for (const name of ['DYNAMICS', 'TWO']) {
  const db = new Database(path.join(dir, `${name}.sqlite`));
  db.exec("CREATE TABLE SY01500 (INTERID TEXT, DEX_ROW_ID INTEGER PRIMARY KEY); INSERT INTO SY01500 (INTERID) VALUES ('TWO')");
  db.close();
}
const pool = new SqliteWorkerPool({ dir, workers: 2, cancelGraceMs: 150 });
after(async () => {
  await pool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Counts to `n`, one row per number: a statement that keeps producing rows. */
const counting = (n: number) => ({
  sql: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT x FROM c`,
  params: [],
});
/** Counts to `n` and returns nothing: a long scan that matches no row. */
const silent = (n: number) => ({
  sql: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) SELECT x FROM c WHERE x < 0`,
  params: [],
});

test('rows come back as arrays; integers as numbers, scaled amounts as exact text', async () => {
  assert.deepEqual(await pool.query(null, { sql: 'SELECT INTERID, DEX_ROW_ID, CAST(9007199254740993 AS TEXT) FROM SY01500', params: [] }), [
    ['TWO', 1, '9007199254740993'],
  ]);
});

test('a statement producing rows stops at its next row once cancelled', async () => {
  const { error, ms } = await cancelAfter(100, (signal) => pool.query(null, counting(1e9), signal));
  assert.ok(error instanceof QueryCancelledError, String(error));
  // Counting to 1e9 takes minutes; the bound leaves room for a loaded machine.
  assert.ok(ms < 2_000, `cancelled after ${Math.round(ms)} ms`);
});

test('a statement producing no row is stopped by replacing its thread, and the pool carries on', async () => {
  const { error, ms } = await cancelAfter(100, (signal) => pool.query(null, silent(3e7), signal));
  assert.ok(error instanceof QueryCancelledError, String(error));
  assert.match((error as Error).message, /thread was stopped/);
  assert.ok(ms < 600, `cancelled after ${Math.round(ms)} ms`);
  assert.deepEqual(await pool.query(null, { sql: 'SELECT 1', params: [] }), [[1]]);
});

test('tasks beyond the threads wait their turn; a waiting task cancelled never runs', async () => {
  const controller = new AbortController();
  const busy = [pool.query(null, counting(200_000)), pool.query(null, counting(200_000))];
  const waiting = pool.query(null, { sql: 'SELECT 2', params: [] }, controller.signal);
  controller.abort();
  await assert.rejects(waiting, QueryCancelledError);
  const results = await Promise.all([...busy, pool.query(null, { sql: 'SELECT 3', params: [] })]);
  assert.deepEqual(
    results.map((r) => (r as unknown[]).length),
    [200_000, 200_000, 1],
  );
});

test('a missing database is DatabaseUnavailableError, across the thread boundary', async () => {
  await assert.rejects(pool.query('NWIND', { sql: 'SELECT 1', params: [] }), (error: Error) => {
    assert.ok(error instanceof DatabaseUnavailableError);
    assert.match(error.message, /database NWIND not found/);
    return true;
  });
  await assert.rejects(pool.checkReadable('TWO', 'RM00101'), DatabaseUnavailableError);
  await pool.checkReadable(null, 'SY01500');
  assert.equal(await pool.gpVersion(), 'demo');
});

test('the test-only delay applies to company databases and ends early when cancelled', async () => {
  // The delay is long and the bounds are half of it, so a loaded machine (a worker thread takes
  // seconds to start under load) cannot fail the test, and a delay applied anyway still does.
  const delayMs = 20_000;
  const slow = new SqliteWorkerPool({ dir, workers: 1, testDelayMs: delayMs });
  try {
    const started = performance.now();
    assert.deepEqual(await slow.query(null, { sql: 'SELECT 1', params: [] }), [[1]], 'the system database is not delayed');
    assert.ok(performance.now() - started < delayMs / 2);
    const { error, ms } = await cancelAfter(100, (signal) => slow.query('TWO', { sql: 'SELECT 1', params: [] }, signal));
    assert.ok(error instanceof QueryCancelledError, String(error));
    assert.ok(ms < delayMs / 2, `cancelled after ${Math.round(ms)} ms`);
  } finally {
    await slow.close();
  }
});
