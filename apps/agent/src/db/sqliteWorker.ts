import { parentPort, workerData } from 'node:worker_threads';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { DatabaseUnavailableError, QueryCancelledError, SYSTEM_DATABASE, type Executor } from './executor.ts';
import { SqliteDatabases } from './sqliteDatabases.ts';
import type { CreateThreadTasks, SqliteThreadTasks, SqliteWorkerData, SqliteWorkerReply, SqliteWorkerTask } from './sqliteWorkerPool.ts';

/**
 * One thread of SqliteWorkerPool: runs one task at a time against its own connections. The main
 * thread cancels by setting `cancel[0]` to 1 (and notifying); rows are stepped one by one and the
 * flag is read between rows, so a cancelled statement stops at its next row. Tasks beyond single
 * statements go to the pool's `tasks` module, loaded here once, with this thread's databases.
 */
if (!parentPort) throw new Error('sqliteWorker must run as a worker thread');
const port = parentPort;
const { dir, readonly, cancel, testDelayMs, tasks: tasksModule } = workerData as SqliteWorkerData;
const flag = new Int32Array(cancel);
const databases = new SqliteDatabases({ dir, readonly });
const cancelled = () => Atomics.load(flag, 0) !== 0;
/** A reply's transfer list when it hands nothing over. */
const NOTHING: ArrayBuffer[] = [];

function query(company: string | null, sql: string, params: CompiledQuery['params']): unknown[][] {
  return databases.run(company, sql, params, cancelled);
}

/**
 * Test-only (GP_AGENT_TEST_DELAY_MS): work on a company database (a statement run for the main
 * thread, or a task's) first takes this long, as a slow query would, and is cancelled the same way:
 * the wait ends early when cancelled. Once per task, however many statements it runs.
 */
function slowDown(company: string | null): void {
  if (testDelayMs > 0 && company !== null) Atomics.wait(flag, 0, 0, testDelayMs);
  if (cancelled()) throw new QueryCancelledError();
}

/** This thread's databases as an Executor, for its tasks: synchronous underneath. */
const executor: Executor = {
  dialect: sqliteDialect,
  systemDatabase: SYSTEM_DATABASE,
  query: async (company, compiled) => query(company, compiled.sql, compiled.params),
  forEachRow: async (company, compiled, onRow) => {
    for (const row of query(company, compiled.sql, compiled.params)) onRow(row);
  },
  gpVersion: async () => databases.gpVersion(),
  checkReadable: async (company, table) => databases.checkReadable(company, table),
  close: async () => databases.close(),
};
const tasks: SqliteThreadTasks | null = tasksModule
  ? ((await import(tasksModule)) as { createThreadTasks: CreateThreadTasks }).createThreadTasks({ executor, slowDown })
  : null;

port.on('message', (task: SqliteWorkerTask) => {
  run(task).then(
    (result) => port.postMessage({ id: task.id, ok: true, result } satisfies SqliteWorkerReply, handedOver(task, result)),
    (error: unknown) => port.postMessage(failure(task.id, error)),
  );
});

async function run(task: SqliteWorkerTask): Promise<unknown> {
  switch (task.kind) {
    case 'task':
      if (!tasks) throw new Error('this SQLite pool was given no tasks module');
      return tasks.run(task.task);
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

/** What a reply moves to the main thread rather than copies: only the tasks module knows its results. */
function handedOver(task: SqliteWorkerTask, result: unknown): ArrayBuffer[] {
  return (task.kind === 'task' && tasks?.handedOver?.(result)) || NOTHING;
}

function failure(id: number, error: unknown): SqliteWorkerReply {
  const message = (error as Error).message;
  if (error instanceof QueryCancelledError) return { id, ok: false, kind: 'cancelled', message };
  if (error instanceof DatabaseUnavailableError) return { id, ok: false, kind: 'unavailable', message };
  const data = tasks?.errorData?.(error);
  return data === undefined ? { id, ok: false, kind: 'failed', message } : { id, ok: false, kind: 'task', error: data };
}
