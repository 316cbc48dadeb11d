import type { Change } from '@gp-gateway/protocol';
import type { Executor } from '../db/executor.ts';
import { changedSinceQuery, rangeAggregateQuery, rangeRowsQuery, tsSeconds, type KeyRange } from './statements.ts';
import type { TrackedObject } from './trackedObjects.ts';

/** How far back each poll looks again for rows committed late (docs/decisions.md#change-feed). */
export const DEFAULT_OVERLAP_MS = 15 * 60 * 1000;
/** Rows per key range whose aggregate finds deletes (and what the watermark missed). */
const DEFAULT_RANGE_ROWS = 500;
/** Key ranges checked per poll of an object, in turn: a table of 2,000 ranges is swept every 250 polls. */
const DEFAULT_RANGES_PER_POLL = 8;

export interface DetectorOptions {
  overlapMs?: number;
  rangeRows?: number;
  rangesPerPoll?: number;
}

/** The API's records of `ids` by id, read through the catalogue; an id without a row is missing. */
export type RecordReader = (company: string, object: string, ids: readonly string[]) => Promise<Map<string, Record<string, unknown>>>;

/** A row the agent has seen: its DEX_ROW_TS as read back, its DEX_ROW_ID, and the key range it was last counted in. */
interface Known {
  ts: string;
  rowId: number;
  range: number | null;
}

/** What the agent knows of one object in one company. */
interface ObjectState {
  known: Map<string, Known>;
  /** Lower bounds of the key ranges, in the database's key order; the first is null (open below). */
  bounds: (string | null)[];
  /** The largest DEX_ROW_TS seen. */
  watermark: string;
  /** The next range to check. */
  nextRange: number;
}

export interface Detected {
  changes: Change[];
  /** Makes the changes part of what the agent knows: call once the gateway has stored them. */
  commit(): void;
}

const isoOf = (ts: string) => `${ts.replace(' ', 'T')}Z`;

/**
 * Finds what changed in one object's table since the last poll, without Change Tracking or any
 * schema change (docs/decisions.md#change-feed):
 * - rows stamped since the watermark less an overlap (GP stamps DEX_ROW_TS when the statement runs,
 *   and the row commits later): a row the agent has not seen is `created`, one whose DEX_ROW_TS
 *   differs from the one seen is `updated`, one seen with the same stamp is nothing, so an overlap
 *   never repeats a change;
 * - a few key ranges per poll, in turn, by an aggregate each (count, sum of DEX_ROW_ID, sum of
 *   DEX_ROW_TS): a range that matches what the agent knows cost one query; one that differs is read
 *   and compared row by row, which finds deletes, and rows that committed later than the overlap.
 * The first poll of an object only learns the table (no events: its rows were not changes).
 * Nothing is learnt until `commit`: a poll whose changes the gateway did not store is made again,
 * finding the same changes with the same versions, which the gateway keeps once.
 */
export class ChangeDetector {
  private readonly executor: Executor;
  private readonly read: RecordReader;
  private readonly overlapMs: number;
  private readonly rangeRows: number;
  private readonly rangesPerPoll: number;
  private readonly states = new Map<string, ObjectState>();

  constructor(executor: Executor, read: RecordReader, options: DetectorOptions = {}) {
    this.executor = executor;
    this.read = read;
    this.overlapMs = options.overlapMs ?? DEFAULT_OVERLAP_MS;
    this.rangeRows = options.rangeRows ?? DEFAULT_RANGE_ROWS;
    this.rangesPerPoll = options.rangesPerPoll ?? DEFAULT_RANGES_PER_POLL;
  }

  /** Whether the object of the company has been learnt (its first poll ran). */
  knows(company: string, tracked: TrackedObject): boolean {
    return this.states.has(`${company}/${tracked.object}`);
  }

