import type { ListOperation, ReadOperation, Position } from '@gp-gateway/protocol';
import { SqliteWorkerPool, type SqliteWorkerPoolOptions } from '../db/sqliteWorkerPool.ts';
import { ReadService, type HealthReport, type OperationHandler, type ReadResult } from './readService.ts';
import { agentErrorFrom, type ReadServiceTask } from './readServiceThread.ts';

const THREAD_TASKS = new URL('./readServiceThread.ts', import.meta.url);

/**
 * The longest list page read on the calling thread: the API's default page. A 100-row page takes
 * 0.1-0.3 ms there; a longer one would hold the agent's event loop for milliseconds, and an
 * export's 1000-row pages gain from two threads reading at once (ReadAhead).
 */
const SHORT_PAGE_ROWS = 100;

export type ThreadedReadServiceOptions = Omit<SqliteWorkerPoolOptions, 'tasks' | 'reviveError'>;

/**
 * The embedded database's operations, for `gp-agent run` and the sandbox. Lists run whole in the
 * SqliteWorkerPool's threads, each with its own ReadService (readServiceThread.ts), where they can
 * be cancelled and never block the event loop. Small bounded work runs on the calling thread
 * instead (answersOnCallingThread): there the trip to a thread and back would cost more than the
 * read, and there is nothing to cancel.
 */
export class ThreadedReadService implements OperationHandler {
  private readonly pool: SqliteWorkerPool;
  /** Gets and short pages, on the calling thread (answersOnCallingThread). */
  private readonly seeks: ReadService;

  constructor(options: ThreadedReadServiceOptions) {
    this.pool = new SqliteWorkerPool({ ...options, tasks: THREAD_TASKS, reviveError: agentErrorFrom });
    this.seeks = new ReadService(this.pool.callingThread);
  }

  /**
   * A get, which reads one row through the table's key (an index seek), and a page of at most
   * SHORT_PAGE_ROWS that reads only its own rows (ReadService.readsOnlyItsRows): both take a
   * fraction of a millisecond on this thread, less than the trip to a thread and back (0.1-0.2 ms
   * at concurrency 1, `pnpm bench`), and need no cancelling. callingThreadPlans.test.ts checks
   * their plans. A page with filters may scan a whole table to fill itself, so it goes to a thread.
   */
  answersOnCallingThread(op: ReadOperation): boolean {
    return op.kind === 'get' || (op.limit <= SHORT_PAGE_ROWS && this.seeks.readsOnlyItsRows(op));
  }

  async handle(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult> {
    if (this.answersOnCallingThread(op)) {
      this.pool.checkOpen();
      return this.seeks.handle(op, signal);
    }
    const result = (await this.pool.run({ kind: 'operation', op } satisfies ReadServiceTask, signal)) as ReadResult;
    // Bytes cross the thread boundary as a plain Uint8Array; the rest of the agent expects a Buffer.
    const payload = result.payload as string | Uint8Array;
    return typeof payload === 'string' || Buffer.isBuffer(payload)
      ? result
      : { ...result, payload: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength) };
  }

  /** Where a list page ends, from its keys alone, on a thread (ReadService.listEnd). */
  async pageEnd(op: ListOperation, signal?: AbortSignal): Promise<Position | null> {
    return (await this.pool.run({ kind: 'listEnd', op } satisfies ReadServiceTask, signal)) as Position | null;
  }

  async health(): Promise<HealthReport> {
    return (await this.pool.run({ kind: 'health' } satisfies ReadServiceTask)) as HealthReport;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
