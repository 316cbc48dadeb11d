import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { untilAnnounced } from '@gp-gateway/testing';
import { scaledClock, type ScaledClock } from '../core/webhooks/clock.ts';
import { DeliveryWorker, type AttemptReport, type DeliveryWorkerOptions } from '../core/webhooks/deliveryWorker.ts';
import { WebhookFanOut } from '../core/webhooks/fanOut.ts';
import { SecretBox } from '../core/webhooks/secretBox.ts';
import { WebhookEndpoints } from '../core/webhooks/webhookEndpoints.ts';
import type { NewEvent, Store, StoredEvent } from '../infrastructure/store/store.ts';

/**
 * The webhook core on a store, wired as the gateway wires it, for tests and the bench: endpoints,
 * fan-out and a worker whose clock runs `factor` times faster than real time (so the 28-hour retry
 * schedule and the 5-day disable run in seconds), and a way to wait for attempts.
 */
export interface WebhookRig {
  clock: ScaledClock;
  endpoints: WebhookEndpoints;
  fanOut: WebhookFanOut;
  worker: DeliveryWorker;
  attempts: AttemptReport[];
  /** Stores events as the feed does and fans them out; the new ones. */
  store(events: NewEvent[]): Promise<StoredEvent[]>;
  /** Resolves once `check` holds of the attempts made so far (checked after each). */
  until(check: (attempts: readonly AttemptReport[]) => boolean): Promise<void>;
  stop(): Promise<void>;
}

export function webhookRig(
  store: Store,
  options: { factor?: number; key?: Buffer } & Partial<
    Omit<DeliveryWorkerOptions, 'store' | 'endpoints' | 'fanOut' | 'log' | 'clock'>
  > = {},
): WebhookRig {
  const factor = options.factor ?? 1;
  const clock = scaledClock(factor);
  const log = pino({ level: 'silent' });
  let worker: DeliveryWorker | null = null;
  const queued = () => worker?.nudge();
  const allowPrivateTargets = options.allowPrivateTargets ?? true;
  const endpoints = new WebhookEndpoints({
    store,
    box: new SecretBox(options.key ?? randomBytes(32)),
    allowPrivateTargets,
    now: () => clock.now(),
    queued,
  });
  const fanOut = new WebhookFanOut({ store, queued, now: () => clock.now() });
  worker = new DeliveryWorker({
    // A lease and a poll of one real minute and one real second, whatever the clock's speed.
    leaseMs: 60_000 * factor,
    pollMs: 1_000 * factor,
    ...options,
    allowPrivateTargets,
    store,
    endpoints,
    fanOut,
    log,
    clock,
  });
  const attempts: AttemptReport[] = [];
  worker.on('attempt', (report) => attempts.push(report));
  worker.start();
  const w = worker;
  return {
    clock,
    endpoints,
    fanOut,
    worker: w,
    attempts,
    async store(events) {
      return fanOut.append(events, clock.now());
    },
    until: (check) => untilAnnounced(w, 'attempt', () => check(attempts)),
    stop: () => w.stop(),
  };
}

let events = 0;

/** A change of a customer, as an agent reports it. */
export function customerChange(orgId: string, connectionId = 'conn_1', type = 'customer.updated'): NewEvent {
  const id = `CUST${String(++events).padStart(5, '0')}`;
  return {
    orgId,
    connectionId,
    company: 'TWO',
    type,
    object: 'customers',
    recordId: id,
    version: `changed:${id}`,
    changedAt: new Date().toISOString(),
    data: { id, name: `Customer ${id}` },
  };
}
