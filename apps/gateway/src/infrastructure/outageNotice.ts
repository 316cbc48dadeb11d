import type { Logger } from 'pino';
import { publishOutage } from './telemetry/outages.ts';

/**
 * Logs a shared server's outage once when it starts and once when it ends, however many requests
 * meet it in between: a Redis restart under load must not write a warning per request.
 */
export class OutageNotice {
  private readonly log: Logger;
  private readonly meanwhile: string;
  private readonly server: string;
  private since: number | null = null;
  private failures = 0;

  /** `meanwhile` says how the gateway carries on without Redis, e.g. "rate limits are counted in this process". */
  constructor(log: Logger, meanwhile: string, server = 'Redis') {
    this.log = log;
    this.meanwhile = meanwhile;
    this.server = server;
  }

  get down(): boolean {
    return this.since !== null;
  }

  failed(error: unknown): void {
    this.failures += 1;
    publishOutage({ server: this.server, event: 'failed', began: this.since === null });
    if (this.since !== null) return;
    this.since = Date.now();
    this.log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      `${this.server} unreachable; ${this.meanwhile} until it is back`,
    );
  }

  succeeded(): void {
    if (this.since === null) return;
    publishOutage({ server: this.server, event: 'recovered', began: false });
    this.log.info(
      { outageMs: Date.now() - this.since, failedCalls: this.failures },
      `${this.server} reachable again (${this.meanwhile} no longer)`,
    );
    this.since = null;
    this.failures = 0;
  }
}
