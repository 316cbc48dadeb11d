import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { ErrorCode, ListOperation, Operation, Position } from '@gp-gateway/protocol';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import type { CompiledQuery, Param } from '../sql/model.ts';
import { AgentError } from '../service/agentError.ts';
import { ReadService, type HealthReport, type OperationHandler, type ReadResult } from '../service/readService.ts';
import { SqliteExecutor } from './sqliteExecutor.ts';
import { DatabaseUnavailableError, QueryCancelledError, type Executor } from './executor.ts';

const WORKER_PATH = fileURLToPath(new URL('./sqliteWorkerBootstrap.mjs', import.meta.url));

/**
 * A SQLite thread's young generation, in MB. What a thread allocates dies young: rows, and each
 * page's bytes, which live outside the heap and are freed only when a scavenge finds them dead.
 * V8's default young generation grows to 48 MB per thread under an export's pace, and the bytes it
 * waits to free with it; at 4 MB, the agent's RSS stays flat through a full export with both
 * threads reading (bench: 320-340 MB against 340-390 MB), at the same speed.
 */
const THREAD_YOUNG_GENERATION_MB = 4;

/**
 * The longest list page a SqliteWorkerExecutor reads on the calling thread: the API's default page.
 * A 100-row page takes 0.1-0.3 ms there; a longer one would hold the agent's event loop for
 * milliseconds, and an export's 1000-row pages gain from two threads reading at once (ReadAhead).
 */
const SHORT_PAGE_ROWS = 100;

export interface SqliteWorkerExecutorOptions {
  /** Folder holding DYNAMICS.sqlite and one <INTERID>.sqlite per company. */
  dir: string;
  readonly?: boolean;
  /** Threads, hence statements at once (default 2). */
  workers?: number;
  /**
   * How long a cancelled statement may take to notice before its thread is terminated and replaced
   * (default 250 ms). A statement notices between two rows; one that produces no row for long
   * (a scan that matches nothing) is stopped this way.
   */
  cancelGraceMs?: number;
  /** Test-only slowness, see GP_AGENT_TEST_DELAY_MS in the README. Never set in production. */
  testDelayMs?: number;
}

export interface SqliteWorkerData {
  dir: string;
  readonly: boolean;
  /** Int32Array(1) over this buffer: 0 = carry on, 1 = cancel the running task. */
  cancel: SharedArrayBuffer;
  testDelayMs: number;
}

export type SqliteWorkerTask = { id: number } & (
  | { kind: 'operation'; op: Operation }
  | { kind: 'listEnd'; op: ListOperation }
  | { kind: 'health' }
  | { kind: 'query'; company: string | null; sql: string; params: Param[] }
  | { kind: 'gpVersion' }
  | { kind: 'checkReadable'; company: string | null; table: string }
);
type TaskBody = SqliteWorkerTask extends infer T ? (T extends SqliteWorkerTask ? Omit<T, 'id'> : never) : never;

export type SqliteWorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; kind: 'cancelled' | 'unavailable' | 'failed'; message: string }
  | { id: number; ok: false; kind: 'agent'; code: ErrorCode; message: string; detail: string | null };

interface Job {
  id: number;
  body: TaskBody;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker | null;
  flag: Int32Array;
  buffer: SharedArrayBuffer;
  job: Job | null;
  killTimer: NodeJS.Timeout | null;
}

/**
 * The embedded GP-shaped database served from worker threads, so that SQLite's synchronous work
 * never blocks the agent's event loop (heartbeats and other requests carry on) and a statement
 * can be cancelled: better-sqlite3 12 has no interrupt(), so each thread steps rows one at a time
 * and checks a shared cancel flag between rows; a thread that does not stop within
 * `cancelGraceMs` is terminated and replaced. Tasks beyond the number of threads wait in order.
 *
 * Lists run whole in the threads (each has its own ReadService), so rows never cross the thread
 * boundary: only a page's JSON text comes back, which is far cheaper to pass than thousands of row
 * arrays. Small bounded work runs on the calling thread instead (answersOnCallingThread): there the
 * trip to a thread and back would cost more than the read, and there is nothing to cancel. It is an
 * Executor too (single statements on the threads), which its cancellation tests use.
 */
export class SqliteWorkerExecutor implements Executor, OperationHandler {
  readonly dialect = sqliteDialect;
  private readonly options: Required<SqliteWorkerExecutorOptions>;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Gets and short pages, on the calling thread (answersOnCallingThread). */
  private readonly seeks: ReadService;
  private readonly seekDatabases: SqliteExecutor;

  constructor(options: SqliteWorkerExecutorOptions) {
    this.options = { readonly: true, workers: 2, cancelGraceMs: 250, testDelayMs: 0, ...options };
    this.seekDatabases = new SqliteExecutor({ dir: this.options.dir, readonly: this.options.readonly });
    this.seeks = new ReadService(this.seekDatabases);
    this.slots = Array.from({ length: Math.max(1, this.options.workers) }, () => {
      const buffer = new SharedArrayBuffer(4);
      return { worker: null, buffer, flag: new Int32Array(buffer), job: null, killTimer: null };
    });
  }

