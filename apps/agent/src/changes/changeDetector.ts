import type { Change } from '@gp-gateway/protocol';
import type { Executor } from '../db/executor.ts';
import { changedSinceQuery, rangeAggregateQuery, rangeRowsQuery, tsSeconds, type KeyRange } from './statements.ts';
import type { TrackedObject, TrackedSource } from './trackedObjects.ts';

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

/**
 * A record the agent has seen: the table it is in (index into the object's sources), its DEX_ROW_TS
 * as read back, its DEX_ROW_ID, and the key range of that table it was last counted in.
 */
interface Known {
  source: number;
  ts: string;
  rowId: number;
  range: number | null;
}

type Key = readonly (string | number)[];

/** What the agent knows of one object in one company. */
interface ObjectState {
  /** By the record's API id, whichever table holds it: a document keeps its id as posting moves it. */
  known: Map<string, Known>;
  /** Per source table, the lower bounds of its key ranges in the database's key order; the first is null (open below). */
  bounds: (Key | null)[][];
  /** The largest DEX_ROW_TS seen. */
  watermark: string;
  /** The next range to check, counting the ranges of every table in turn. */
  nextRange: number;
}

/** A row as detection reads it: the key's values, the id's values, DEX_ROW_TS, DEX_ROW_ID. */
function splitRow(source: TrackedSource, row: unknown[]): { key: Key; id: string; ts: unknown; rowId: number } {
  const keyEnd = source.key.length;
  const idEnd = keyEnd + source.idColumns.length;
  return {
    key: row.slice(0, keyEnd).map((v, i) => (source.key[i]!.type.kind === 'int' ? Number(v) : String(v))),
    id: source.idOf(row.slice(keyEnd, idEnd)),
    ts: row[idEnd],
    rowId: Number(row[idEnd + 1]),
  };
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
    const dialect = this.executor.dialect;
    const current = (id: string) => (found.has(id) ? found.get(id)! : (state.known.get(id) ?? null));
    const seen = (id: string, source: number, ts: string, rowId: number, range: number | null) => {
      const before = current(id);
      // A record found in another table than before (posted, moved to history) is in none of this table's ranges yet.
      const placed = range ?? (before?.source === source ? before.range : null);
      found.set(id, { source, ts, rowId, range: placed });
      if (!before) kinds.set(id, 'created');
      else if ((before.ts !== ts || before.source !== source) && !kinds.has(id)) kinds.set(id, 'updated');
    };

    // Rows stamped since the watermark, less the overlap, in every table of the object.
    const since = new Date(Date.parse(isoOf(state.watermark)) - this.overlapMs).toISOString();
    let watermark = state.watermark;
    for (const [index, source] of tracked.sources.entries()) {
      const stamped = await this.executor.query(company, changedSinceQuery(dialect, company, source, since), signal);
      for (const raw of stamped) {
        const row = splitRow(source, raw);
        const stamp = dialect.decodeDateTime(row.ts);
        if (stamp > watermark) watermark = stamp;
        seen(row.id, index, stamp, row.rowId, null);
      }
    }

    // A few key ranges, in turn over every table. A row found by its stamp but not yet placed in a
    // range counts in none, so the range that holds it differs from what the agent expects and is
    // read: that places it.
    const ranges = state.bounds.flatMap((bounds, source) => bounds.map((_, range) => ({ source, range })));
    const checked = Math.min(this.rangesPerPoll, ranges.length);
    const picked = Array.from({ length: checked }, (_, n) => ranges[(state.nextRange + n) % ranges.length]!);
    const nextRange = (state.nextRange + checked) % ranges.length;
    const slot = (source: number, range: number) => `${source}/${range}`;
    const membersOf = new Map(picked.map((p) => [slot(p.source, p.range), [] as string[]]));
    const place = (id: string, now: Known | null) => {
      if (now && now.range !== null) membersOf.get(slot(now.source, now.range))?.push(id);
    };
    for (const [id, known] of state.known) place(id, found.has(id) ? found.get(id)! : known);
    for (const [id, now] of found) if (!state.known.has(id)) place(id, now);
    for (const { source: index, range: r } of picked) {
      const source = tracked.sources[index]!;
      const bounds = state.bounds[index]!;
      const range: KeyRange = { lo: bounds[r]!, hi: bounds[r + 1] ?? null };
      const [row] = await this.executor.query(company, rangeAggregateQuery(dialect, company, source, range), signal);
      const [count, rowIds, seconds] = (row ?? [0, 0, 0]).map(Number) as [number, number, number];
      const members = membersOf.get(slot(index, r))!;
      const expected = { count: members.length, rowIds: 0, seconds: 0 };
      for (const id of members) {
        const now = current(id)!;
        expected.rowIds += now.rowId;
        expected.seconds += tsSeconds(now.ts);
      }
      if (count === expected.count && rowIds === expected.rowIds && seconds === expected.seconds) continue;
      const present = new Set<string>();
      for (const raw of await this.executor.query(company, rangeRowsQuery(dialect, company, source, range), signal)) {
        const read = splitRow(source, raw);
        present.add(read.id);
        const stamp = dialect.decodeDateTime(read.ts);
        if (stamp > watermark) watermark = stamp;
        seen(read.id, index, stamp, read.rowId, r);
      }
      for (const id of members) {
        // Gone from this range: deleted, unless it is now in another table (a document posted or moved to history).
        if (present.has(id) || current(id)!.source !== index) continue;
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

  /** The first reading of an object's tables: every key with its stamp, cut into ranges of `rangeRows` in the database's key order. */
  private async learn(company: string, tracked: TrackedObject, signal?: AbortSignal): Promise<ObjectState> {
    const state: ObjectState = { known: new Map(), bounds: [], watermark: '1900-01-01 00:00:00.000', nextRange: 0 };
    for (const [index, source] of tracked.sources.entries()) {
      const bounds: (Key | null)[] = [null];
      const rows = await this.executor.query(
        company,
        rangeRowsQuery(this.executor.dialect, company, source, { lo: null, hi: null }),
        signal,
      );
      rows.forEach((raw, i) => {
        const row = splitRow(source, raw);
        if (i > 0 && i % this.rangeRows === 0) bounds.push(row.key);
        const stamp = this.executor.dialect.decodeDateTime(row.ts);
        if (stamp > state.watermark) state.watermark = stamp;
        state.known.set(row.id, { source: index, ts: stamp, rowId: row.rowId, range: bounds.length - 1 });
      });
      state.bounds.push(bounds);
    }
    return state;
  }
}
