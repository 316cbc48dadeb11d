import { traceIdOfActiveSpan } from '@gp-gateway/telemetry';
import pino, { type Logger } from 'pino';
import type { DatabaseConfig } from './runConfig.ts';
import type { AgentInfo } from '@gp-gateway/protocol';
import type { Executor } from '../db/executor.ts';
import { MssqlExecutor, type MssqlExecutorOptions } from '../db/mssqlExecutor.ts';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { ReadAhead } from '../service/readAhead.ts';
import { ReadService, type OperationHandler } from '../service/readService.ts';
import { ThreadedReadService } from '../service/threadedReadService.ts';
import { FAULT_ENV, FAULT_EXIT_CODE, type Fault } from '../writes/faults.ts';
import { MssqlWriter } from '../writes/mssql/mssqlWriter.ts';
import { SqliteWriter } from '../writes/sqliteWriter.ts';
import { WriteService } from '../writes/writeService.ts';

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
      // The trace id of the gateway request being answered, when tracing (docs/operations.md#traces).
      mixin: traceIdOfActiveSpan,
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

/** The executor for the configured database, on the calling thread: for the one-shot commands. */
export function openExecutor(database: DatabaseConfig): Executor {
  if (database.kind === 'mssql') return new MssqlExecutor(database.connection, mssqlOptions(database));
  return new SqliteExecutor({ dir: database.dir, readonly: true });
}

function mssqlOptions(database: Extract<DatabaseConfig, { kind: 'mssql' }>): MssqlExecutorOptions {
  return { isolation: database.isolation, lockTimeoutMs: database.lockTimeoutMs, systemDatabase: database.systemDatabase };
}

export interface ServingOptions {
  /** Worker threads for SQLite (cancellable, off the event loop). */
  sqliteThreads: number;
  testDelayMs: number;
  /** The customer's IT turned writes on (`--allow-writes`). */
  allowWrites?: boolean;
  /** Test-only (writes/faults.ts). */
  fault?: Fault | null;
}

/** What `gp-agent run` answers operations with, and what it closes when it stops. */
export interface Serving {
  service: OperationHandler;
  /** Present only when writes are on. */
  writes?: WriteService;
  dialect: AgentInfo['dialect'];
  /** The SQL Server executor the service reads with, for the checks at start; null on SQLite. */
  mssql: Executor | null;
  close(): Promise<void>;
}

/**
 * SQL Server: a ReadService over the driver's pool (its I/O never blocks the event loop). SQLite:
 * a ThreadedReadService, which runs lists on its threads (cancellable) and gets, single index
 * seeks, on the event loop. Either way, walks are read ahead (ReadAhead).
 */
export function openServing(database: DatabaseConfig, options: ServingOptions): Serving {
  const { reads, dialect, mssql, closeDatabase } = openReads(database, options);
  const service = new ReadAhead(reads);
  const writes = options.allowWrites ? openWrites(database, options.fault ?? null) : undefined;
  return {
    service,
    ...(writes && { writes }),
    dialect,
    mssql,
    close: async () => {
      service.close();
      await writes?.close();
      await closeDatabase();
    },
  };
}

/**
 * The one writer of the agent: on the embedded database, a writable connection of its own beside
 * the read-only readers (SQLite has one writer; its WAL lets the readers read on meanwhile); on SQL
 * Server, eConnect's procedures through the driver's pool.
 */
function openWrites(database: DatabaseConfig, fault: Fault | null): WriteService {
  const afterCommit =
    fault === 'exit-after-commit'
      ? () => {
          console.error(`gp-agent: ${FAULT_ENV}=exit-after-commit: exiting right after a COMMIT, before its answer (test only)`);
          process.exit(FAULT_EXIT_CODE);
        }
      : undefined;
  return new WriteService(openWriter(database), { allowWrites: true, ...(afterCommit && { afterCommit }) });
}

/** The configured database's writer: eConnect's procedures on SQL Server, the embedded writer on SQLite. */
export function openWriter(database: DatabaseConfig): MssqlWriter | SqliteWriter {
  return database.kind === 'mssql'
    ? new MssqlWriter(database.connection, {
        systemDatabase: database.systemDatabase,
        lockTimeoutMs: database.lockTimeoutMs,
        ...(database.writeTimeoutMs !== undefined && { requestTimeoutMs: database.writeTimeoutMs }),
      })
    : new SqliteWriter({ dir: database.dir, readonly: false });
}

function openReads(
  database: DatabaseConfig,
  options: ServingOptions,
): { reads: OperationHandler; dialect: AgentInfo['dialect']; mssql: Executor | null; closeDatabase(): Promise<void> } {
  if (database.kind === 'mssql') {
    const executor = new MssqlExecutor(database.connection, mssqlOptions(database));
    return { reads: new ReadService(executor), dialect: 'mssql', mssql: executor, closeDatabase: () => executor.close() };
  }
  const reads = new ThreadedReadService({
    dir: database.dir,
    readonly: true,
    workers: options.sqliteThreads,
    testDelayMs: options.testDelayMs,
  });
  return { reads, dialect: 'sqlite', mssql: null, closeDatabase: () => reads.close() };
}
