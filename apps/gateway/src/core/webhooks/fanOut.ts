import { eventTypeMatches } from '@gp-gateway/protocol';
import type { NewEvent, NewWebhookDelivery, Store, StoredEvent, WebhookEndpoint } from '../../infrastructure/store/store.ts';
import { toApiEvent } from '../events/apiEvent.ts';

/**
 * Stores events with their webhook deliveries, in one transaction (`appendEvents` with
 * `deliveriesOf`): a delivery of each new event to each enabled endpoint of its organisation that
 * wants it (its types and connections); then tells the worker. An event reported twice is new once,
 * so it is delivered once; and no instance can die between storing an event and queueing its
 * deliveries (docs/decisions.md#webhooks).
 */
export class WebhookFanOut {
  private readonly store: Store;
  private readonly queued: () => void;
  private readonly now: () => Date;

  constructor(options: { store: Store; queued: () => void; now?: () => Date }) {
    this.store = options.store;
    this.queued = options.queued;
    this.now = options.now ?? (() => new Date());
  }

  /** Stores the events not already stored, and queues their deliveries; the new events. */
  async append(events: readonly NewEvent[], at: Date): Promise<StoredEvent[]> {
    let planned = 0;
    const stored = await this.store.appendEvents(events, at, (fresh, endpoints) => {
      const deliveries = deliveriesOf(fresh, endpoints);
      // Set, not added to: PostgreSQL may run the transaction again (a deadlock broken).
      planned = deliveries.length;
      return deliveries;
    });
    if (planned > 0) this.queued();
    return stored;
  }

  /** Stores an event of the gateway's own (`endpoint.disabled`) and delivers it like any other. */
  async raise(event: NewEvent): Promise<void> {
    await this.append([event], this.now());
  }
}

function deliveriesOf(events: readonly StoredEvent[], endpoints: readonly WebhookEndpoint[]): NewWebhookDelivery[] {
  const deliveries: NewWebhookDelivery[] = [];
  for (const event of events) {
    const wanting = endpoints.filter((e) => e.orgId === event.orgId && wants(e, event));
    if (wanting.length === 0) continue;
    const body = JSON.stringify(toApiEvent(event));
    for (const endpoint of wanting)
      deliveries.push({ orgId: event.orgId, endpointId: endpoint.id, eventId: event.id, eventType: event.type, body });
  }
  return deliveries;
}

function wants(endpoint: WebhookEndpoint, event: StoredEvent): boolean {
  if (!eventTypeMatches(event.type, endpoint.eventTypes)) return false;
  return endpoint.connectionIds === null || endpoint.connectionIds.includes(event.connectionId);
}
