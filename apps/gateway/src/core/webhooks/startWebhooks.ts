import type { Logger } from 'pino';
import type { HostResolver } from '../../infrastructure/outbound/safeTarget.ts';
import type { Store } from '../../infrastructure/store/store.ts';
import type { GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';
import type { CursorCodec } from '../reads/cursor.ts';
import type { Clock } from './clock.ts';
import { DeliveryWorker } from './deliveryWorker.ts';
import { WebhookDeliveryList } from './deliveryList.ts';
import { WebhookFanOut } from './fanOut.ts';
import { SecretBox } from './secretBox.ts';
import { WebhookEndpoints } from './webhookEndpoints.ts';

export interface WebhooksOptions {
  store: Store;
  log: Logger;
  metrics: GatewayMetrics;
  cursors: CursorCodec;
  /** Seals the endpoints' signing secrets (secretBox.ts); every instance and the operator CLI must have the same. */
  secretsKey: Buffer;
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS: http, loopback and private addresses allowed; for development only. */
  allowPrivateTargets: boolean;
  resolve?: HostResolver;
  clock?: Clock;
  /** WEBHOOKS_LEASE_SECONDS in ms: how long a claimed delivery is this instance's alone (deliveryWorker.ts). */
  leaseMs?: number;
}

export interface Webhooks {
  endpoints: WebhookEndpoints;
  fanOut: WebhookFanOut;
  worker: DeliveryWorker;
  deliveries: WebhookDeliveryList;
  stop(): Promise<void>;
}

/** The webhooks of one gateway instance, wired and its worker started (the composition root calls this). */
export function startWebhooks(options: WebhooksOptions): Webhooks {
  const log = options.log.child({ component: 'webhooks' });
  if (options.allowPrivateTargets)
    log.warn(
      'WEBHOOKS_ALLOW_PRIVATE_TARGETS is on: webhooks may be sent over plain http and to loopback and private addresses (development only)',
    );
  let worker: DeliveryWorker | null = null;
  const queued = () => worker?.nudge();
  const now = options.clock ? () => options.clock!.now() : undefined;
  const endpoints = new WebhookEndpoints({
    store: options.store,
    box: new SecretBox(options.secretsKey),
    allowPrivateTargets: options.allowPrivateTargets,
    queued,
    ...(now ? { now } : {}),
  });
  const fanOut = new WebhookFanOut({ store: options.store, queued, ...(now ? { now } : {}) });
  worker = new DeliveryWorker({
    store: options.store,
    endpoints,
    fanOut,
    log,
    metrics: options.metrics,
    allowPrivateTargets: options.allowPrivateTargets,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
  });
  worker.start();
  const started = worker;
  return {
    endpoints,
    fanOut,
    worker: started,
    deliveries: new WebhookDeliveryList(options.store, options.cursors),
    stop: () => started.stop(),
  };
}
