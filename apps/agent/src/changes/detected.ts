import type { Change } from '@gp-gateway/protocol';

/** The API's records of `ids` by id, read through the catalogue; an id without a row is missing. */
export type RecordReader = (company: string, object: string, ids: readonly string[]) => Promise<Map<string, Record<string, unknown>>>;

export interface Detected {
  changes: Change[];
  /** Makes the changes part of what the agent knows (and its state file): call once the gateway has stored them. */
  commit(): void;
}
