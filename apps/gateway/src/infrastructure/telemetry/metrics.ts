/**
 * What the gateway reports to its metrics, as events: the core and the front ends call these and
 * know nothing of Prometheus (promMetrics.ts implements them with prom-client; the composition root
 * wires it). Labels are bounded by construction: route templates, methods, status classes, error
 * codes, close codes and outcomes; never an organisation, key, connection or record id
 * (docs/operations.md#metrics).
 */
export interface GatewayMetrics {
  /** An HTTP request began; the returned function is called once when its response is done. */
  requestStarted(): (done: RequestDone) => void;
  /** An agent socket was refused before it became an agent: an HTTP status (`http_401`) or a close code (`1013`). */
  agentRefused(code: string): void;
  /** An agent socket closed after its hello was accepted, with this close code. */
  agentClosed(code: number): void;
  /** A request was refused by the per-connection in-flight cap (docs/api.md#in-flight-cap). */
  inFlightRefused(): void;
  /** A request forwarded over NATS to the instance holding the agent ended: `ok`, `no_responders` or an error code. */
  forwarded(outcome: string, seconds: number): void;
  /** NATS found no instance holding an agent of the connection: asked for its companies (`lookup`) or sent a request (`request`). */
  noResponders(kind: 'lookup' | 'request'): void;
  /**
   * The change feed stored an event an agent reported, new to it, of this kind (`created`,
   * `updated`, `deleted`), `lagSeconds` after GP changed the record.
   */
  eventStored(kind: string, lagSeconds: number | null): void;
  /** A webhook delivery attempt ended: delivered, to be tried again, or given up; how long it took. */
  webhookAttempt(outcome: 'succeeded' | 'retrying' | 'failed', seconds: number): void;
  /** Webhook deliveries due and not yet delivered (all instances'), as last counted. */
  webhookQueueDepth(depth: number): void;
}

export interface RequestDone {
  /** The route's template (`/v1/:object/:id`), or `unmatched`: never the path itself, which holds ids. */
  route: string;
  method: string;
  /** 0 when the client went away before any answer. */
  status: number;
  /** The error envelope's code, or '' for an answer that is not an error. */
  code: string;
  /** The answer was an Idempotency-Key replay (Idempotent-Replayed: true). */
  replayed: boolean;
  /** 429 RATE_LIMITED by the key's request quota (rather than the in-flight cap). */
  rateLimited: boolean;
}

/** Reports nothing: the default of every component that takes metrics, so tests and tools need none. */
export const NO_METRICS: GatewayMetrics = {
  requestStarted: () => () => {},
  agentRefused: () => {},
  agentClosed: () => {},
  inFlightRefused: () => {},
  forwarded: () => {},
  noResponders: () => {},
  eventStored: () => {},
  webhookAttempt: () => {},
  webhookQueueDepth: () => {},
};
