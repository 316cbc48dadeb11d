import type { EventObjectName } from '@gp-gateway/protocol';

/** A GP table whose rows are one object's records, keyed by one char column that is the record's id. */
export interface TrackedSource {
  table: string;
  key: { column: string; length: number };
}

/** An object whose changes the agent detects (docs/decisions.md#change-feed). */
export interface TrackedObject {
  object: EventObjectName;
  source: TrackedSource;
}

/**
 * The objects detected so far: master records of one table each, keyed by their GP id. Documents
 * spread over work, open and history tables, and objects with composite keys, follow.
 */
export const TRACKED_OBJECTS: readonly TrackedObject[] = [
  { object: 'customers', source: { table: 'RM00101', key: { column: 'CUSTNMBR', length: 15 } } },
  { object: 'vendors', source: { table: 'PM00200', key: { column: 'VENDORID', length: 15 } } },
  { object: 'items', source: { table: 'IV00101', key: { column: 'ITEMNMBR', length: 31 } } },
];
