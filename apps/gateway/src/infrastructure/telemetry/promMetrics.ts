import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { GatewayMetrics } from './metrics.ts';
import { outageChannel, type OutageEvent } from './outages.ts';

/** Seconds: from a cached page (a few ms) to the default request timeout (30 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface PromMetrics {
  metrics: GatewayMetrics;
  /** The Prometheus text format of everything below, and its content type. */
  render(): Promise<string>;
  contentType: string;
  /** Agents of customers' connections on this instance (the sandbox agent is not one). */
  agentAdded(): void;
  agentRemoved(): void;
  /** Stops listening for outages; the registry is this instance's own, so nothing else needs undoing. */
  close(): void;
}

/** `2xx` of 204; `none` when the client left before any answer. */
function statusClass(status: number): string {
  return status > 0 ? `${Math.floor(status / 100)}xx` : 'none';
}

/**
 * The gateway's metrics in prom-client, one registry per gateway instance (so two in one process,
 * as in tests, count apart), with Node's default process metrics. docs/operations.md#metrics lists
 * them; the names and labels are what the dashboard and alert rules in deploy/cluster rely on.
 */
export function createPromMetrics(): PromMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests answered, by route template, method, status class and error code (empty when not an error).',
    labelNames: ['route', 'method', 'status_class', 'code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route template, method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'gateway_http_requests_in_flight', help: 'HTTP requests being answered now.', registers: [registry] });
  const refusals = new Counter({
    name: 'gateway_limit_refusals_total',
    help: "Requests refused 429 by a limit: `rate` (the key's quota) or `in_flight` (the connection's in-flight cap).",
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const idempotency = new Counter({
    name: 'gateway_idempotency_total',
    help: 'Writes with an Idempotency-Key answered by a replay of the first answer (`replayed`) or refused 409 (`conflict`).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const agents = new Gauge({
    name: 'gateway_agents_connected',
    help: "Agents of customers' connections connected to this instance.",
    registers: [registry],
  });
  const handshakes = new Counter({
    name: 'gateway_agent_handshakes_total',
    help: 'Agent sockets accepted, or refused (code: an HTTP status before the upgrade as http_NNN, else the WebSocket close code).',
    labelNames: ['outcome', 'code'] as const,
    registers: [registry],
  });
  const closes = new Counter({
    name: 'gateway_agent_disconnects_total',
    help: 'Accepted agent sockets that closed, by WebSocket close code (1006: cut without a close frame).',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const forwarded = new Counter({
    name: 'gateway_nats_forwarded_total',
    help: 'Requests forwarded over NATS to the instance holding the agent, by outcome (ok, no_responders, or an error code).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const forwardDuration = new Histogram({
    name: 'gateway_nats_forward_duration_seconds',
    help: 'Time from forwarding a request over NATS to its whole answer.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const noResponders = new Counter({
    name: 'gateway_nats_no_responders_total',
    help: 'NATS found no instance holding an agent of the connection: asked for its companies (lookup) or sent a request (request).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const eventsStored = new Counter({
    name: 'gateway_events_stored_total',
    help: 'Changes the agents reported that the change feed stored as new events, by kind: created, updated, deleted.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const eventLag = new Histogram({
    name: 'gateway_event_feed_lag_seconds',
    help: 'Time from GP changing a record (its DEX_ROW_TS) to its event being stored: the poll interval, the overlap for late commits, and the way here.',
    buckets: [1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600],
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'gateway_webhook_attempts_total',
    help: 'Webhook delivery attempts by what they led to: succeeded (delivered), retrying (failed, tried again later), failed (given up).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhookAttemptDuration = new Histogram({
    name: 'gateway_webhook_attempt_duration_seconds',
    help: "Time of each webhook delivery attempt: the target's check and the receiver's answer (15 s at most).",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  const webhookQueue = new Gauge({
    name: 'gateway_webhook_deliveries_due',
    help: 'Webhook deliveries due now and not yet delivered, to enabled endpoints (the queue every instance shares).',
    registers: [registry],
  });
  const dependencyErrors = new Counter({
    name: 'gateway_dependency_errors_total',
    help: 'Calls to a shared server that failed for want of it (postgresql, redis, nats).',
    labelNames: ['dependency'] as const,
    registers: [registry],
  });
  const dependencyDown = new Gauge({
    name: 'gateway_dependency_down',
    help: 'Components of this instance that currently find a shared server unreachable (0: none).',
    labelNames: ['dependency'] as const,
    registers: [registry],
  });
  const breakerOpen = new Gauge({
    name: 'gateway_store_breaker_open',
    help: "1 while the PostgreSQL store's circuit breaker is open (API requests answered 503 SERVICE_UNAVAILABLE at once).",
    registers: [registry],
  });
  for (const dependency of ['postgresql', 'redis', 'nats']) {
    dependencyErrors.inc({ dependency }, 0);
    dependencyDown.set({ dependency }, 0);
  }
  for (const kind of ['lookup', 'request']) noResponders.inc({ kind }, 0);
  for (const limit of ['rate', 'in_flight']) refusals.inc({ limit }, 0);
  for (const outcome of ['replayed', 'conflict']) idempotency.inc({ outcome }, 0);
  for (const outcome of ['succeeded', 'retrying', 'failed']) webhookAttempts.inc({ outcome }, 0);
  breakerOpen.set(0);

  const onOutage = (message: unknown) => {
    const { server, event, began } = message as OutageEvent;
    const dependency = server.toLowerCase();
    if (event === 'failed') dependencyErrors.inc({ dependency });
    if (began) dependencyDown.inc({ dependency });
    if (event === 'recovered') dependencyDown.dec({ dependency });
    if (dependency === 'postgresql' && (began || event === 'recovered')) breakerOpen.set(event === 'failed' ? 1 : 0);
  };
  outageChannel.subscribe(onOutage);

  const metrics: GatewayMetrics = {
    requestStarted() {
      inFlight.inc();
      const started = performance.now();
      let ended = false;
      return (done) => {
        if (ended) return;
        ended = true;
        inFlight.dec();
        const status_class = statusClass(done.status);
        requests.inc({ route: done.route, method: done.method, status_class, code: done.code });
        duration.observe({ route: done.route, method: done.method, status_class }, (performance.now() - started) / 1000);
        if (done.rateLimited) refusals.inc({ limit: 'rate' });
        if (done.replayed) idempotency.inc({ outcome: 'replayed' });
        if (done.code === 'IDEMPOTENCY_CONFLICT') idempotency.inc({ outcome: 'conflict' });
      };
    },
    agentRefused: (code) => handshakes.inc({ outcome: 'refused', code }),
    agentClosed: (code) => closes.inc({ code: String(code) }),
    inFlightRefused: () => refusals.inc({ limit: 'in_flight' }),
    forwarded(outcome, seconds) {
      forwarded.inc({ outcome });
      forwardDuration.observe(seconds);
    },
    noResponders: (kind) => noResponders.inc({ kind }),
    eventStored(kind, lagSeconds) {
      eventsStored.inc({ kind });
      if (lagSeconds !== null) eventLag.observe(Math.max(0, lagSeconds));
    },
    webhookAttempt(outcome, seconds) {
      webhookAttempts.inc({ outcome });
      webhookAttemptDuration.observe(seconds);
    },
    webhookQueueDepth: (depth) => webhookQueue.set(depth),
  };
  return {
    metrics,
    render: () => registry.metrics(),
    contentType: registry.contentType,
    agentAdded() {
      agents.inc();
      handshakes.inc({ outcome: 'accepted', code: '' });
    },
    agentRemoved: () => agents.dec(),
    close: () => outageChannel.unsubscribe(onOutage),
  };
}
