import type { FilterValues, WebhookDeliveryResource } from '@gp-gateway/protocol';
import { ApiError } from '../../errors/apiError.ts';
import type { Store, WebhookDelivery, WebhookDeliveryStatus } from '../../infrastructure/store/store.ts';
import type { CursorBinding, CursorCodec } from '../reads/cursor.ts';

export interface DeliveryListQuery {
  endpointId?: string | undefined;
  status?: WebhookDeliveryStatus | undefined;
  since?: string | undefined;
  limit: number;
  cursor: string | null;
}

export interface DeliveryPageAnswer {
  data: WebhookDeliveryResource[];
  /** Null on the last page. */
  nextCursor: string | null;
}

const BAD_CURSOR = 'is not a cursor of this list; pass nextCursor back unchanged with the same filters';

/**
 * `GET /v1/webhook-deliveries` (docs/api.md#webhooks): an organisation's deliveries, newest first,
 * for integrators' own monitoring; paged by a signed keyset cursor bound to the filters, as the
 * other lists are.
 */
export class WebhookDeliveryList {
  private readonly store: Store;
  private readonly cursors: CursorCodec;

  constructor(store: Store, cursors: CursorCodec) {
    this.store = store;
    this.cursors = cursors;
  }

  async list(orgId: string, query: DeliveryListQuery): Promise<DeliveryPageAnswer> {
    const binding = bindingOf(orgId, query);
    let before: number | null = null;
    if (query.cursor !== null) {
      const decoded = this.cursors.decode(query.cursor, binding);
      if (decoded === null || decoded.length !== 1 || !Number.isSafeInteger(decoded[0]) || (decoded[0] as number) < 0)
        throw ApiError.validation([{ path: 'cursor', message: BAD_CURSOR }]);
      before = decoded[0] as number;
    }
    const page = await this.store.listWebhookDeliveries({
      orgId,
      endpointId: query.endpointId,
      status: query.status,
      since: query.since,
      before,
      limit: query.limit,
    });
    return { data: page.deliveries.map(toResource), nextCursor: page.next === null ? null : this.cursors.encode(binding, [page.next]) };
  }
}

/** A delivery as the API shows it: without the organisation, which the key already is of. */
function toResource({ orgId: _orgId, ...delivery }: WebhookDelivery): WebhookDeliveryResource {
  return delivery;
}

function bindingOf(orgId: string, query: DeliveryListQuery): CursorBinding {
  const filters: FilterValues = {};
  if (query.endpointId !== undefined) filters.endpointId = query.endpointId;
  if (query.status !== undefined) filters.status = query.status;
  if (query.since !== undefined) filters.since = query.since;
  return { orgId, connectionId: '*', company: null, object: 'webhook-deliveries', filters };
}
