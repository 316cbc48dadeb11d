import { encodeFrame, MAX_CHANGES_PER_FRAME, PROTOCOL_VERSION, type Change, type ChangesAckFrame } from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { publishChangePoll } from '../telemetry/events.ts';
import type { ChangeDetector } from './changeDetector.ts';
import { ALL_TRACKED, type Tracked } from './allTracked.ts';

export interface ChangeSchedule {
  /** A round of polls starts this often (GP_AGENT_CHANGES_INTERVAL_MS); 0 turns detection off. */
  intervalMs: number;
  /**
   * A round stops starting polls once its statements have run this long (GP_AGENT_CHANGES_BUDGET_MS);
   * the next round goes on from the next table, so the customer's SQL Server gives the agent's
   * detection at most about budget / interval of one connection's time.
   */
  budgetMs: number;
  /** How long the gateway may take to acknowledge stored changes before they count as not stored. */
  ackTimeoutMs: number;
}

export const DEFAULT_CHANGE_SCHEDULE: ChangeSchedule = { intervalMs: 15_000, budgetMs: 2_000, ackTimeoutMs: 30_000 };

/**
 * Polls the tracked objects of every company in turn, one statement at a time (never beside itself,
 * so detection adds at most one statement to the agent's load on GP), and sends what it finds to
 * the gateway, committing a poll only when every frame of it is acknowledged. Lives as long as the
 * process: what the detector knows survives reconnects; it polls only while a gateway that keeps
 * changes is attached.
 */
export class ChangeReporter {
  private readonly detector: ChangeDetector;
  private readonly companies: () => Promise<string[]>;
  private readonly log: Logger;
  private readonly schedule: ChangeSchedule;
  private readonly tracked: readonly Tracked[];
  private send: ((text: string) => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private abort: AbortController | null = null;
  private readonly waiting = new Map<string, (ack: ChangesAckFrame | null) => void>();
  private turn = 0;
  private nextFrame = 1;

  constructor(options: {
    detector: ChangeDetector;
    companies: () => Promise<string[]>;
    log: Logger;
    schedule?: Partial<ChangeSchedule>;
    tracked?: readonly Tracked[];
  }) {
    this.detector = options.detector;
    this.companies = options.companies;
    this.log = options.log;
    this.schedule = { ...DEFAULT_CHANGE_SCHEDULE, ...options.schedule };
    this.tracked = options.tracked ?? ALL_TRACKED;
  }

  /** A gateway that keeps changes welcomed the agent: poll, and send over `send`. */
  attach(send: (text: string) => void): void {
    if (this.schedule.intervalMs <= 0) return;
    this.detach();
    this.send = send;
    this.abort = new AbortController();
    this.timer = setInterval(() => void this.round(), this.schedule.intervalMs);
    this.timer.unref();
    void this.round();
  }

  /** The link is gone: stop polling; changes sent but not acknowledged are found again on the next link. */
  detach(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.send = null;
    this.abort?.abort();
    for (const settle of this.waiting.values()) settle(null);
    this.waiting.clear();
  }

  acked(frame: ChangesAckFrame): void {
    this.waiting.get(frame.id)?.(frame);
    this.waiting.delete(frame.id);
  }

  /** Resolves when the round running now (if any) is over. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** One round: polls from where the last one stopped until the budget is spent or every table was polled once. */
  round(): Promise<void> {
    this.running ??= (async () => {
      try {
        const companies = await this.companies();
        const pairs = companies.flatMap((company) => this.tracked.map((tracked) => ({ company, tracked })));
        const started = performance.now();
        for (let n = 0; n < pairs.length && this.send; n++) {
          if (performance.now() - started >= this.schedule.budgetMs) break;
          const { company, tracked } = pairs[this.turn++ % pairs.length]!;
          if (!(await this.pollOne(company, tracked))) break;
        }
      } catch (error) {
        this.log.warn({ err: error }, 'change detection round failed; the next round tries again');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Polls one object of one company and reports its changes; whether they were all stored. */
  private async pollOne(company: string, tracked: Tracked): Promise<boolean> {
    const signal = this.abort?.signal;
    const learning = !this.detector.knows(company, tracked);
    const started = performance.now();
    const detected = await this.detector.poll(company, tracked, signal);
    publishChangePoll({
      object: tracked.object,
      seconds: (performance.now() - started) / 1000,
      changes: learning ? 0 : detected.changes.length,
    });
    if (learning) {
      detected.commit();
      this.log.info({ object: tracked.object, company }, 'change detection learnt the table; changes from now on are reported');
      return true;
    }
    for (let i = 0; i < detected.changes.length; i += MAX_CHANGES_PER_FRAME) {
      const ack = await this.report(tracked, company, detected.changes.slice(i, i + MAX_CHANGES_PER_FRAME));
      if (!ack || ack.error) {
        if (ack?.error)
          this.log.warn({ object: tracked.object, company, reason: ack.error }, 'the gateway did not store changes; polling again later');
        return false;
      }
    }
    detected.commit();
    if (detected.changes.length) this.log.info({ object: tracked.object, company, changes: detected.changes.length }, 'changes reported');
    return true;
  }

  private report(tracked: Tracked, company: string, changes: Change[]): Promise<ChangesAckFrame | null> {
    const send = this.send;
    if (!send) return Promise.resolve(null);
    const id = `ch${this.nextFrame++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(null), this.schedule.ackTimeoutMs);
      const settle = (ack: ChangesAckFrame | null) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(ack);
      };
      this.waiting.set(id, settle);
      send(encodeFrame({ v: PROTOCOL_VERSION, type: 'changes', id, object: tracked.object, company, changes }));
    });
  }
}