  /**
   * A get, which reads one row through the table's key (an index seek), and a page of at most
   * SHORT_PAGE_ROWS that reads only its own rows (ReadService.readsOnlyItsRows): both take a
   * fraction of a millisecond on this thread, less than the trip to a thread and back (0.1-0.2 ms
   * at concurrency 1, `pnpm bench`), and need no cancelling. callingThreadPlans.test.ts checks
   * their plans. A page with filters may scan a whole table to fill itself, so it goes to a thread.
   */
  answersOnCallingThread(op: Operation): boolean {
    return op.kind === 'get' || (op.limit <= SHORT_PAGE_ROWS && this.seeks.readsOnlyItsRows(op));
  }

  async handle(op: Operation, signal?: AbortSignal): Promise<ReadResult> {
    if (this.answersOnCallingThread(op)) {
      if (this.closed) throw new QueryCancelledError('the agent is stopping');
      return this.seeks.handle(op, signal);
    }
    const result = (await this.submit({ kind: 'operation', op }, signal)) as ReadResult;
    // Bytes cross the thread boundary as a plain Uint8Array; the rest of the agent expects a Buffer.
    const payload = result.payload as string | Uint8Array;
    return typeof payload === 'string' || Buffer.isBuffer(payload) ? result : { ...result, payload: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength) };
  }

  /** Where a list page ends, from its keys alone, on a thread (ReadService.listEnd). */
  async pageEnd(op: ListOperation, signal?: AbortSignal): Promise<Position | null> {
    return (await this.submit({ kind: 'listEnd', op }, signal)) as Position | null;
  }

  async health(): Promise<HealthReport> {
    return (await this.submit({ kind: 'health' }, undefined)) as HealthReport;
  }

  async query(company: string | null, query: CompiledQuery, signal?: AbortSignal): Promise<unknown[][]> {
    return (await this.submit({ kind: 'query', company, sql: query.sql, params: query.params }, signal)) as unknown[][];
  }

  async forEachRow(company: string | null, query: CompiledQuery, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    for (const row of await this.query(company, query, signal)) onRow(row);
  }

  async gpVersion(): Promise<string | null> {
    return (await this.submit({ kind: 'gpVersion' }, undefined)) as string | null;
  }

  async checkReadable(company: string | null, table: string): Promise<void> {
    await this.submit({ kind: 'checkReadable', company, table }, undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.seekDatabases.close();
    for (const job of this.queue.splice(0)) this.settle(job, new QueryCancelledError('the agent is stopping'));
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.settle(slot.job, new QueryCancelledError('the agent is stopping'));
        slot.job = null;
        if (slot.killTimer) clearTimeout(slot.killTimer);
        const worker = slot.worker;
        slot.worker = null;
        await worker?.terminate();
      }),
    );
  }

  private submit(body: TaskBody, signal: AbortSignal | undefined): Promise<unknown> {
    if (this.closed) return Promise.reject(new QueryCancelledError('the agent is stopping'));
    if (signal?.aborted) return Promise.reject(new QueryCancelledError());
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, body, signal, onAbort: () => this.abort(job), resolve, reject };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || !this.queue.length) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      // Reset before posting: the worker never writes the flag, so a cancel cannot be lost.
      Atomics.store(slot.flag, 0, 0);
      this.workerOf(slot).postMessage({ id: job.id, ...job.body } satisfies SqliteWorkerTask);
    }
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const data: SqliteWorkerData = { dir: this.options.dir, readonly: this.options.readonly, cancel: slot.buffer, testDelayMs: this.options.testDelayMs };
    const worker = new Worker(WORKER_PATH, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB } });
    slot.worker = worker;
    worker.on('message', (reply: SqliteWorkerReply) => {
      const job = slot.job;
      if (slot.worker !== worker || !job || job.id !== reply.id) return;
      this.finish(slot);
      if (reply.ok) this.settle(job, null, reply.result);
      else this.settle(job, errorOf(reply));
    });
    const lost = (error: Error) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      const job = slot.job;
      if (job) {
        this.finish(slot);
        this.settle(job, error);
      }
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the SQLite worker stopped (exit code ${code})`)));
    return worker;
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      this.settle(job, new QueryCancelledError());
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot || slot.killTimer) return;
    Atomics.store(slot.flag, 0, 1);
    Atomics.notify(slot.flag, 0);
    slot.killTimer = setTimeout(() => {
      slot.killTimer = null;
      if (slot.job !== job) return;
      // The statement has produced no row since the cancel: stop its thread, start afresh.
      const worker = slot.worker;
      slot.worker = null;
      void worker?.terminate();
      this.finish(slot);
      this.settle(job, new QueryCancelledError('the query was cancelled (its SQLite thread was stopped)'));
    }, this.options.cancelGraceMs);
  }

  /** Frees the slot and starts the next task waiting. */
  private finish(slot: Slot): void {
    if (slot.killTimer) clearTimeout(slot.killTimer);
    slot.killTimer = null;
    slot.job = null;
    queueMicrotask(() => {
      if (!this.closed) this.pump();
    });
  }

  private settle(job: Job, error: Error | null, value?: unknown): void {
    job.signal?.removeEventListener('abort', job.onAbort);
    if (error) job.reject(error);
    else job.resolve(value);
  }
}

function errorOf(reply: Extract<SqliteWorkerReply, { ok: false }>): Error {
  switch (reply.kind) {
    case 'cancelled':
      return new QueryCancelledError(reply.message);
    case 'unavailable':
      return new DatabaseUnavailableError(reply.message);
    case 'failed':
      return new Error(reply.message);
    case 'agent':
      return new AgentError(reply.code, reply.message, reply.detail);
  }
}
