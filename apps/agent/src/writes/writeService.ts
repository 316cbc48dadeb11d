import { checkWriteBody, type OutcomeOperation, type WriteCheck, type WriteOperation, type WriteOutcome } from '@gp-gateway/protocol';
import type { OperationHandler } from '../service/readService.ts';
import { AgentError } from '../service/agentError.ts';
import { WriteRefusal } from './refusals.ts';
import { runWriteChecks } from './writeCheck.ts';

/** What the gateway is told the agent's customer IT decided, word for word (the gateway shows it as is). */
export const WRITES_OFF_MESSAGE = "writes are turned off on this agent; the customer's IT turns them on with --allow-writes";

/** A write or outcome answered: its outcome and the payload (the created record's JSON; none for not_executed). */
export interface WriteAnswer {
  outcome: WriteOutcome;
  payload: string | null;
}

/** What answers the gateway's write and outcome operations. */
export interface WriteHandler {
  write(op: WriteOperation): Promise<WriteAnswer>;
  outcome(op: OutcomeOperation): Promise<WriteAnswer>;
  /** The last write check's result (writeCheck.ts), for the agent's health; null before one ran. */
  lastCheck?(): WriteCheck | null;
  /** Calls `listener` each time a write check finishes (the session then reports it at once); returns how to stop. */
  onCheck?(listener: () => void): () => void;
}

/** A database's writer: checks, rows and journal, in one transaction (SqliteWriter; the SQL Server one runs eConnect). */
export interface Writer {
  write(
    request: {
      object: WriteOperation['object'];
      company: string;
      operationId: string;
      body: import('@gp-gateway/protocol').WriteBody;
      validateOnly: boolean;
    },
    afterCommit?: () => void,
  ): { outcome: WriteOutcome; answer: string | null } | Promise<{ outcome: WriteOutcome; answer: string | null }>;
  outcome(
    company: string,
    operationId: string,
  ): { outcome: WriteOutcome; answer: string | null } | Promise<{ outcome: WriteOutcome; answer: string | null }>;
  close(): void | Promise<void>;
}

export interface WriteServiceOptions {
  /** The customer's IT's switch (`--allow-writes`); off, every write and outcome is refused. */
  allowWrites: boolean;
  /**
   * Validate-only writes are answered even with writes off: the sandbox, read-only, checks a body
   * against its data and writes nothing (docs/decisions.md#writes).
   */
  validateOnlyWhenOff?: boolean;
  /** Test-only (writes/faults.ts): runs right after a write's COMMIT, before its answer is sent. */
  afterCommit?: () => void;
}

/**
 * The agent's writes: the switch, the body checked again with the protocol's own schema (the agent
 * trusts no gateway), then the database's writer. One write at a time: SQLite has one writer, and
 * on SQL Server eConnect's numbering and batch rows serialise writes anyway.
 */
export class WriteService implements WriteHandler {
  private readonly writer: Writer;
  private readonly options: WriteServiceOptions;
  private queue: Promise<unknown> = Promise.resolve();
  private checked: WriteCheck | null = null;
  private readonly checkListeners = new Set<() => void>();

  constructor(writer: Writer, options: WriteServiceOptions) {
    this.writer = writer;
    this.options = options;
  }

  async write(op: WriteOperation): Promise<WriteAnswer> {
    if (!this.options.allowWrites && !(op.validateOnly && this.options.validateOnlyWhenOff))
      throw new AgentError('FORBIDDEN', WRITES_OFF_MESSAGE);
    const checked = checkWriteBody(op.object, op.body);
    if (!checked.ok) throw new WriteRefusal(checked.issues, 'the body is not valid: see details.issues');
    const request = {
      object: op.object,
      company: op.company,
      operationId: op.operationId,
      body: checked.body,
      validateOnly: op.validateOnly,
    };
    const done = await this.serially(() => this.writer.write(request, this.options.afterCommit));
    return { outcome: done.outcome, payload: done.answer };
  }

  async outcome(op: OutcomeOperation): Promise<WriteAnswer> {
    if (!this.options.allowWrites) throw new AgentError('FORBIDDEN', WRITES_OFF_MESSAGE);
    const done = await this.serially(() => this.writer.outcome(op.company, op.operationId));
    return { outcome: done.outcome, payload: done.answer };
  }

  /**
   * The write check in `companies` (writeCheck.ts): validate-only writes, so with writes off only
   * where validate-only is answered then (validateOnlyWhenOff); kept for the agent's health.
   */
  async check(reads: OperationHandler, companies: readonly string[]): Promise<WriteCheck> {
    const checked = await runWriteChecks(this, reads, companies);
    this.checked = checked;
    for (const listener of this.checkListeners) listener();
    return checked;
  }

  onCheck(listener: () => void): () => void {
    this.checkListeners.add(listener);
    return () => this.checkListeners.delete(listener);
  }

  lastCheck(): WriteCheck | null {
    return this.checked;
  }

  close(): Promise<void> {
    return this.serially(() => this.writer.close());
  }

  private serially<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }
}
