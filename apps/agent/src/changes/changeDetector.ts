import type { Change } from '@gp-gateway/protocol';
import type { Detected, RecordReader } from './detected.ts';
import type { Executor } from '../db/executor.ts';
import { MEMORY_ONLY, type DetectionStateStore, type Key, type Known, type ObjectState } from './detectionState.ts';
import { changeTrackingStatusOf, changeTrackingStatusQuery, currentVersionQuery, type ChangeTrackingStatus } from './changeTracking.ts';
import { changedSinceQuery, rangeAggregateQuery, rangeRowsQuery, trackedChangesQuery, tsSeconds, type KeyRange } from './statements.ts';
import type { TrackedObject, TrackedSource } from './trackedObjects.ts';
import { isValueTracked, type Tracked } from './allTracked.ts';
import { ValueDetector } from './valueDetector.ts';

/** How far back each poll looks again for rows committed late (docs/decisions.md#change-feed). */
export const DEFAULT_OVERLAP_MS = 15 * 60 * 1000;
/** History tables are polled every this many polls of their object (GP_AGENT_CHANGES_HISTORY_EVERY). */
export const DEFAULT_HISTORY_EVERY = 8;
/** Rows per key range whose aggregate finds deletes (and what the watermark missed). */
const DEFAULT_RANGE_ROWS = 500;
/** Key ranges checked per poll of an object, in turn: a table of 2,000 ranges is swept every 250 polls. */
const DEFAULT_RANGES_PER_POLL = 8;

export interface DetectorOptions {
  overlapMs?: number;
  rangeRows?: number;
  rangesPerPoll?: number;
  historyEvery?: number;
  /** Where what the detector knows is kept across restarts; memory only by default. */
  state?: DetectionStateStore;
  /**
   * Read SQL Server Change Tracking where it is on for every table of an object (docs/decisions.md#change-tracking);
   * on by default on SQL Server. How long a company's status is trusted before it is read again.
   */
  changeTracking?: { statusTtlMs: number } | false;
}

const NEVER = '1900-01-01 00:00:00.000';

/** The key's values of a row as detection reads it, typed as the key's columns. */
function keyOf(source: TrackedSource, row: readonly unknown[]): Key {
  return row.slice(0, source.key.length).map((v, i) => (source.key[i]!.type.kind === 'int' ? Number(v) : String(v)));
}

/** A row as detection reads it: the key's values, the id's values, DEX_ROW_TS, DEX_ROW_ID; null when its id cannot be made (an account without its number). */
function splitRow(source: TrackedSource, row: unknown[]): { key: Key; id: string; ts: unknown; rowId: number } | null {
  const keyEnd = source.key.length;
  const idEnd = keyEnd + source.idColumns.length;
  const idValues = row.slice(keyEnd, idEnd);
  if (idValues.some((v) => v === null || v === undefined)) return null;
  return {
    key: keyOf(source, row),
    id: source.idOf(idValues),
    ts: row[idEnd],
    rowId: Number(row[idEnd + 1]),
  };
}

const isoOf = (ts: string) => `${ts.replace(' ', 'T')}Z`;

/** What makes a saved state this object's as this agent tracks it: its tables, their keys, and the range size. */
function shapeOf(tracked: TrackedObject, rangeRows: number): string {
  return JSON.stringify([
    rangeRows,
    tracked.sources.map((s) => [s.table, s.key.map((k) => k.column), s.idColumns.map((c) => c.column), s.only]),
  ]);
}

/**
 * Finds what changed in one object's tables since the last poll, without Change Tracking or any
 * schema change (docs/decisions.md#change-feed):
 * - rows stamped since the table's watermark less an overlap (GP stamps DEX_ROW_TS when the
 *   statement runs, and the row commits later): a row the agent has not seen is `created`, one whose
 *   DEX_ROW_TS or table differs from the one seen is `updated`, one seen with the same stamp is
 *   nothing, so an overlap never repeats a change;
 * - a few key ranges per poll, in turn, by an aggregate each (count, sum of DEX_ROW_ID, sum of
 *   DEX_ROW_TS): a range that matches what the agent knows cost one query; one that differs is read
 *   and compared row by row, which finds deletes, and rows that committed later than the overlap.
 * History tables are polled every `historyEvery`th poll, and at once when a document leaves another
 * table of the object (so that a move to history is an update, never a delete).
 * The first poll of an object only learns the tables (no events: its rows were not changes).
 * Nothing is learnt until `commit`: a poll whose changes the gateway did not store is made again,
 * finding the same changes with the same versions, which the gateway keeps once. `commit` also saves
 * what was learnt in the state store, so a restart goes on from there.
 */
