import type { ListOperation, ReadOperation, Position } from '@gp-gateway/protocol';
import { QueryCancelledError } from '../db/executor.ts';
import type { HealthReport, OperationHandler, ReadResult } from './readService.ts';

export interface ReadAheadOptions {
  /** How long a page read ahead waits for its request; an older one is dropped, never served. */
  freshMs: number;
  /** Pages read ahead at once, across all walks: bounds the memory and database work spent on guesses. */
  maxPages: number;
}

const READ_AHEAD_DEFAULTS: ReadAheadOptions = { freshMs: 2_000, maxPages: 8 };

interface Ahead {
  result: Promise<ReadResult>;
  /** The page's `next` once read, so that the page after it need not ask where it ends. */
  next: Position | null | undefined;
  controller: AbortController;
  timer: NodeJS.Timeout;
  /** Whether the page after this one has been started. */
  followed: boolean;
}

/**
 * Pages a walk is read ahead of the page last served: two where the handler can say where a page
 * ends before reading it (pageEnd: the embedded database's threads), so that two threads read at
 * once; otherwise one, since the second could only start when the first is read.
 */
const DEPTH_WITH_PAGE_END = 2;

/**
 * Reads the next page of a walk while the current one travels to the client. A client exporting a
 * list asks for page n+1 as soon as it has page n; by then that page is ready, so the database's
 * time overlaps the network's instead of adding to it.
 *
 * Only walks past their first page are read ahead, so a client that reads one page costs nothing
 * extra; and only pages the handler does not answer on the calling thread (such a page waits for no
 * thread, and reading it ahead would delay the page in hand). A page read ahead is served once, and
 * only within `freshMs` of being read: what a client sees is never older than that
 * (docs/decisions.md). The position is the same keyset position either way, so a walk returns
 * exactly the rows it would without read-ahead.
 */
export class ReadAhead implements OperationHandler {
  private readonly inner: OperationHandler;
  private readonly options: ReadAheadOptions;
  private readonly pages = new Map<string, Ahead>();

  constructor(inner: OperationHandler, options: ReadAheadOptions = READ_AHEAD_DEFAULTS) {
    this.inner = inner;
    this.options = options;
  }

  async handle(op: ReadOperation, signal?: AbortSignal): Promise<ReadResult> {
    const result = (await this.take(op, signal)) ?? (await this.inner.handle(op, signal));
    if (op.kind === 'list' && op.after !== null && result.next !== null && !signal?.aborted) {
      const next: ListOperation = { ...op, after: result.next };
      if (!this.inner.answersOnCallingThread?.(next)) this.readAhead(next, this.inner.pageEnd ? DEPTH_WITH_PAGE_END : 1);
    }
    return result;
  }

  health(): Promise<HealthReport> {
    return this.inner.health();
  }

  answersOnCallingThread(op: ReadOperation): boolean {
    return this.inner.answersOnCallingThread?.(op) ?? false;
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
  private async take(op: ReadOperation, signal: AbortSignal | undefined): Promise<ReadResult | null> {
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

  /**
   * Reads the page `op` ahead unless it is already, and with `depth` 2 the page after it too. Where
   * that page starts is where this one ends: known once this page is read, or sooner from its keys
   * alone when the handler can say (pageEnd), so that both pages are read at once on two threads.
   */
  private readAhead(op: ListOperation, depth: number): void {
    const key = keyOf(op);
    const ahead = this.pages.get(key) ?? this.start(op, key);
    if (!ahead || depth < 2 || ahead.followed) return;
    ahead.followed = true;
    const end =
      ahead.next !== undefined || !this.inner.pageEnd ? ahead.result.then((r) => r.next) : this.inner.pageEnd(op, ahead.controller.signal);
    end.then(
      (next) => {
        // Not for a page dropped (stale, or the agent stopping) or cancelled with its request.
        if (next !== null && !ahead.controller.signal.aborted) this.readAhead({ ...op, after: next }, depth - 1);
      },
      () => {},
    );
  }

  private start(op: ListOperation, key: string): Ahead | null {
    if (this.pages.size >= this.options.maxPages) return null;
    const controller = new AbortController();
    const result = this.inner.handle(op, controller.signal);
    const timer = setTimeout(() => this.drop(key), this.options.freshMs);
    timer.unref();
    const ahead: Ahead = { result, next: undefined, controller, timer, followed: false };
    // Nobody may ever ask for this page; its failure must not become an unhandled rejection.
    result.then(
      (r) => (ahead.next = r.next),
      () => {},
    );
    this.pages.set(key, ahead);
    return ahead;
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
