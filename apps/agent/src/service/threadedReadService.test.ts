import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReadOperation } from '@gp-gateway/protocol';
import { generateDemo } from '@gp-gateway/gp-demo';
import { QueryCancelledError } from '../db/executor.ts';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { cancelAfter } from '../testing/cancelAfter.ts';
import { AgentError } from './agentError.ts';
import { payloadText, ReadService } from './readService.ts';
import { ThreadedReadService } from './threadedReadService.ts';

/** Operations on real SQLite threads, against a ReadService on this thread: what `gp-agent run` serves. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threaded-reads-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

let generatedDemo: string | null = null;
/** The generated demo database, made on first use, so that each test can also run alone. */
function demoDir(): string {
  if (!generatedDemo) {
    generatedDemo = path.join(dir, 'demo');
    generateDemo({ dir: generatedDemo, seed: 3 });
  }
  return generatedDemo;
}

test('operations (lists on the threads, gets inline) answer what a ReadService on this thread answers', async () => {
  const demo = demoDir();
  const reads = new ThreadedReadService({ dir: demo, workers: 2 });
  const local = new ReadService(new SqliteExecutor({ dir: demo }));
  try {
    const first: ReadOperation = { kind: 'list', object: 'gl-entries', company: 'TWO', filters: {}, limit: 50, after: null };
    const page = await reads.handle(first);
    assert.deepEqual(page, await local.handle(first));
    assert.equal((JSON.parse(payloadText(page.payload)) as unknown[]).length, 50);
    const second: ReadOperation = { ...first, after: page.next };
    assert.deepEqual(await reads.handle(second), await local.handle(second));
    const customers = await local.handle({ kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 1, after: null });
    const [customer] = JSON.parse(payloadText(customers.payload)) as Array<{ id: string }>;
    const get: ReadOperation = { kind: 'get', object: 'customers', company: 'TWO', id: customer!.id };
    assert.deepEqual(await reads.handle(get), await local.handle(get));
    assert.deepEqual(await reads.health().then((h) => h.companies), await local.health().then((h) => h.companies));

    // The agent's own refusals keep their code across the thread boundary.
    await assert.rejects(
      reads.handle({ ...get, id: 'NOSUCHCUSTOMER' }),
      (error: Error) => error instanceof AgentError && error.code === 'NOT_FOUND',
    );
    await assert.rejects(
      reads.handle({ ...first, company: 'ZZZ' }),
      (error: Error) => error instanceof AgentError && error.code === 'VALIDATION_ERROR',
    );
  } finally {
    await reads.close();
  }
});

test('an operation is cancelled on its thread like a single statement', async () => {
  const demo = demoDir();
  const slow = new ThreadedReadService({ dir: demo, workers: 1, testDelayMs: 5_000 });
  try {
    const op: ReadOperation = { kind: 'list', object: 'customers', company: 'TWO', filters: { inactive: false }, limit: 10, after: null };
    const { error, ms } = await cancelAfter(100, (signal) => slow.handle(op, signal));
    assert.ok(error instanceof QueryCancelledError, String(error));
    assert.ok(ms < 400, `cancelled after ${Math.round(ms)} ms`);
  } finally {
    await slow.close();
  }
});

test('a short unfiltered page is answered on the calling thread even while every thread is busy; other lists wait', async () => {
  const demo = demoDir();
  const slow = new ThreadedReadService({ dir: demo, workers: 1, testDelayMs: 5_000 });
  const local = new ReadService(new SqliteExecutor({ dir: demo }));
  const busy = new AbortController();
  try {
    const filtered: ReadOperation = {
      kind: 'list',
      object: 'customers',
      company: 'TWO',
      filters: { inactive: false },
      limit: 10,
      after: null,
    };
    const holding = slow.handle(filtered, busy.signal).catch((error: unknown) => error);
    const short: ReadOperation = { kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 100, after: null };
    assert.equal(slow.answersOnCallingThread(short), true);
    const started = performance.now();
    const page = await slow.handle(short);
    assert.ok(performance.now() - started < 2_000, 'the short page did not wait for the thread');
    assert.deepEqual(page, await local.handle(short));
    assert.notEqual(page.next, null, 'the demo has more than one page of customers');
    const second: ReadOperation = { ...short, after: page.next };
    assert.deepEqual(await slow.handle(second), await local.handle(second), 'a later page reads only its rows too');

    // A longer page, a filtered one, and a table with conditions of its own wait for a thread.
    for (const op of [{ ...short, limit: 101 }, filtered, { ...short, object: 'gl-entries' }] as ReadOperation[]) {
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

test('once closed, work for the calling thread is refused like work for a thread', async () => {
  const reads = new ThreadedReadService({ dir: demoDir(), workers: 1 });
  await reads.close();
  const get: ReadOperation = { kind: 'get', object: 'customers', company: 'TWO', id: 'AARONFIT0001' };
  const list: ReadOperation = { kind: 'list', object: 'customers', company: 'TWO', filters: { inactive: false }, limit: 10, after: null };
  assert.equal(reads.answersOnCallingThread(get), true);
  for (const op of [get, list])
    await assert.rejects(reads.handle(op), (error: Error) => error instanceof QueryCancelledError && /stopping/.test(error.message));
});