  async poll(company: string, tracked: TrackedObject, signal?: AbortSignal): Promise<Detected> {
    const stateKey = `${company}/${tracked.object}`;
    const state = this.states.get(stateKey);
    if (!state) {
      const learnt = await this.learn(company, tracked, signal);
      return { changes: [], commit: () => void this.states.set(stateKey, learnt) };
    }

    // What this poll found, applied to the state at commit: id → the row now, or null (deleted).
    const found = new Map<string, Known | null>();
    const kinds = new Map<string, 'created' | 'updated'>();
    const deleted: Change[] = [];
    const current = (id: string) => (found.has(id) ? found.get(id)! : (state.known.get(id) ?? null));
    const seen = (id: string, ts: string, rowId: number, range: number | null) => {
      const before = current(id);
      found.set(id, { ts, rowId, range: range ?? before?.range ?? null });
      if (!before) kinds.set(id, 'created');
      else if (before.ts !== ts && !kinds.has(id)) kinds.set(id, 'updated');
    };

    // Rows stamped since the watermark, less the overlap.
    const since = new Date(Date.parse(isoOf(state.watermark)) - this.overlapMs).toISOString();
    let watermark = state.watermark;
    const stamped = await this.executor.query(company, changedSinceQuery(this.executor.dialect, company, tracked.source, since), signal);
    for (const [key, ts, rowId] of stamped as [string, string, number][]) {
      const stamp = this.executor.dialect.decodeDateTime(ts);
      if (stamp > watermark) watermark = stamp;
      seen(String(key), stamp, Number(rowId), null);
    }

    // A few key ranges, in turn. A row found by its stamp but not yet placed in a range counts in
    // none, so the range that holds it differs from what the agent expects and is read: that places it.
    const checked = Math.min(this.rangesPerPoll, state.bounds.length);
    const indexes = Array.from({ length: checked }, (_, n) => (state.nextRange + n) % state.bounds.length);
    const nextRange = (state.nextRange + checked) % state.bounds.length;
    const membersOf = new Map(indexes.map((i) => [i, [] as string[]]));
    for (const id of new Set([...state.known.keys(), ...found.keys()])) {
      const range = current(id)?.range;
      if (range !== null && range !== undefined) membersOf.get(range)?.push(id);
    }
    for (const index of indexes) {
      const range: KeyRange = { lo: state.bounds[index]!, hi: state.bounds[index + 1] ?? null };
      const [row] = await this.executor.query(company, rangeAggregateQuery(this.executor.dialect, company, tracked.source, range), signal);
      const [count, rowIds, seconds] = (row ?? [0, 0, 0]).map(Number) as [number, number, number];
      const members = membersOf.get(index)!;
      const expected = { count: members.length, rowIds: 0, seconds: 0 };
      for (const id of members) {
        const now = current(id)!;
        expected.rowIds += now.rowId;
        expected.seconds += tsSeconds(now.ts);
      }
      if (count === expected.count && rowIds === expected.rowIds && seconds === expected.seconds) continue;
      const rows = await this.executor.query(company, rangeRowsQuery(this.executor.dialect, company, tracked.source, range), signal);
      const present = new Set<string>();
      for (const [key, ts, rowId] of rows as [string, string, number][]) {
        const id = String(key);
        present.add(id);
        const stamp = this.executor.dialect.decodeDateTime(ts);
        if (stamp > watermark) watermark = stamp;
        seen(id, stamp, Number(rowId), index);
      }
      for (const id of members) {
        if (present.has(id)) continue;
        const gone = current(id)!;
        found.set(id, null);
        kinds.delete(id);
        deleted.push({ kind: 'deleted', id, version: gone.ts, changedAt: new Date().toISOString(), record: null });
      }
    }

    // The records as the API serves them; a row gone since it was seen is left to the range that finds it gone.
    const ids = [...kinds.keys()];
    const records = ids.length ? await this.read(company, tracked.object, ids) : new Map<string, Record<string, unknown>>();
    const changes: Change[] = [];
    for (const id of ids) {
      const record = records.get(id);
      const now = found.get(id)!;
      if (!record) {
        found.delete(id);
        continue;
      }
      changes.push({ kind: kinds.get(id)!, id, version: now.ts, changedAt: isoOf(now.ts), record });
    }
    changes.push(...deleted);
    return {
      changes,
      commit: () => {
        for (const [id, row] of found) {
          if (row) state.known.set(id, row);
          else state.known.delete(id);
        }
        state.watermark = watermark;
        state.nextRange = nextRange;
      },
    };
  }

  /** The first reading of a table: every key with its stamp, cut into ranges of `rangeRows` in the database's key order. */
  private async learn(company: string, tracked: TrackedObject, signal?: AbortSignal): Promise<ObjectState> {
    const rows = await this.executor.query(
      company,
      rangeRowsQuery(this.executor.dialect, company, tracked.source, { lo: null, hi: null }),
      signal,
    );
    const state: ObjectState = { known: new Map(), bounds: [null], watermark: '1900-01-01 00:00:00.000', nextRange: 0 };
    rows.forEach(([key, ts, rowId], i) => {
      const id = String(key);
      if (i > 0 && i % this.rangeRows === 0) state.bounds.push(id);
      const stamp = this.executor.dialect.decodeDateTime(ts);
      if (stamp > state.watermark) state.watermark = stamp;
      state.known.set(id, { ts: stamp, rowId: Number(rowId), range: state.bounds.length - 1 });
    });
    return state;
  }
}