export class ChangeDetector {
  private readonly executor: Executor;
  private readonly read: RecordReader;
  private readonly overlapMs: number;
  private readonly rangeRows: number;
  private readonly rangesPerPoll: number;
  private readonly historyEvery: number;
  private readonly store: DetectionStateStore;
  private readonly states = new Map<string, ObjectState>();
  private readonly changeTracking: { statusTtlMs: number } | false;
  private readonly ctStatus = new Map<string, { status: ChangeTrackingStatus; at: number }>();
  /** Per object, source and key: the identity of the row (built when Change Tracking first needs it). */
  private readonly byKey = new Map<string, Map<string, string>>();
  /** Tables without DEX_ROW_TS, compared by value (valueDetector.ts). */
  private readonly values: ValueDetector;

  constructor(executor: Executor, read: RecordReader, options: DetectorOptions = {}) {
    this.executor = executor;
    this.read = read;
    this.overlapMs = options.overlapMs ?? DEFAULT_OVERLAP_MS;
    this.rangeRows = options.rangeRows ?? DEFAULT_RANGE_ROWS;
    this.rangesPerPoll = options.rangesPerPoll ?? DEFAULT_RANGES_PER_POLL;
    this.historyEvery = Math.max(1, options.historyEvery ?? DEFAULT_HISTORY_EVERY);
    this.store = options.state ?? MEMORY_ONLY;
    this.changeTracking = executor.dialect.name === 'mssql' ? (options.changeTracking ?? { statusTtlMs: 5 * 60_000 }) : false;
    this.values = new ValueDetector({ executor, read, store: this.store, overlapMs: this.overlapMs, sweepEvery: this.historyEvery });
  }

  /**
   * Whether Change Tracking serves this object now: on for the database and each of its tables, and
   * still holding every change since `since` (older ones are purged after the retention period).
   */
  private async trackedByChangeTracking(
    company: string,
    tracked: TrackedObject,
    since: string | undefined,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (!this.changeTracking) return false;
    let cached = this.ctStatus.get(company);
    if (!cached || Date.now() - cached.at >= this.changeTracking.statusTtlMs) {
      try {
        const rows = await this.executor.query(company, changeTrackingStatusQuery(this.executor.dialect, company), signal);
        cached = { status: changeTrackingStatusOf(company, rows), at: Date.now() };
      } catch {
        // A login that may not read the catalog views: DEX_ROW_TS, as without Change Tracking.
        cached = { status: { company, database: false, tables: new Map(), minValidVersions: new Map() }, at: Date.now() };
      }
      this.ctStatus.set(company, cached);
    }
    const { status } = cached;
    if (!status.database || !tracked.sources.every((s) => status.tables.get(s.table) === true)) return false;
    return since === undefined || tracked.sources.every((s) => BigInt(status.minValidVersions.get(s.table) ?? '0') <= BigInt(since));
  }

  private async currentVersion(company: string, signal?: AbortSignal): Promise<string> {
    const [row] = await this.executor.query(company, currentVersionQuery(company), signal);
    return String(row?.[0] ?? '0');
  }

  /** Whether the object of the company has been learnt (its first poll ran, in this process or one before it). */
  knows(company: string, tracked: Tracked): boolean {
    if (isValueTracked(tracked)) return this.values.knows(company, tracked);
    return this.stateOf(company, tracked) !== null;
  }

  private stateOf(company: string, tracked: TrackedObject): ObjectState | null {
    const stateKey = `${company}/${tracked.object}`;
    let state = this.states.get(stateKey) ?? null;
    if (!state) {
      state = this.store.load(company, tracked.object, shapeOf(tracked, this.rangeRows));
      if (state) this.states.set(stateKey, state);
    }
    return state;
  }

