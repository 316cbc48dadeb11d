import type { Logger } from 'pino';
import { StoreUnavailableError } from '../../../errors/apiError.ts';
import { NoAnswerError, within } from '../../cluster/within.ts';
import { OutageNotice } from '../../outageNotice.ts';

/** How often a store known down is tried again in the background ... */
const PROBE_EVERY_MS = 500;
/** ... and how long a probe may take: a server that accepts connections but answers nothing is down too. */
const PROBE_TIMEOUT_MS = 1_000;

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
  if (error instanceof NoAnswerError) return true;
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
 * `/ready` checks the store through it (`check`), so it reports the store unreachable meanwhile and
 * its probe, when it gets no answer, opens the breaker too. One connection failure is enough to open
 * it: a store that is back is found within PROBE_EVERY_MS, and the 503s meanwhile are retryable.
 */
export class StoreBreaker {
  private readonly probe: () => Promise<unknown>;
  private readonly outage: OutageNotice | null;
  private readonly probeEveryMs: number;
  private readonly probeTimeoutMs: number;
  private timer: NodeJS.Timeout | null = null;
  private isOpen = false;
  private stopped = false;

  /** `probe` asks the store something trivial; the timings are PROBE_EVERY_MS and PROBE_TIMEOUT_MS unless given (tests). */
  constructor(probe: () => Promise<unknown>, options: { log?: Logger | undefined; probeEveryMs?: number; probeTimeoutMs?: number } = {}) {
    this.probe = probe;
    this.outage = options.log ? new OutageNotice(options.log, 'API requests are answered 503 SERVICE_UNAVAILABLE', 'PostgreSQL') : null;
    this.probeEveryMs = options.probeEveryMs ?? PROBE_EVERY_MS;
    this.probeTimeoutMs = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
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

  /**
   * Resolves when a probe answers within `timeoutMs` (`/ready`); rejects with StoreUnavailableError
   * at once while open, and opens the breaker when the probe fails or gets no answer in time, so that
   * a frozen server (which fails no connection, it just never answers) is found out too.
   */
  async check(timeoutMs: number): Promise<void> {
    await this.guard(() => within(this.probe(), timeoutMs, 'PostgreSQL'));
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
      within(this.probe(), this.probeTimeoutMs, 'PostgreSQL').then(
        () => {
          this.isOpen = false;
          this.outage?.succeeded();
        },
        () => this.schedule(),
      );
    }, this.probeEveryMs);
    this.timer.unref();
  }
}
