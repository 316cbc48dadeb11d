import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { pinnedPost } from '../../infrastructure/outbound/pinnedPost.ts';
import { checkTarget, systemResolver, type HostResolver } from '../../infrastructure/outbound/safeTarget.ts';
import type { ClaimedWebhookDelivery, Store, WebhookAttempt, WebhookAttemptOutcome } from '../../infrastructure/store/store.ts';
import { NO_METRICS, type GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';
import { AttemptRecorder } from './attemptRecorder.ts';
import { realClock, type Clock } from './clock.ts';
import type { WebhookFanOut } from './fanOut.ts';
import { nextRetryDelay, retryAfterMs } from './schedule.ts';
import { deliveryHeaders } from './signing.ts';
import type { WebhookEndpoints } from './webhookEndpoints.ts';
import { ENDPOINT_DISABLED, GATEWAY_CONNECTION_ID } from './webhookEvents.ts';

/** At most this much of a response body is kept with its attempt. */
const RESPONSE_EXCERPT_BYTES = 4096;
/** An attempt answered 2xx within this long is delivered. */
const ATTEMPT_TIMEOUT_MS = 15_000;
/** How often (real time) the queue's depth is counted for the metrics. */
const QUEUE_COUNT_EVERY_MS = 5_000;
/** An endpoint whose every attempt has failed for this long is disabled. */
const DISABLE_AFTER_MS = 5 * 24 * 3600_000;

export interface DeliveryWorkerOptions {
  store: Store;
  endpoints: WebhookEndpoints;
  fanOut: WebhookFanOut;
  log: Logger;
  metrics?: GatewayMetrics;
  clock?: Clock;
  resolve?: HostResolver;
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS: http and private or loopback addresses allowed (development only). */
  allowPrivateTargets: boolean;
  /** Attempts to one endpoint at once, from this instance: a slow endpoint holds only its own slots. */
  perEndpoint?: number;
  /**
   * Deliveries claimed and not yet recorded, from this instance: attempts running, and those waiting
   * for a slot of their endpoint (at most one round each); bounds the bodies held in memory.
   */
  maxInFlight?: number;
  /**
   * How long a claimed delivery is this instance's alone (clock time; WEBHOOKS_LEASE_SECONDS): after
   * an instance dies, its deliveries wait this long. A claimed delivery may wait for one attempt
   * before its own, and both must end within the lease, so a lease under 45 s also shortens each
   * attempt's timeout to a third of the lease.
   */
  leaseMs?: number;
  /** How often the store is asked for work queued by other instances or due again (clock time). */
  pollMs?: number;
  attemptTimeoutMs?: number;
  disableAfterMs?: number;
}

/** One attempt as it happened, for tests and the bench (`worker.on('attempt', …)`). */
export interface AttemptReport {
  delivery: ClaimedWebhookDelivery;
  attempt: WebhookAttempt;
  outcome: WebhookAttemptOutcome;
}

/**
 * Sends queued deliveries (docs/api.md#webhooks): claims due ones from the store with a lease,
 * checks the endpoint's URL at each attempt (safeTarget.ts), signs with the endpoint's secrets,
 * POSTs to the checked address, and records the attempt with what follows: delivered on a 2xx within
 * 15 s; otherwise tried again on the schedule (schedule.ts), honouring a 429/503's Retry-After, until
 * it has failed. An endpoint failing for 5 days is disabled and `endpoint.disabled` raised.
 *
 * Each endpoint has at most `perEndpoint` attempts in flight from this instance; claims skip the
 * endpoints that are full, so a slow or dead endpoint only ever holds its own slots.
 */
export class DeliveryWorker extends EventEmitter<{ attempt: [AttemptReport] }> {
  private readonly store: Store;
  private readonly endpoints: WebhookEndpoints;
  private readonly fanOut: WebhookFanOut;
  private readonly log: Logger;
  private readonly metrics: GatewayMetrics;
  private readonly clock: Clock;
  private readonly resolve: HostResolver;
  private readonly allowPrivate: boolean;
  private readonly perEndpoint: number;
  private readonly maxInFlight: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly disableAfterMs: number;
  private readonly recorder: AttemptRecorder;

  /** Attempts in flight per endpoint. */
  private readonly busy = new Map<string, number>();
  /** Claimed deliveries waiting for a slot of their endpoint. */
  private readonly waiting = new Map<string, ClaimedWebhookDelivery[]>();
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private stopped = true;
  private cancelWake: (() => void) | null = null;
  private wakeAt = Infinity;
  private countedAt = -Infinity;

  constructor(options: DeliveryWorkerOptions) {
    super();
    this.store = options.store;
    this.endpoints = options.endpoints;
    this.fanOut = options.fanOut;
    this.log = options.log;
    this.metrics = options.metrics ?? NO_METRICS;
    this.clock = options.clock ?? realClock;
    this.resolve = options.resolve ?? systemResolver;
    this.allowPrivate = options.allowPrivateTargets;
    this.perEndpoint = options.perEndpoint ?? 4;
    this.maxInFlight = options.maxInFlight ?? 512;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
    // An attempt outliving its lease could be sent again by another instance while it still runs.
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? Math.min(ATTEMPT_TIMEOUT_MS, this.leaseMs / 3);
    this.disableAfterMs = options.disableAfterMs ?? DISABLE_AFTER_MS;
    this.recorder = new AttemptRecorder(this.store);
  }

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /** Stops claiming, and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelWake?.();
    await this.pumping;
    await Promise.all([...this.running]);
  }

  /** Deliveries were queued (or are due): look for work now. */
  nudge(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.nudge();
      }
    });
  }

  private async pump(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const room = this.maxInFlight - this.inFlight;
        if (room <= 0) return;
        const now = this.clock.now();
        // Each endpoint this instance is sending to may hold its slots and one round of waiting
        // deliveries: a claim tops every endpoint up at once, and no claimed delivery waits longer
        // than one attempt before its own (the lease covers two, see leaseMs).
        const quotas = new Map<string, number>();
        for (const id of new Set([...this.busy.keys(), ...this.waiting.keys()]))
          quotas.set(id, 2 * this.perEndpoint - (this.busy.get(id) ?? 0) - (this.waiting.get(id)?.length ?? 0));
        const claimed = await this.store.claimWebhookDeliveries({
          at: now,
          leaseUntil: new Date(now.getTime() + this.leaseMs),
          limit: Math.min(room, 100),
          perEndpoint: this.perEndpoint,
          quotas: new Map([...quotas].filter(([, n]) => n > 0)),
          skipEndpoints: [...quotas].filter(([, n]) => n <= 0).map(([id]) => id),
        });
        for (const delivery of claimed) this.run(delivery);
        if (claimed.length === 0) {
          await this.countQueue();
          return;
        }
      }
    } catch (error) {
      this.log.error({ err: error }, 'could not claim webhook deliveries; trying again at the next poll');
    } finally {
      this.wakeIn(this.pollMs);
    }
  }

  /** The queue's depth for the metrics, counted when the worker has caught up, at most every few seconds. */
  private async countQueue(): Promise<void> {
    const now = performance.now();
    if (now - this.countedAt < QUEUE_COUNT_EVERY_MS) return;
    this.countedAt = now;
    this.metrics.webhookQueueDepth(await this.store.countDueWebhookDeliveries(this.clock.now()));
  }

  /** Pumps again `ms` from now (clock time), unless a wake is already due sooner. */
  private wakeIn(ms: number): void {
    if (this.stopped) return;
    const at = this.clock.now().getTime() + ms;
    if (at >= this.wakeAt && this.cancelWake) return;
    this.cancelWake?.();
    this.wakeAt = at;
    this.cancelWake = this.clock.after(ms, () => {
      this.cancelWake = null;
      this.wakeAt = Infinity;
      this.nudge();
    });
  }

  /**
   * Runs one claimed delivery, or queues it behind its endpoint's attempts in flight when the
   * endpoint's slots are taken (a claim may bring a few more than free slots; the lease covers the wait).
   */
  private run(delivery: ClaimedWebhookDelivery): void {
    this.inFlight++;
    const id = delivery.endpointId;
    if ((this.busy.get(id) ?? 0) >= this.perEndpoint) {
      this.waiting.set(id, [...(this.waiting.get(id) ?? []), delivery]);
      return;
    }
    this.busy.set(id, (this.busy.get(id) ?? 0) + 1);
    const done = this.attempt(delivery)
      .catch((error: unknown) => {
        // The attempt could not be recorded (the store is down): the lease runs out and it is tried again.
        this.log.error({ err: error, delivery: delivery.id }, 'could not record a webhook attempt');
      })
      .finally(() => {
        this.running.delete(done);
        this.inFlight--;
        const left = (this.busy.get(id) ?? 1) - 1;
        if (left === 0) this.busy.delete(id);
        else this.busy.set(id, left);
        const next = this.waiting.get(id)?.shift();
        if (this.waiting.get(id)?.length === 0) this.waiting.delete(id);
        if (next) {
          this.inFlight--;
          this.run(next);
        }
        // The slot went to a delivery already claimed: claiming again at every attempt would cost a
        // commit each; the endpoint is topped up once half a round of waiting deliveries is left.
        if ((this.waiting.get(id)?.length ?? 0) <= this.perEndpoint / 2) this.nudge();
      });
    this.running.add(done);
  }

  private async attempt(delivery: ClaimedWebhookDelivery): Promise<void> {
    // The endpoint as it stood when claimed (claims take only enabled endpoints' deliveries): a change
    // since applies from the next claim, a few deliveries per endpoint later at most.
    const endpoint = delivery.endpoint;
    const startedAt = this.clock.now();
    const started = performance.now();
    let httpStatus: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    let waitMs: number | null = null;
    try {
      const target = await checkTarget(endpoint.url, { resolve: this.resolve, allowPrivate: this.allowPrivate });
      // The receiver compares the timestamp with its own clock: always the real time.
      const signedAt = new Date();
      const answer = await pinnedPost(target, {
        headers: deliveryHeaders(this.endpoints.signingSecrets(endpoint, this.clock.now()), delivery.eventId, signedAt, delivery.body),
        body: delivery.body,
        timeoutMs: this.attemptTimeoutMs,
        keepBytes: RESPONSE_EXCERPT_BYTES,
      });
      httpStatus = answer.status;
      excerpt = answer.excerpt;
      if (answer.status >= 300 && answer.status < 400) {
        error = `answered ${answer.status} (a redirect${answer.location ? ` to ${answer.location.slice(0, 200)}` : ''}): redirects are not followed`;
      } else if (answer.status < 200 || answer.status >= 300) {
        error = `answered ${answer.status}`;
        if (answer.status === 429 || answer.status === 503) waitMs = retryAfterMs(answer.retryAfter, this.clock.now());
      }
    } catch (caught) {
      error = (caught as Error).message;
    }
    const latencyMs = performance.now() - started;
    const attempt: WebhookAttempt = { at: startedAt.toISOString(), httpStatus, latencyMs, responseExcerpt: excerpt, error };
    let outcome: WebhookAttemptOutcome;
    if (error === null) outcome = { kind: 'succeeded' };
    else {
      const delay = nextRetryDelay(delivery.attempts + 1, waitMs);
      outcome = delay === null ? { kind: 'failed' } : { kind: 'retry', retryAt: new Date(this.clock.now().getTime() + delay) };
    }
    const after = await this.recorder.record({ delivery, attempt, outcome });
    this.metrics.webhookAttempt(outcome.kind === 'retry' ? 'retrying' : outcome.kind, latencyMs / 1000);
    if (outcome.kind === 'retry') this.wakeIn(outcome.retryAt.getTime() - this.clock.now().getTime());
    this.emit('attempt', { delivery, attempt, outcome });
    if (after?.failingSince && this.clock.now().getTime() - Date.parse(after.failingSince) >= this.disableAfterMs) {
      await this.disableFailing(delivery.orgId, delivery.endpointId, error ?? 'failing');
    }
  }

  private async disableFailing(orgId: string, endpointId: string, lastError: string): Promise<void> {
    const days = Math.round(this.disableAfterMs / 86_400_000);
    const reason = `every delivery failed for ${days} days (last: ${lastError})`;
    const disabled = await this.endpoints.disableFailing(orgId, endpointId, reason);
    if (!disabled) return;
    this.log.warn({ endpoint: endpointId, url: disabled.url }, 'webhook endpoint disabled after failing for 5 days');
    await this.fanOut.raise({
      orgId,
      connectionId: GATEWAY_CONNECTION_ID,
      company: null,
      type: ENDPOINT_DISABLED,
      object: null,
      recordId: endpointId,
      version: `disabled:${disabled.disabledAt}`,
      changedAt: disabled.disabledAt,
      data: { endpointId, url: disabled.url, reason },
    });
  }
}