  async poll(company: string, tracked: Tracked, signal?: AbortSignal): Promise<Detected> {
    if (isValueTracked(tracked)) return this.values.poll(company, tracked, signal);
    const stateKey = `${company}/${tracked.object}`;
    const shape = shapeOf(tracked, this.rangeRows);
    const state = this.stateOf(company, tracked);
    if (!state) {
      // The version first, then the rows: a change between the two is read again from Change Tracking, and found the same.
      const ctVersion = (await this.trackedByChangeTracking(company, tracked, undefined, signal))
        ? await this.currentVersion(company, signal)
        : undefined;
      const learnt = await this.learn(company, tracked, signal);
      if (ctVersion !== undefined) learnt.ctVersion = ctVersion;
      return {
        changes: [],
        commit: () => {
          this.store.replace(company, tracked.object, shape, learnt);
          this.states.set(stateKey, learnt);
        },
      };
    }

    // What this poll found, applied to the state at commit: identity → the row now, or null (deleted).
    const found = new Map<string, Known | null>();
    const kinds = new Map<string, 'created' | 'updated'>();
    const dialect = this.executor.dialect;
    const current = (id: string) => (found.has(id) ? found.get(id)! : (state.known.get(id) ?? null));
    const seen = (id: string, key: Key, source: number, ts: string, rowId: number, range: number | null) => {
      const before = current(id);
      // A record found in another table than before (posted, moved to history) is in none of this table's ranges yet.
      const placed = range ?? (before?.source === source ? before.range : null);
      found.set(id, { id, key, source, ts, rowId, range: placed });
      if (!before) kinds.set(id, 'created');
      else if ((before.ts !== ts || before.source !== source) && !kinds.has(id)) kinds.set(id, 'updated');
    };

    const polls = state.polls + 1;
    const watermarks = [...state.watermarks];
    const missing: { id: string; source: number }[] = [];
    let nextRanges = [...state.nextRanges];
    let ctVersion: string | undefined;

    if (state.ctVersion !== undefined && (await this.trackedByChangeTracking(company, tracked, state.ctVersion, signal))) {
      // Change Tracking: every table's changes since the last version read, up to one version for
      // all, so that a document moved in one transaction is seen leaving and arriving in one poll.
      ctVersion = await this.currentVersion(company, signal);
      const identities = this.identitiesByKey(company, tracked, state);
      for (const [index, source] of tracked.sources.entries()) {
        const query = trackedChangesQuery(dialect, company, source, state.ctVersion, ctVersion);
        for (const raw of await this.executor.query(company, query, signal)) {
          const [, operation, created] = raw as [unknown, unknown, unknown];
          const rest = raw.slice(3);
          const row = rest[source.key.length + source.idColumns.length] === null ? null : splitRow(source, rest);
          if (row) {
            const stamp = dialect.decodeDateTime(row.ts);
            if (stamp > watermarks[index]!) watermarks[index] = stamp;
            seen(row.id, row.key, index, stamp, row.rowId, null);
            continue;
          }
          // Gone now: a row the agent knew, unless it was created after the last read and deleted since (never reported).
          if (String(operation).trim() === 'D' && created !== null && BigInt(String(created)) > BigInt(state.ctVersion)) continue;
          const key = keyOf(source, rest);
          const id = identities.get(`${index}/${JSON.stringify(key)}`);
          if (id !== undefined && current(id)?.source === index) missing.push({ id, source: index });
        }
      }
    } else {
      // Rows stamped since each table's watermark, less the overlap; history tables only on their turn.
      if (await this.trackedByChangeTracking(company, tracked, undefined, signal))
        // Turned on since the object was learnt, or its changes since the last read purged: from the
        // version now on, changes come from Change Tracking (what this poll's scan and ranges miss of
        // the time before stays missed: docs/decisions.md#change-tracking).
        ctVersion = await this.currentVersion(company, signal);
      const scanned = new Set<number>();
      const scan = async (index: number) => {
        scanned.add(index);
        const source = tracked.sources[index]!;
        const since = new Date(Date.parse(isoOf(state.watermarks[index] ?? NEVER)) - this.overlapMs).toISOString();
        for (const raw of await this.executor.query(company, changedSinceQuery(dialect, company, source, since), signal)) {
          const row = splitRow(source, raw);
          if (!row) continue;
          const stamp = dialect.decodeDateTime(row.ts);
          if (stamp > watermarks[index]!) watermarks[index] = stamp;
          seen(row.id, row.key, index, stamp, row.rowId, null);
        }
      };
      for (const [index, source] of tracked.sources.entries()) if (!source.history || polls % this.historyEvery === 0) await scan(index);

      // A few key ranges of the tables scanned, each table's in turn. A row found by its stamp but not
      // yet placed in a range counts in none, so the range that holds it differs from what the agent
      // expects and is read: that places it.
      const active = [...scanned];
      const perSource = Math.max(1, Math.ceil(this.rangesPerPoll / active.length));
      nextRanges = [...state.nextRanges];
      const picked: { source: number; range: number }[] = [];
      for (const index of active) {
        const count = state.bounds[index]!.length;
        const take = Math.min(perSource, count);
        for (let n = 0; n < take; n++) picked.push({ source: index, range: (state.nextRanges[index]! + n) % count });
        nextRanges[index] = (state.nextRanges[index]! + take) % count;
      }
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
          if (!read) continue;
          present.add(read.id);
          const stamp = dialect.decodeDateTime(read.ts);
          if (stamp > watermarks[index]!) watermarks[index] = stamp;
          seen(read.id, read.key, index, stamp, read.rowId, r);
        }
        for (const id of members) if (!present.has(id) && current(id)!.source === index) missing.push({ id, source: index });
      }

