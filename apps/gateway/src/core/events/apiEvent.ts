import type { Event } from '@gp-gateway/protocol';
import type { StoredEvent } from '../../infrastructure/store/store.ts';

/** An event as the API serves it (GET /v1/events) and as a webhook delivery's body carries it. */
export function toApiEvent(event: StoredEvent): Event {
  return {
    id: event.id,
    type: event.type,
    connectionId: event.connectionId,
    company: event.company,
    object: event.object,
    recordId: event.recordId,
    changedAt: event.changedAt,
    recordedAt: event.recordedAt,
    data: (event.data ?? null) as Record<string, unknown> | null,
  };
}
