import { z } from 'zod';
import type { ObjectName } from './objects.ts';

/**
 * The change feed (docs/api.md#events): what the agent detects in GP and the gateway keeps as events.
 * An event's type is `<noun>.<kind>` (`customer.created`), the noun being the object's singular, as
 * the products integrators compare us with name them; `connection.online` and `connection.offline`
 * come from the gateway itself.
 */

/** The objects whose changes the agent reports, with the noun their event types use. */
export const EVENT_NOUNS = {
  customers: 'customer',
  'customer-addresses': 'customer-address',
  vendors: 'vendor',
  'vendor-addresses': 'vendor-address',
  items: 'item',
  'item-quantities': 'item-quantity',
  accounts: 'account',
  'ar-invoices': 'ar-invoice',
  'ar-payments': 'ar-payment',
  'ap-invoices': 'ap-invoice',
  'ap-payments': 'ap-payment',
  'sales-orders': 'sales-order',
  'sales-order-lines': 'sales-order-line',
  'purchase-orders': 'purchase-order',
  'purchase-order-lines': 'purchase-order-line',
  batches: 'batch',
} as const satisfies Partial<Record<ObjectName, string>>;

export type EventObjectName = keyof typeof EVENT_NOUNS;
export const EVENT_OBJECT_NAMES = Object.keys(EVENT_NOUNS) as [EventObjectName, ...EventObjectName[]];
export const EventObjectNameSchema = z.enum(EVENT_OBJECT_NAMES);

export const CHANGE_KINDS = ['created', 'updated', 'deleted'] as const;
const ChangeKindSchema = z.enum(CHANGE_KINDS);
export type ChangeKind = z.infer<typeof ChangeKindSchema>;

/** The events of a connection's life, recorded by the gateway when its first agent arrives and its last leaves. */
const CONNECTION_EVENT_TYPES = ['connection.online', 'connection.offline'] as const;

/** Every event type there is, in the order the documentation lists them. */
export const EVENT_TYPES: readonly string[] = [
  ...EVENT_OBJECT_NAMES.flatMap((object) => CHANGE_KINDS.map((kind) => `${EVENT_NOUNS[object]}.${kind}`)),
  ...CONNECTION_EVENT_TYPES,
];

export function eventTypeOf(object: EventObjectName, kind: ChangeKind): string {
  return `${EVENT_NOUNS[object]}.${kind}`;
}

/**
 * A `type` filter: an event type (`customer.created`) or a noun's pattern (`customer.*`), checked
 * against the types there are so that a misspelt filter is a 400 rather than an empty feed forever.
 */
export function eventTypePatternProblem(pattern: string): string | null {
  if (EVENT_TYPES.includes(pattern)) return null;
  if (pattern.endsWith('.*') && EVENT_TYPES.some((type) => type.startsWith(pattern.slice(0, -1)))) return null;
  return `must be an event type such as customer.created, or a pattern such as customer.* (one of: ${[...new Set(EVENT_TYPES.map((t) => `${t.split('.')[0]}.*`))].join(', ')})`;
}

/** Whether `type` is named by one of `patterns` (none: every type). */
export function eventTypeMatches(type: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => (p.endsWith('.*') ? type.startsWith(p.slice(0, -1)) : type === p));
}

/** The longest record id a change may name, as for gets. */
const MAX_CHANGE_ID_LENGTH = 512;

/**
 * One change the agent found. `version` is what makes it this change and no other, the same from
 * every agent of a connection that finds it (GP's `DEX_ROW_TS` of the row as changed, or its Change
 * Tracking version), so the gateway keeps one event when two agents, or one agent twice after a lost
 * acknowledgement, report it.
 */
export const ChangeSchema = z.object({
  kind: ChangeKindSchema,
  id: z.string().min(1).max(MAX_CHANGE_ID_LENGTH),
  version: z.string().min(1).max(64),
  /** When GP changed the record (its `DEX_ROW_TS`, ISO-8601 UTC); for a delete, when the agent found it gone. */
  changedAt: z.string().max(40),
  /** The record as the API serves it; null for a delete. Held to the object's resource by the gateway. */
  record: z.record(z.string(), z.unknown()).nullable(),
});
export type Change = z.infer<typeof ChangeSchema>;

/** At most this many changes in one frame; an agent sends more in several. */
export const MAX_CHANGES_PER_FRAME = 500;

/** An event as the API serves it (`GET /v1/events`, docs/api.md#events); the organisation is the key's. */
export const EventSchema = z
  .object({
    id: z.string().describe('`evt_` and 16 characters; stable, the same in every read and delivery'),
    type: z.string().describe('`customer.created`, `ar-invoice.updated`, `connection.online`, …'),
    connectionId: z.string(),
    company: z.string().nullable().describe("the company database (GP's INTERID); null for a connection's own events"),
    object: z.string().nullable().describe("the object the record is of (`customers`); null for a connection's own events"),
    recordId: z.string().nullable().describe('the id `GET /v1/{object}/{id}` takes; null for a connection’s own events'),
    changedAt: z
      .string()
      .nullable()
      .describe('when GP changed the record (its DEX_ROW_TS), ISO-8601 UTC; for a delete, when the agent found it gone'),
    recordedAt: z.string().describe('when the gateway stored the event, ISO-8601 UTC'),
    data: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('the record as the API serves it (created, updated); `{ "id": … }` for a delete; details of a connection event'),
  })
  .strict();
export type Event = z.infer<typeof EventSchema>;
