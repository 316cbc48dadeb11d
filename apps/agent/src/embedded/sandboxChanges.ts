import type { Logger } from 'pino';
import { SqliteWorkerPool } from '../db/sqliteWorkerPool.ts';
import type { OperationHandler } from '../service/readService.ts';
import { catalogueRecords } from '../changes/catalogueRecords.ts';
import { ChangeDetector } from '../changes/changeDetector.ts';
import { ChangeReporter, type ChangeSchedule } from '../changes/changeReporter.ts';
import { MEMORY_ONLY, SqliteDetectionState, type DetectionStateStore } from '../changes/detectionState.ts';

/** How the built-in sandbox agent detects changes in the demo (the gateway's SANDBOX_CHANGES_* settings). */
export interface SandboxChangeOptions {
  /** A round of polls starts this often; 0 turns detection off. */
  intervalMs: number;
  budgetMs?: number;
  overlapMs?: number;
  /** The state file (change-detection.sqlite); none: the demo is learnt again after every start. */
  stateFile?: string;
}

export interface SandboxChanges {
  reporter: ChangeReporter;
  close(): Promise<void>;
}

/**
 * Change detection over the demo databases, the same code a remote agent runs over the embedded
 * database (cli/commands/run.ts): the detector reads on a SQLite thread of its own, so a table scan
 * never holds up the sandbox's reads, and records are read through the sandbox's read service, so an
 * event's record is what a test key's GET answers.
 */
export function sandboxChanges(dir: string, service: OperationHandler, options: SandboxChangeOptions, log: Logger): SandboxChanges {
  const executor = new SqliteWorkerPool({ dir, readonly: true, workers: 1 });
  const state = openState(options.stateFile, log);
  const schedule: Partial<ChangeSchedule> = { intervalMs: options.intervalMs };
  if (options.budgetMs !== undefined) schedule.budgetMs = options.budgetMs;
  const reporter = new ChangeReporter({
    detector: new ChangeDetector(executor, catalogueRecords(service), {
      ...(options.overlapMs !== undefined && { overlapMs: options.overlapMs }),
      state,
    }),
    companies: async () => (await service.health()).companies.map((c) => c.id),
    // The sandbox worker's logger already names its component (sandbox-agent); a second would repeat the key.
    log,
    schedule,
  });
  return {
    reporter,
    async close() {
      reporter.detach();
      await reporter.settled();
      await executor.close();
      state.close();
    },
  };
}

/** The state file, or memory only when it cannot be opened (detection still runs; a restart learns the demo again). */
function openState(file: string | undefined, log: Logger): DetectionStateStore {
  if (!file) return MEMORY_ONLY;
  try {
    return new SqliteDetectionState(file);
  } catch (error) {
    log.warn(
      { file, err: (error as Error).message },
      'the sandbox cannot keep its change detection state; it learns the demo again after each start',
    );
    return MEMORY_ONLY;
  }
}