      // Gone from its range: deleted, unless it is now in another table (a document posted or moved to
      // history). The object's tables not scanned this poll are scanned now to tell the two apart.
      if (missing.length && tracked.sources.length > 1)
        for (const index of tracked.sources.keys()) if (!scanned.has(index)) await scan(index);
    }
    const deleted: Change[] = [];
    for (const { id, source } of missing) {
      const gone = current(id)!;
      if (gone.source !== source) continue;
      found.set(id, null);
      kinds.delete(id);
      deleted.push({ kind: 'deleted', id: gone.id, version: gone.ts, changedAt: new Date().toISOString(), record: null });
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
        const next: ObjectState = { ...state, watermarks, nextRanges, polls, ...(ctVersion !== undefined && { ctVersion }) };
        this.store.apply(company, tracked.object, shape, found, next);
        const identities = this.byKey.get(`${company}/${tracked.object}`);
        for (const [id, row] of found) {
          const before = state.known.get(id);
          if (before) identities?.delete(`${before.source}/${JSON.stringify(before.key)}`);
          if (row) state.known.set(id, row);
          else state.known.delete(id);
          if (row) identities?.set(`${row.source}/${JSON.stringify(row.key)}`, id);
        }
        Object.assign(state, next);
      },
    };
  }

  /** Every known row's identity by its table and key, built once per object and kept up to date at commit. */
  private identitiesByKey(company: string, tracked: TrackedObject, state: ObjectState): Map<string, string> {
    const at = `${company}/${tracked.object}`;
    let identities = this.byKey.get(at);
    if (!identities) {
      identities = new Map([...state.known].map(([id, k]) => [`${k.source}/${JSON.stringify(k.key)}`, id]));
      this.byKey.set(at, identities);
    }
    return identities;
  }

  /** The first reading of an object's tables: every key with its stamp, cut into ranges of `rangeRows` in the database's key order. */
  private async learn(company: string, tracked: TrackedObject, signal?: AbortSignal): Promise<ObjectState> {
    const state: ObjectState = { known: new Map(), bounds: [], watermarks: [], nextRanges: [], polls: 0 };
    for (const [index, source] of tracked.sources.entries()) {
      const bounds: (Key | null)[] = [null];
      let watermark = NEVER;
      const rows = await this.executor.query(
        company,
        rangeRowsQuery(this.executor.dialect, company, source, { lo: null, hi: null }),
        signal,
      );
      rows.forEach((raw, i) => {
        const row = splitRow(source, raw);
        if (i > 0 && i % this.rangeRows === 0 && row) bounds.push(row.key);
        if (!row) return;
        const stamp = this.executor.dialect.decodeDateTime(row.ts);
        if (stamp > watermark) watermark = stamp;
        state.known.set(row.id, { id: row.id, key: row.key, source: index, ts: stamp, rowId: row.rowId, range: bounds.length - 1 });
      });
      state.bounds.push(bounds);
      state.watermarks.push(watermark);
      state.nextRanges.push(0);
    }
    return state;
  }
}
