import type { ErrorCode, ListOperation, ReadOperation } from '@gp-gateway/protocol';
import type { CreateThreadTasks } from '../db/sqliteWorkerPool.ts';
import { AgentError } from './agentError.ts';
import { ReadService, type ReadResult } from './readService.ts';

/**
 * What ThreadedReadService asks of a SQLite thread: lists (and gets, when asked) run whole there,
 * through the thread's own ReadService, so that only a page's JSON comes back to the main thread,
 * which is far cheaper to pass than thousands of row arrays.
 */
export type ReadServiceTask = { kind: 'operation'; op: ReadOperation } | { kind: 'listEnd'; op: ListOperation } | { kind: 'health' };

/** An AgentError as it crosses the thread boundary: the agent's refusals keep their code. */
interface AgentErrorData {
  code: ErrorCode;
  message: string;
  detail: string | null;
}

/** Loaded by each thread of ThreadedReadService's pool (SqliteWorkerPoolOptions.tasks). */
export const createThreadTasks: CreateThreadTasks = (thread) => {
  const service = new ReadService(thread.executor);
  return {
    run(task: ReadServiceTask) {
      switch (task.kind) {
        case 'operation':
          thread.slowDown(task.op.company);
          return service.handle(task.op);
        case 'listEnd':
          thread.slowDown(task.op.company);
          return service.listEnd(task.op);
        case 'health':
          return service.health();
      }
    },
    handedOver,
    errorData: (error) =>
      error instanceof AgentError
        ? ({ code: error.code, message: error.message, detail: error.detail } satisfies AgentErrorData)
        : undefined,
  };
};

/** AgentErrorData back into the AgentError it was (SqliteWorkerPoolOptions.reviveError). */
export function agentErrorFrom(data: unknown): AgentError {
  const { code, message, detail } = data as AgentErrorData;
  return new AgentError(code, message, detail);
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
