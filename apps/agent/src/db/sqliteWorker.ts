import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseUnavailableError, QueryCancelledError } from './executor.ts';
import { SqliteDatabases } from './sqliteDatabases.ts';
import type { SqliteWorkerData, SqliteWorkerReply, SqliteWorkerTask } from './sqliteWorkerExecutor.ts';

/**
 * One thread of SqliteWorkerExecutor: runs one task at a time against its own connections. The
 * main thread cancels by setting `cancel[0]` to 1 (and notifying); rows are stepped one by one and
 * the flag is read between rows, so a cancelled statement stops at its next row.
 */
if (!parentPort) throw new Error('sqliteWorker must run as a worker thread');
const port = parentPort;
const { dir, readonly, cancel, testDelayMs } = workerData as SqliteWorkerData;
const flag = new Int32Array(cancel);
const databases = new SqliteDatabases({ dir, readonly });
const cancelled = () => Atomics.load(flag, 0) !== 0;

port.on('message', (task: SqliteWorkerTask) => {
  let reply: SqliteWorkerReply;
  try {
    reply = { id: task.id, ok: true, result: run(task) };
  } catch (error) {
    const kind = error instanceof QueryCancelledError ? 'cancelled' : error instanceof DatabaseUnavailableError ? 'unavailable' : 'failed';
    reply = { id: task.id, ok: false, kind, message: (error as Error).message };
  }
  port.postMessage(reply);
});

function run(task: SqliteWorkerTask): unknown {
  switch (task.kind) {
    case 'query':
      // Test-only (GP_AGENT_TEST_DELAY_MS): a statement on a company database first takes this long,
      // as a slow one would, and is cancelled the same way; the wait ends early when cancelled.
      if (testDelayMs > 0 && task.company !== null) Atomics.wait(flag, 0, 0, testDelayMs);
      return databases.run(task.company, task.sql, task.params, cancelled);
    case 'gpVersion':
      return databases.gpVersion();
    case 'checkReadable':
      databases.checkReadable(task.company, task.table);
      return null;
  }
}
