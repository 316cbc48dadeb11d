import type { Logger } from 'pino';
import { StoreUnavailableError } from '../../errors/apiError.ts';
import { OutageNotice } from '../../limits/outageNotice.ts';

/** How often a store known down is tried again in the background. */
const PROBE_EVERY_MS = 500;

/** Errors of Node's sockets that mean the server cannot be reached, whatever was asked. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** SQLSTATEs of a server shutting down or starting up (57P01–57P03); class 08 is any connection exception. */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** pg's own errors carry no code: a connection cut, or none made within connectionTimeoutMillis. */
const PG_CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

/** Whether `error` says PostgreSQL cannot be reached (rather than that a statement was wrong). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_ERRORS.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08'))) return true;
  return PG_CONNECTION_MESSAGES.test(error.message);
}

/**
 * A circuit breaker in front of the PostgreSQL store. A connection failure of any statement, or of
 * an idle pooled connection (the server went away), opens it; while open, every store call fails at
 * once with StoreUnavailableError (503 SERVICE_UNAVAILABLE with Retry-After) instead of each request
 * waiting for its own connection attempt, and one probe (`SELECT 1`) runs every PROBE_EVERY_MS in the
 * background. The first probe that succeeds closes it: requests are served again without a restart.
 * `/ready` reads the store through the same calls, so it reports the store unreachable meanwhile.
 */
export class StoreBreaker {
  private readonly probe: () => Promise<unknown>;
  private readonly outage: OutageNotice | null;
  private timer: NodeJS.Timeout | null = null;
  private isOpen = false;
  private stopped = false;

  constructor(probe: () => Promise<unknown>, log?: Logger) {
    this.probe = probe;
    this.outage = log ? new OutageNotice(log, 'API requests are answered 503 SERVICE_UNAVAILABLE', 'PostgreSQL') : null;
  }

  get open(): boolean {
    return this.isOpen;
  }

  /** Runs `work` unless the store is known down; a connection failure of it opens the breaker. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    if (this.isOpen) throw new StoreUnavailableError();
    try {
      return await work();
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      this.failed(error);
      throw new StoreUnavailableError();
    }
  }

  /** A connection of the store failed (a statement's, or an idle one's): the store is down until a probe says otherwise. */
  failed(error: unknown): void {
    this.outage?.failed(error);
    if (this.isOpen) return;
    this.isOpen = true;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.probe().then(
        () => {
          this.isOpen = false;
          this.outage?.succeeded();
        },
        () => this.schedule(),
      );
    }, PROBE_EVERY_MS);
    this.timer.unref();
  }
}
