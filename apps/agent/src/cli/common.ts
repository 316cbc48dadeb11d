import pino, { type Logger } from 'pino';
import type { DatabaseConfig } from './runConfig.ts';
import type { Executor } from '../db/executor.ts';
import { MssqlExecutor } from '../db/mssqlExecutor.ts';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { SqliteWorkerExecutor } from '../db/sqliteWorkerExecutor.ts';

export interface AgentLogger {
  log: Logger;
  /** Writes out what is buffered; call before the process exits. */
  flush(): void;
}

/**
 * JSON lines to standard output (the service wrapper collects and rotates them: journald, WinSW), or
 * to a file when one is configured; SIGHUP reopens the file, for logrotate. Secrets never reach a
 * log line: the redaction is a second line of defence behind logging identifiers only.
 */
export function createAgentLogger(level: string, file: string | null): AgentLogger {
  const destination = file ? pino.destination({ dest: file, mkdir: true, sync: false }) : pino.destination({ dest: 1, sync: true });
  if (file) process.on('SIGHUP', () => destination.reopen());
  const log = pino(
    {
      level,
      base: { component: 'agent' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['token', 'connection', '*.token', '*.connection', 'headers.authorization'], censor: '[redacted]' },
    },
    destination,
  );
  return {
    log,
    flush() {
      try {
        destination.flushSync();
      } catch {
        // Nothing buffered, or the file is gone: nothing more can be done here.
      }
    },
  };
}

export interface ExecutorChoice {
  /** Worker threads for SQLite (cancellable, off the event loop); the one-shot commands do without. */
  threads?: number;
  testDelayMs?: number;
}

/** The executor for the configured database. */
export function openExecutor(database: DatabaseConfig, choice: ExecutorChoice = {}): Executor {
  if (database.kind === 'mssql') return new MssqlExecutor(database.connection, { isolation: database.isolation });
  if (choice.threads) return new SqliteWorkerExecutor({ dir: database.dir, readonly: true, workers: choice.threads, testDelayMs: choice.testDelayMs ?? 0 });
  return new SqliteExecutor({ dir: database.dir, readonly: true });
}

/** Prints a ConfigError or any other failure the way every command does, and sets the exit code. */
export function reportFailure(command: string, error: unknown): void {
  console.error(`gp-agent ${command}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
