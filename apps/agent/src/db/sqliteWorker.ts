import { parentPort, workerData } from 'node:worker_threads';
import { AgentError } from '../service/agentError.ts';
import { ReadService, type ReadResult } from '../service/readService.ts';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { DatabaseUnavailableError, QueryCancelledError, type Executor } from './executor.ts';
import { SqliteDatabases } from './sqliteDatabases.ts';
import type { SqliteWorkerData, SqliteWorkerReply, SqliteWorkerTask } from './sqliteWorkerExecutor.ts';

/**
 * One thread of SqliteWorkerExecutor: runs one task at a time against its own connections. The
 * main thread cancels by setting `cancel[0]` to 1 (and notifying); rows are stepped one by one and
 * the flag is read between rows, so a cancelled statement stops at its next row. Operations run
 * through this thread's own ReadService, so only their JSON text goes back to the main thread.
 */
if (!parentPort) throw new Error('sqliteWorker must run as a worker thread');
const port = parentPort;
const { dir, readonly, cancel, testDelayMs } = workerData as SqliteWorkerData;
const flag = new Int32Array(cancel);
const databases = new SqliteDatabases({ dir, readonly });
const cancelled = () => Atomics.load(flag, 0) !== 0;

function query(company: string | null, sql: string, params: CompiledQuery['params']): unknown[][] {
  return databases.run(company, sql, params, cancelled);
}

/**
 * Test-only (GP_AGENT_TEST_DELAY_MS): work on a company database (a list, or a statement run for the
 * main thread) first takes this long, as a slow query would, and is cancelled the same way: the wait
 * ends early when cancelled. Once per task, however many statements it runs.
 */
function slowDown(company: string | null): void {
  if (testDelayMs > 0 && company !== null) Atomics.wait(flag, 0, 0, testDelayMs);
  if (cancelled()) throw new QueryCancelledError();
}

/** This thread's databases as an Executor, for its ReadService: synchronous underneath. */
const executor: Executor = {
  dialect: sqliteDialect,
  query: async (company, compiled) => query(company, compiled.sql, compiled.params),
  forEachRow: async (company, compiled, onRow) => {
    for (const row of query(company, compiled.sql, compiled.params)) onRow(row);
  },
  gpVersion: async () => databases.gpVersion(),
  checkReadable: async (company, table) => databases.checkReadable(company, table),
  close: async () => databases.close(),
};
const service = new ReadService(executor);

port.on('message', (task: SqliteWorkerTask) => {
  run(task).then(
    (result) => port.postMessage({ id: task.id, ok: true, result } satisfies SqliteWorkerReply, handedOver(result)),
    (error: unknown) => port.postMessage(failure(task.id, error)),
  );
});

async function run(task: SqliteWorkerTask): Promise<unknown> {
  switch (task.kind) {
    case 'operation':
      slowDown(task.op.company);
      return service.handle(task.op);
    case 'listEnd':
      slowDown(task.op.company);
      return service.listEnd(task.op);
    case 'health':
      return service.health();
    case 'query':
      slowDown(task.company);
      return query(task.company, task.sql, task.params);
    case 'gpVersion':
      return databases.gpVersion();
    case 'checkReadable':
      databases.checkReadable(task.company, task.table);
      return null;
  }
}

/**
 * A page's bytes, when they fill a buffer of their own, move to the main thread instead of being
 * copied (ReadService writes SQLite-written pages that way).
 */
function handedOver(result: unknown): ArrayBuffer[] {
  const payload = (result as Partial<ReadResult> | null)?.payload;
  if (!(payload instanceof Uint8Array)) return [];
  const whole = payload.byteOffset === 0 && payload.byteLength === payload.buffer.byteLength && payload.buffer instanceof ArrayBuffer;
  return whole ? [payload.buffer as ArrayBuffer] : [];
}

function failure(id: number, error: unknown): SqliteWorkerReply {
  const message = (error as Error).message;
  if (error instanceof AgentError) return { id, ok: false, kind: 'agent', code: error.code, message, detail: error.detail };
  const kind = error instanceof QueryCancelledError ? 'cancelled' : error instanceof DatabaseUnavailableError ? 'unavailable' : 'failed';
  return { id, ok: false, kind, message };
}
