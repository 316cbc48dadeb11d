import type { Logger } from 'pino';
import type { DailyUsage, RequestRecord, Store } from '../../infrastructure/store/store.ts';

/** How often counts and requests go to the store. */
const FLUSH_EVERY_MS = 1_000;
/**
 * Requests logged per organisation per flush, the newest: the request log is for looking at what
 * happened lately, and at thousands of requests a second writing every one would cost the request
 * path more than the log is worth. Counts are exact whatever the rate.
 */
const LOGGED_PER_FLUSH = 500;

/**
 * Usage as the dashboard shows it, recorded off the request path: each finished request adds one to
 * an in-memory count and a line to a buffer, and a timer writes both to the store in one
 * transaction per flush. A store failure is logged and that batch dropped; serving requests never
 * waits on usage.
 */
export class UsageRecorder {
  private readonly store: Store;
  private readonly log: Logger;
  private counts = new Map<string, DailyUsage>();
  private requests = new Map<string, RequestRecord[]>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(store: Store, log: Logger) {
    this.store = store;
    this.log = log;
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  record(request: RequestRecord): void {
    const day = request.at.slice(0, 10);
    const statusClass = `${Math.floor(request.status / 100)}xx`;
    const key = `${request.orgId}\u0000${request.keyId}\u0000${day}\u0000${statusClass}`;
    const count = this.counts.get(key);
    if (count) count.requests += 1;
    else this.counts.set(key, { orgId: request.orgId, keyId: request.keyId, day, statusClass, requests: 1 });
    let lines = this.requests.get(request.orgId);
    if (!lines) this.requests.set(request.orgId, (lines = []));
    lines.push(request);
    if (lines.length > 2 * LOGGED_PER_FLUSH) lines.splice(0, lines.length - LOGGED_PER_FLUSH);
  }

  /** Writes what was recorded so far; resolves once it is in the store. */
  flush(): Promise<void> {
    if (!this.counts.size) return this.flushing;
    const daily = [...this.counts.values()];
    const requests = [...this.requests.values()].flatMap((lines) => lines.slice(-LOGGED_PER_FLUSH));
    this.counts = new Map();
    this.requests = new Map();
    this.flushing = this.flushing
      .then(() => this.store.recordUsage({ daily, requests }))
      .catch((error: unknown) => this.log.warn({ err: error, requests: requests.length }, 'could not record usage; this batch is lost'));
    return this.flushing;
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
