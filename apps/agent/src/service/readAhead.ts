import type { ListOperation, Operation } from '@gp-gateway/protocol';
import { QueryCancelledError } from '../db/executor.ts';
import type { HealthReport, OperationHandler, ReadResult } from './readService.ts';

export interface ReadAheadOptions {
  /** How long a page read ahead waits for its request; an older one is dropped, never served. */
  freshMs: number;
  /** Pages read ahead at once, across all walks: bounds the memory and database work spent on guesses. */
  maxPages: number;
}

export const READ_AHEAD_DEFAULTS: ReadAheadOptions = { freshMs: 2_000, maxPages: 8 };

interface Ahead {
  result: Promise<ReadResult>;
  controller: AbortController;
  timer: NodeJS.Timeout;
}

/**
 * Reads the next page of a walk while the current one travels to the client. A client exporting a
 * list asks for page n+1 as soon as it has page n; by then that page is ready, so the database's
 * time overlaps the network's instead of adding to it.
 *
 * Only walks past their first page are read ahead, so a client that reads one page costs nothing
 * extra. A page read ahead is served once, and only within `freshMs` of being read: what a client
 * sees is never older than that (docs/decisions.md). The position is the same keyset position
 * either way, so a walk returns exactly the rows it would without read-ahead.
 */
export class ReadAhead implements OperationHandler {
  private readonly inner: OperationHandler;
  private readonly options: ReadAheadOptions;
  private readonly pages = new Map<string, Ahead>();

  constructor(inner: OperationHandler, options: ReadAheadOptions = READ_AHEAD_DEFAULTS) {
    this.inner = inner;
    this.options = options;
  }

  async handle(op: Operation, signal?: AbortSignal): Promise<ReadResult> {
    const result = (await this.take(op, signal)) ?? (await this.inner.handle(op, signal));
    if (op.kind === 'list' && op.after !== null && result.next !== null && !signal?.aborted) this.start({ ...op, after: result.next });
    return result;
  }

  health(): Promise<HealthReport> {
    return this.inner.health();
  }

  /** Pages read ahead and not yet asked for. */
  get pending(): number {
    return this.pages.size;
  }

  /** Cancels and forgets every page read ahead: the agent is stopping. */
  close(): void {
    for (const key of [...this.pages.keys()]) this.drop(key);
  }

  /** The page read ahead for this operation, or null when there is none or reading it failed. */
  private async take(op: Operation, signal: AbortSignal | undefined): Promise<ReadResult | null> {
    if (op.kind !== 'list' || op.after === null) return null;
    const key = keyOf(op);
    const ahead = this.pages.get(key);
    if (!ahead) return null;
    this.pages.delete(key);
    clearTimeout(ahead.timer);
    const cancel = () => ahead.controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await ahead.result;
    } catch (error) {
      if (signal?.aborted) throw error instanceof QueryCancelledError ? error : new QueryCancelledError();
      // Reading ahead failed (the database went away, say): read it now, which reports why.
      return null;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  private start(op: ListOperation): void {
    const key = keyOf(op);
    if (this.pages.size >= this.options.maxPages || this.pages.has(key)) return;
    const controller = new AbortController();
    const result = this.inner.handle(op, controller.signal);
    // Nobody may ever ask for this page; its failure must not become an unhandled rejection.
    result.catch(() => {});
    const timer = setTimeout(() => this.drop(key), this.options.freshMs);
    timer.unref();
    this.pages.set(key, { result, controller, timer });
  }

  private drop(key: string): void {
    const ahead = this.pages.get(key);
    if (!ahead) return;
    this.pages.delete(key);
    clearTimeout(ahead.timer);
    ahead.controller.abort();
  }
}

/** Everything that decides a page's rows. Cursors bind the filters, so a walk repeats them exactly. */
function keyOf(op: ListOperation): string {
  return JSON.stringify([op.object, op.company, op.filters, op.limit, op.after]);
}
