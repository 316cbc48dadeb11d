import { eventTypeMatches } from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import type { NewEvent, NewWebhookDelivery, Store, StoredEvent, WebhookEndpoint } from '../../infrastructure/store/store.ts';
import { toApiEvent } from '../events/apiEvent.ts';

/**
 * Queues a delivery of each new event to each enabled endpoint of its organisation that wants it
 * (its types and connections), then tells the worker. Called with what `appendEvents` answered,
 * the events that were new, so an event reported twice is delivered once.
 */
export class WebhookFanOut {
  private readonly store: Store;
  private readonly log: Logger;
  private readonly queued: () => void;
  private readonly now: () => Date;

  constructor(options: { store: Store; log: Logger; queued: () => void; now?: () => Date }) {
    this.store = options.store;
    this.log = options.log;
    this.queued = options.queued;
    this.now = options.now ?? (() => new Date());
  }

  /** Queues the deliveries of these new events; how many. Never throws: the feed has the events whatever happens here. */
  async eventsStored(events: readonly StoredEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    try {
      const byOrg = new Map<string, StoredEvent[]>();
      for (const event of events) byOrg.set(event.orgId, [...(byOrg.get(event.orgId) ?? []), event]);
      const deliveries: NewWebhookDelivery[] = [];
      for (const [orgId, ofOrg] of byOrg) {
        const endpoints = (await this.store.listWebhookEndpoints(orgId)).filter((e) => e.disabledAt === null);
        for (const event of ofOrg) {
          const body = JSON.stringify(toApiEvent(event));
          for (const endpoint of endpoints.filter((e) => wants(e, event))) {
            deliveries.push({ orgId, endpointId: endpoint.id, eventId: event.id, eventType: event.type, body });
          }
        }
      }
      const added = await this.store.enqueueWebhookDeliveries(deliveries, this.now());
      if (added > 0) this.queued();
      return added;
    } catch (error) {
      this.log.error({ err: error, events: events.length }, 'could not queue webhook deliveries of new events');
      return 0;
    }
  }

  /** Stores an event of the gateway's own (`endpoint.disabled`) and delivers it like any other. */
  async raise(event: NewEvent): Promise<void> {
    const stored = await this.store.appendEvents([event], this.now());
    await this.eventsStored(stored);
  }
}

function wants(endpoint: WebhookEndpoint, event: StoredEvent): boolean {
  if (!eventTypeMatches(event.type, endpoint.eventTypes)) return false;
  return endpoint.connectionIds === null || endpoint.connectionIds.includes(event.connectionId);
}
