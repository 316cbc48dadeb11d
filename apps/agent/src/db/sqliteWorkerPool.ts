import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import type { CompiledQuery, Param } from '../sql/model.ts';
import { SqliteExecutor } from './sqliteExecutor.ts';
import { DatabaseUnavailableError, QueryCancelledError, SYSTEM_DATABASE, type Executor } from './executor.ts';

const WORKER_PATH = fileURLToPath(new URL('./sqliteWorkerBootstrap.mjs', import.meta.url));

/**
 * A SQLite thread's young generation, in MB. What a thread allocates dies young: rows, and each
 * page's bytes, which live outside the heap and are freed only when a scavenge finds them dead.
 * V8's default young generation grows to 48 MB per thread under an export's pace, and the bytes it
 * waits to free with it; at 4 MB, the agent's RSS stays flat through a full export with both
 * threads reading (bench: 320-340 MB against 340-390 MB), at the same speed.
 */
const THREAD_YOUNG_GENERATION_MB = 4;

export interface SqliteWorkerPoolOptions {
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
  /** Test-only slowness, see GP_AGENT_TEST_DELAY_MS in docs/operations.md. Never set in production. */
  testDelayMs?: number;
  /**
   * A module each thread loads for the tasks given to `run`: its `createThreadTasks` export
   * (CreateThreadTasks) gets the thread's databases. Without it the threads run single statements.
   */
  tasks?: URL;
  /** Turns what the threads' tasks sent as an error of their own (SqliteThreadTasks.errorData) back into it. */
  reviveError?: (data: unknown) => Error;
}

export interface SqliteWorkerData {
  dir: string;
  readonly: boolean;
  /** Int32Array(1) over this buffer: 0 = carry on, 1 = cancel the running task. */
  cancel: SharedArrayBuffer;
  testDelayMs: number;
  /** SqliteWorkerPoolOptions.tasks, as a file URL. */
  tasks: string | null;
}

export type SqliteWorkerTask = { id: number } & (
  | { kind: 'task'; task: unknown }
  | { kind: 'query'; company: string | null; sql: string; params: Param[] }
  | { kind: 'gpVersion' }
  | { kind: 'checkReadable'; company: string | null; table: string }
);

export type SqliteWorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; kind: 'cancelled' | 'unavailable' | 'failed'; message: string }
  | { id: number; ok: false; kind: 'task'; error: unknown };

/** What a thread offers the tasks it runs (SqliteWorkerPoolOptions.tasks). */
export interface SqliteThread {
  /** The thread's own databases; a statement stops at its next row once its task is cancelled. */
  readonly executor: Executor;
  /**
   * Call before a task's work on `company`'s database: with GP_AGENT_TEST_DELAY_MS, that work
   * first waits as a slow query would (not on the system database). Throws QueryCancelledError
   * when the task is cancelled, waiting or not.
   */
  slowDown(company: string | null): void;
}

/** Runs the tasks given to SqliteWorkerPool.run, in one thread. */
export interface SqliteThreadTasks {
  /** Returns the task's result (or its promise), which must survive structured cloning. */
  run(task: unknown): unknown;
  /** Buffers of a result to move to the main thread rather than copy; each must be the result's alone. */
  handedOver?(result: unknown): ArrayBuffer[];
  /** An error of the tasks' own kind as data for SqliteWorkerPoolOptions.reviveError; undefined for any other. */
  errorData?(error: unknown): unknown;
}

/** The `createThreadTasks` export of a tasks module. */
export type CreateThreadTasks = (thread: SqliteThread) => SqliteThreadTasks;

