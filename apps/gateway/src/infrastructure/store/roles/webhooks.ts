/**
 * Webhooks (docs/api.md#webhooks, docs/decisions.md#webhooks): an organisation's endpoints, one
 * delivery per endpoint and event, and each attempt to deliver it. Deliveries are claimed with a
 * lease that expires, so an instance that dies mid-delivery loses nothing: once the lease runs out
 * any instance claims the delivery again and sends it with the same webhook-id (the event's id).
 */

export interface WebhookEndpoint {
  /** `we_` and 16 random base64url characters. */
  id: string;
  orgId: string;
  url: string;
  /** Event types and nouns' patterns (`customer.*`); none: every type. */
  eventTypes: string[];
  /** Only events of these connections; null: every connection. */
  connectionIds: string[] | null;
  description: string;
  /** The signing secret (`whsec_…`) as the store keeps it: sealed by core/webhooks/secretBox.ts, never in clear. */
  sealedSecret: string;
  /** The secret before the last rotation, still signing (beside the new one) until `previousSecretExpiresAt`. */
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  /** Since when every attempt to this endpoint has failed; null while it answers. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What an endpoint is created with; the rest starts empty (no previous secret, enabled, not failing). */
export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  'orgId' | 'url' | 'eventTypes' | 'connectionIds' | 'description' | 'sealedSecret'
> & {
  at: Date;
};

/** What may change of an endpoint; absent fields stay as they are. */
export type WebhookEndpointChanges = Partial<
  Pick<
    WebhookEndpoint,
    | 'url'
    | 'eventTypes'
    | 'connectionIds'
    | 'description'
    | 'sealedSecret'
    | 'sealedPreviousSecret'
    | 'previousSecretExpiresAt'
    | 'disabledAt'
    | 'disabledReason'
  >
>;

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface NewWebhookDelivery {
  orgId: string;
  endpointId: string;
  /** The event's id: the delivery's webhook-id, the same on every attempt. */
  eventId: string;
  eventType: string;
  /** The JSON body sent, as text: signed and sent byte for byte on every attempt. */
  body: string;
}

export interface WebhookDelivery {
  /** `wd_` and 16 random base64url characters. */
  id: string;
  orgId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending deliveries); null once settled. */
  nextAttemptAt: string | null;
  createdAt: string;
  /** When it was delivered or given up. */
  settledAt: string | null;
}

/** A delivery claimed by a worker: its body and the lease that is its own until `leaseUntil`. */
export interface ClaimedWebhookDelivery extends WebhookDelivery {
  body: string;
  /** Identifies this claim: settling with another (a lease since taken over) changes nothing. */
  lease: string;
  /** Its endpoint as it stood when claimed (read once per claim, not once per attempt). */
  endpoint: WebhookEndpoint;
}

export interface WebhookAttempt {
  at: string;
  /** The HTTP status answered; null when none was (refused target, timeout, connection error). */
  httpStatus: number | null;
  latencyMs: number;
  /** The start of the response body, at most 4 KB. */
  responseExcerpt: string | null;
  /** Why the attempt failed, in words; null when it succeeded. */
  error: string | null;
}

export interface WebhookClaimRequest {
  at: Date;
  leaseUntil: Date;
  /** At most this many deliveries in all ... */
  limit: number;
  /** ... and this many per endpoint, so that one endpoint's backlog never fills the claim ... */
  perEndpoint: number;
  /** ... or, of these endpoints, this many each (what the worker has room for). */
  quotas?: ReadonlyMap<string, number>;
  /** Endpoints this worker is already busy enough with: none of theirs. */
  skipEndpoints: readonly string[];
}

/** What an attempt led to: the delivery delivered, tried again at `retryAt`, or given up. */
export type WebhookAttemptOutcome = { kind: 'succeeded' } | { kind: 'retry'; retryAt: Date } | { kind: 'failed' };

/** One attempt to record (`recordWebhookAttempts`): of which claimed delivery, how it went, what follows. */
export interface RecordedWebhookAttempt {
  delivery: { id: string; endpointId: string; lease: string };
  attempt: WebhookAttempt;
  outcome: WebhookAttemptOutcome;
}

export interface WebhookDeliveryQuery {
  orgId: string;
  endpointId?: string | undefined;
  status?: WebhookDeliveryStatus | undefined;
  /** Only deliveries made at or after this instant (ISO-8601 UTC). */
  since?: string | undefined;
  /** The last position of the previous page (newest first); null for the first page. */
  before: number | null;
  limit: number;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  /** The position to pass as `before` for the next page; null when this was the last. */
  next: number | null;
}

export interface WebhooksStore {
  createWebhookEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  listWebhookEndpoints(orgId: string): Promise<WebhookEndpoint[]>;
  findWebhookEndpoint(orgId: string, id: string): Promise<WebhookEndpoint | null>;
  /** The endpoint as changed; null when the organisation has none of that id. */
  updateWebhookEndpoint(orgId: string, id: string, changes: WebhookEndpointChanges, at: Date): Promise<WebhookEndpoint | null>;
  /**
   * Disables an enabled endpoint, saying why; the endpoint when this call disabled it, null when it
   * was already disabled or is not there (so that of two instances, one raises `endpoint.disabled`).
   */
  disableWebhookEndpoint(orgId: string, id: string, reason: string, at: Date): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint with its deliveries and their attempts; whether there was one. */
  deleteWebhookEndpoint(orgId: string, id: string): Promise<boolean>;

  /** Queues the deliveries not already queued (one per endpoint and event), due at `at`; how many were new. */
  enqueueWebhookDeliveries(deliveries: readonly NewWebhookDelivery[], at: Date): Promise<number>;
  /**
   * Takes due pending deliveries of enabled endpoints whose lease is free or expired, oldest due
   * first, each leased until `leaseUntil`. No two claims hold one delivery at once (PostgreSQL:
   * `FOR UPDATE SKIP LOCKED`; SQLite: one writer at a time).
   */
  claimWebhookDeliveries(request: WebhookClaimRequest): Promise<ClaimedWebhookDelivery[]>;
  /**
   * Records an attempt and what it led to, and the endpoint's failing streak. The attempt is kept
   * whatever happens; the delivery changes only while `lease` is still its claim. The endpoint as it
   * now stands (null if deleted meanwhile).
   */
  recordWebhookAttempt(
    delivery: { id: string; endpointId: string; lease: string },
    attempt: WebhookAttempt,
    outcome: WebhookAttemptOutcome,
  ): Promise<WebhookEndpoint | null>;
  /**
   * Records several attempts, in the order given, as `recordWebhookAttempt` does each, in one
   * transaction (a worker's attempts that end together, one commit). The endpoints as they now
   * stand, by id (deleted ones absent).
   */
  recordWebhookAttempts(attempts: readonly RecordedWebhookAttempt[]): Promise<Map<string, WebhookEndpoint>>;
  /** Pending deliveries due at or before `at` on enabled endpoints (the queue's depth). */
  countDueWebhookDeliveries(at: Date): Promise<number>;
  /** The organisation's deliveries, newest first. */
  listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDeliveryPage>;
  findWebhookDelivery(orgId: string, id: string): Promise<WebhookDelivery | null>;
  listWebhookAttempts(orgId: string, deliveryId: string): Promise<WebhookAttempt[]>;
  /**
   * Makes failed deliveries pending again, due at `at` (a resend, or a recovery after an outage):
   * the one named, or the endpoint's failed since `since`. How many.
   */
  retryWebhookDeliveries(selection: { orgId: string; endpointId: string; deliveryId?: string; since?: Date }, at: Date): Promise<number>;
}
