import { once } from 'node:events';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ListOperation, ReadOperation, Position } from '@gp-gateway/protocol';
import { QueryCancelledError } from '../db/executor.ts';
import { ReadAhead } from './readAhead.ts';
import { payloadText, type HealthReport, type OperationHandler, type ReadResult } from './readService.ts';

/**
 * A handler over a list of numbered rows, pages of `limit`, recording every read it was asked for
 * and the signal it got. `version` changes the rows' text, standing in for data changing in GP.
 */
class Rows implements OperationHandler {
  readonly reads: Array<{ after: Position | null; signal: AbortSignal | undefined }> = [];
  version = 1;
  /** The read starting at this row fails, once. */
  failAt: number | null = null;
  delayMs = 0;
  private readonly calls: Promise<ReadResult>[] = [];

  handle(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult> {
    const call = this.read(op, signal);
    this.calls.push(call);
    return call;
  }

  /**
   * Resolves once every read asked for has finished, and nothing they set going (the next read
   * ahead, a page's end) started another: what a test waits for before it says what was read, or
   * that something was not.
   */
  async idle(): Promise<void> {
    for (let seen = -1; seen !== this.calls.length;) {
      seen = this.calls.length;
      await Promise.allSettled(this.calls);
      // Promise chains that follow a read (no I/O) run to their end before the next turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async read(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult> {
    const list = op as ListOperation;
    this.reads.push({ after: list.after, signal });
    const version = this.version;
    if (this.delayMs) await sleep(this.delayMs);
    if (signal?.aborted) throw new QueryCancelledError();
    const start = list.after ? Number(list.after[1]) : 0;
    if (this.failAt === start) {
      this.failAt = null;
      throw new Error('database went away');
    }
    const rows = Array.from({ length: Math.max(0, Math.min(list.limit, 10 - start)) }, (_, i) => `v${version}-${start + i + 1}`);
    const end = start + rows.length;
    return { payload: JSON.stringify(rows), next: end < 10 ? [0, end] : null };
  }

  health(): Promise<HealthReport> {
    throw new Error('not used');
  }
}

const page = (after: Position | null): ListOperation => ({
  kind: 'list',
  object: 'gl-entries',
  company: 'TWO',
  filters: {},
  limit: 3,
  after,
});

test('a walk past its first page gets its next page read ahead, and served from there', async () => {
  const rows = new Rows();
  const ahead = new ReadAhead(rows);
  const first = await ahead.handle(page(null));
  await rows.idle();
  assert.equal(rows.reads.length, 1, 'a single page is not read ahead');
  const second = await ahead.handle(page(first.next));
  await rows.idle();
  assert.deepEqual(
    rows.reads.map((r) => r.after),
    [null, [0, 3], [0, 6]],
    'page 3 read ahead',
  );
  const third = await ahead.handle(page(second.next));
  assert.deepEqual(JSON.parse(payloadText(third.payload)), ['v1-7', 'v1-8', 'v1-9']);
  assert.deepEqual(third.next, [0, 9]);
  await rows.idle();
  assert.deepEqual(
    rows.reads.map((r) => r.after),
    [null, [0, 3], [0, 6], [0, 9]],
    'page 3 not read twice; page 4 read ahead',
  );
  const last = await ahead.handle(page(third.next));
  assert.equal(last.next, null);
  await rows.idle();
  assert.equal(rows.reads.length, 4);
  assert.equal(ahead.pending, 0, 'nothing read ahead past the end');
});

test('a walk whose pages the handler answers on the calling thread is not read ahead', async () => {
  const rows = new Rows();
  const ahead = new ReadAhead(Object.assign(rows, { answersOnCallingThread: (op: ReadOperation) => op.kind === 'list' && op.limit <= 3 }));
  const first = await ahead.handle(page(null));
  await ahead.handle(page(first.next));
  await rows.idle();
  assert.deepEqual(
    rows.reads.map((r) => r.after),
    [null, [0, 3]],
    'nothing read ahead of page 2',
  );
  await ahead.handle({ ...page(first.next), limit: 4 });
  await rows.idle();
  assert.deepEqual(
    rows.reads.map((r) => r.after),
    [null, [0, 3], [0, 3], [0, 7]],
    'a longer page gets its next read ahead as before',
  );
});

test('a page read ahead is served once; a second ask reads afresh', async () => {
  const rows = new Rows();
  const ahead = new ReadAhead(rows);
  await ahead.handle(page([0, 3]));
  await rows.idle();
  await ahead.handle(page([0, 6]));
  rows.version = 2;
  const again = await ahead.handle(page([0, 6]));
  assert.deepEqual(JSON.parse(payloadText(again.payload)), ['v2-7', 'v2-8', 'v2-9']);
});

test('a page read ahead and not asked for in time is dropped and its read cancelled', async () => {
  const rows = new Rows();
  rows.delayMs = 200;
  const ahead = new ReadAhead(rows, { freshMs: 50, maxPages: 8 });
  await ahead.handle(page([0, 3]));
  const readAhead = rows.reads[1]!;
  // Dropped after freshMs unasked: its read is cancelled (a hang here is the failure).
  if (!readAhead.signal!.aborted) await once(readAhead.signal!, 'abort');
  assert.equal(ahead.pending, 0);
  rows.delayMs = 0;
  rows.version = 2;
  assert.deepEqual(
    JSON.parse(payloadText((await ahead.handle(page([0, 6]))).payload)),
    ['v2-7', 'v2-8', 'v2-9'],
    'fresh rows, not the stale page',
  );
});

test('when reading ahead failed, the page is read again and answered', async () => {
  const rows = new Rows();
  rows.failAt = 6;
  const ahead = new ReadAhead(rows);
  await ahead.handle(page([0, 3]));
  await rows.idle();
  assert.equal(rows.failAt, null, 'the read ahead failed');
  const answer = await ahead.handle(page([0, 6]));
  assert.deepEqual(JSON.parse(payloadText(answer.payload)), ['v1-7', 'v1-8', 'v1-9']);
  assert.equal(rows.reads.filter((r) => r.after?.[1] === 6).length, 2);
});

test('a request cancelled while its page is still being read ahead is cancelled, and so is the read', async () => {
  const rows = new Rows();
  rows.delayMs = 100;
  const ahead = new ReadAhead(rows);
  await ahead.handle(page([0, 3]));
  const slowRead = rows.reads[1]!;
  const controller = new AbortController();
  const asked = ahead.handle(page([0, 6]), controller.signal);
  controller.abort();
  await assert.rejects(asked, QueryCancelledError);
  assert.equal(slowRead.signal?.aborted, true);
});

test('no more than maxPages are read ahead at once, and close cancels them', async () => {
  const rows = new Rows();
  rows.delayMs = 100;
  const ahead = new ReadAhead(rows, { freshMs: 5_000, maxPages: 2 });
  const walks = ['gl-entries', 'customers', 'vendors'].map((object) => ({ ...page([0, 3]), object }) as ListOperation);
  await Promise.all(walks.map((op) => ahead.handle(op)));
  assert.equal(ahead.pending, 2);
  const started = rows.reads.slice(3);
  assert.equal(started.length, 2);
  ahead.close();
  assert.equal(ahead.pending, 0);
  assert.ok(started.every((r) => r.signal?.aborted));
});

/** Rows whose handler can say where a page ends without reading it, as the embedded database's threads can. */
class RowsWithEnds extends Rows {
  readonly ends: Array<Position | null> = [];
  /** What pageEnd answers instead of the truth, once (data that changed between the two reads). */
  wrongEnd: Position | null = null;
  inFlight = 0;
  maxInFlight = 0;

  override async handle(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult> {
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      return await super.handle(op, signal);
    } finally {
      this.inFlight--;
    }
  }

  async pageEnd(op: ListOperation): Promise<Position | null> {
    this.ends.push(op.after);
    if (this.wrongEnd) {
      const wrong = this.wrongEnd;
      this.wrongEnd = null;
      return wrong;
    }
    const end = Math.min((op.after ? Number(op.after[1]) : 0) + op.limit, 10);
    return end < 10 ? [0, end] : null;
  }
}

test('where the handler knows where a page ends, the two pages after the one served are read at once', async () => {
  const rows = new RowsWithEnds();
  rows.delayMs = 30;
  const ahead = new ReadAhead(rows);
  await ahead.handle(page([0, 0]));
  assert.deepEqual(
    rows.reads.map((r) => r.after).slice(1),
    [
      [0, 3],
      [0, 6],
    ],
    'pages 2 and 3 started together',
  );
  assert.equal(rows.maxInFlight, 2);
  assert.deepEqual(rows.ends, [[0, 3]], 'page 2 ended from its keys; page 3 is the last one read ahead');
  const second = await ahead.handle(page([0, 3]));
  const third = await ahead.handle(page(second.next));
  assert.deepEqual(JSON.parse(payloadText(third.payload)), ['v1-7', 'v1-8', 'v1-9']);
  assert.equal(rows.reads.filter((r) => r.after?.[1] === 6).length, 1, 'page 3 read once');
});

test('a page read ahead from a wrong guess of where the one before ends is never served', async () => {
  const rows = new RowsWithEnds();
  rows.wrongEnd = [0, 5];
  const ahead = new ReadAhead(rows);
  await ahead.handle(page([0, 0]));
  await rows.idle();
  assert.ok(
    rows.reads.some((r) => r.after?.[1] === 5),
    'a page was read from the wrong guess',
  );
  const second = await ahead.handle(page([0, 3]));
  assert.deepEqual(second.next, [0, 6]);
  const third = await ahead.handle(page(second.next));
  assert.deepEqual(JSON.parse(payloadText(third.payload)), ['v1-7', 'v1-8', 'v1-9'], 'the walk goes on from the true end');
});