interface Job {
  message: SqliteWorkerTask;
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
 * As an Executor it runs single statements on the threads. Larger tasks (`run`) are whatever the
 * `tasks` module makes of them, so that their rows need not cross the thread boundary at all
 * (service/readServiceThread.ts reads whole list pages there). Work too short to be worth the trip
 * to a thread and back goes to `callingThread` instead: the same databases, on this thread.
 */
export class SqliteWorkerPool implements Executor {
  readonly dialect = sqliteDialect;
  readonly systemDatabase = SYSTEM_DATABASE;
  /**
   * The same databases on the calling thread, synchronous underneath: nothing on it can be
   * cancelled midway. Closed with the pool; call checkOpen before starting work on it.
   */
  readonly callingThread: Executor;
  private readonly options: Required<Omit<SqliteWorkerPoolOptions, 'tasks' | 'reviveError'>>;
  private readonly tasks: string | null;
  private readonly reviveError: ((data: unknown) => Error) | undefined;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor({ tasks, reviveError, ...options }: SqliteWorkerPoolOptions) {
    this.options = { readonly: true, workers: 2, cancelGraceMs: 250, testDelayMs: 0, ...options };
    this.tasks = tasks?.href ?? null;
    this.reviveError = reviveError;
    this.callingThread = new SqliteExecutor({ dir: this.options.dir, readonly: this.options.readonly });
    this.slots = Array.from({ length: Math.max(1, this.options.workers) }, () => {
      const buffer = new SharedArrayBuffer(4);
      return { worker: null, buffer, flag: new Int32Array(buffer), job: null, killTimer: null };
    });
  }

  /** Throws QueryCancelledError once the pool is closing: no new work, on a thread or this one. */
  checkOpen(): void {
    if (this.closed) throw stopping();
  }

  /** A task for the threads' `tasks` module; cancelled like a statement when `signal` aborts. */
  run(task: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.submit({ id: this.nextId++, kind: 'task', task }, signal);
  }

  async query(company: string | null, query: CompiledQuery, signal?: AbortSignal): Promise<unknown[][]> {
    return (await this.submit({ id: this.nextId++, kind: 'query', company, sql: query.sql, params: query.params }, signal)) as unknown[][];
  }

  async forEachRow(company: string | null, query: CompiledQuery, onRow: (row: unknown[]) => void, signal?: AbortSignal): Promise<void> {
    for (const row of await this.query(company, query, signal)) onRow(row);
  }

  async gpVersion(): Promise<string | null> {
    return (await this.submit({ id: this.nextId++, kind: 'gpVersion' }, undefined)) as string | null;
  }

  async checkReadable(company: string | null, table: string): Promise<void> {
    await this.submit({ id: this.nextId++, kind: 'checkReadable', company, table }, undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.callingThread.close();
    for (const job of this.queue.splice(0)) this.settle(job, stopping());
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.settle(slot.job, stopping());
        slot.job = null;
        if (slot.killTimer) clearTimeout(slot.killTimer);
        const worker = slot.worker;
        slot.worker = null;
        await worker?.terminate();
      }),
    );
  }

  private submit(message: SqliteWorkerTask, signal: AbortSignal | undefined): Promise<unknown> {
    if (this.closed) return Promise.reject(stopping());
    if (signal?.aborted) return Promise.reject(new QueryCancelledError());
    return new Promise((resolve, reject) => {
      const job: Job = { message, signal, onAbort: () => this.abort(job), resolve, reject };
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
      this.workerOf(slot).postMessage(job.message);
    }
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    const { dir, readonly, testDelayMs } = this.options;
    const data: SqliteWorkerData = { dir, readonly, cancel: slot.buffer, testDelayMs, tasks: this.tasks };
    const worker = new Worker(WORKER_PATH, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB } });
    slot.worker = worker;
    worker.on('message', (reply: SqliteWorkerReply) => {
      const job = slot.job;
      if (slot.worker !== worker || !job || job.message.id !== reply.id) return;
      this.finish(slot);
      if (reply.ok) this.settle(job, null, reply.result);
      else this.settle(job, this.errorOf(reply));
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

  private errorOf(reply: Extract<SqliteWorkerReply, { ok: false }>): Error {
    switch (reply.kind) {
      case 'cancelled':
        return new QueryCancelledError(reply.message);
      case 'unavailable':
        return new DatabaseUnavailableError(reply.message);
      case 'failed':
        return new Error(reply.message);
      case 'task':
        return this.reviveError ? this.reviveError(reply.error) : new Error(String(reply.error));
    }
  }
}

function stopping(): QueryCancelledError {
  return new QueryCancelledError('the agent is stopping');
}
