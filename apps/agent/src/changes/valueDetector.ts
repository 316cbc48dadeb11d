import { createHash } from 'node:crypto';
import type { Change } from '@gp-gateway/protocol';
import type { Executor } from '../db/executor.ts';
import type { Dialect } from '../sql/dialect.ts';
import type { Detected, RecordReader } from './detected.ts';
import type { DetectionStateStore, Key, Known, ObjectState } from './detectionState.ts';
import type { ValueTrackedObject } from './valueTracked.ts';
import { parentStampedQuery, valueRowsQuery } from './valueStatements.ts';

const NEVER = '1900-01-01 00:00:00.000';
const isoOf = (ts: string) => `${ts.replace(' ', 'T')}Z`;

/** A row as read: its key, API id, digest of its compared values, its parent's DEX_ROW_TS (null: none), DEX_ROW_ID. */
interface Row {
  identity: string;
  key: Key;
  id: string;
  digest: string;
  parentTs: string | null;
  rowId: number;
}

export interface ValueDetectorOptions {
  executor: Executor;
  read: RecordReader;
  store: DetectionStateStore;
  overlapMs: number;
  /** A table with a parent is read whole every this many polls (and found through its parent's stamp between). */
  sweepEvery: number;
}

/**
 * Detection for tables without DEX_ROW_TS (docs/decisions.md#change-detection-without-dex_row_ts):
 * rows are compared by a digest of their values with what the agent knows, so a row is `created`
 * when its key is new, `updated` when its values differ, `deleted` when it is gone; a row read again
 * with the same values is nothing, so neither a parent's own change nor an overlap repeats an event.
 * Versions are the same from every agent that finds the change: the parent's DEX_ROW_TS as read
 * with the changed row (GP's trigger stamps it in the same statement), or, without a parent, the row's
 * DEX_ROW_ID with the digests before and after (a transition, so a value that comes back is a new
 * change). Known rows are keyed by the table's key (a batch number may be under two sources).
 */
export class ValueDetector {
  private readonly o: ValueDetectorOptions;
  private readonly states = new Map<string, ObjectState>();

  constructor(options: ValueDetectorOptions) {
    this.o = options;
  }

  knows(company: string, tracked: ValueTrackedObject): boolean {
    return this.stateOf(company, tracked) !== null;
  }

  async poll(company: string, tracked: ValueTrackedObject, signal?: AbortSignal): Promise<Detected> {
    const shape = shapeOf(tracked);
    const state = this.stateOf(company, tracked);
    const dialect = this.o.executor.dialect;
    if (!state) {
      const learnt: ObjectState = { known: new Map(), bounds: [[null]], watermarks: [NEVER], nextRanges: [0], polls: 0 };
      for (const row of await this.rows(company, tracked, signal)) {
        learnt.known.set(row.identity, knownOf(row, versionOf(row, undefined)));
        if (row.parentTs && row.parentTs > learnt.watermarks[0]!) learnt.watermarks[0] = row.parentTs;
      }
      return {
        changes: [],
        commit: () => {
          this.o.store.replace(company, tracked.object, shape, learnt);
          this.states.set(`${company}/${tracked.object}`, learnt);
        },
      };
    }

    const polls = state.polls + 1;
    let watermark = state.watermarks[0] ?? NEVER;
    // The rows read now, and the known rows they stand for: whole table, or those of the parents stamped since the watermark.
    let read: Row[];
    let covers: (known: Known) => boolean;
    if (tracked.parent && polls % this.o.sweepEvery !== 0) {
      const since = new Date(Date.parse(isoOf(watermark)) - this.o.overlapMs).toISOString();
      const raw = await this.o.executor.query(company, parentStampedQuery(dialect, company, tracked, since), signal);
      const parents = new Set<string>();
      read = [];
      for (const r of raw) {
        const parentTs = dialect.decodeDateTime(r[1]);
        if (parentTs > watermark) watermark = parentTs;
        parents.add(String(r[0]));
        const row = this.rowOf(tracked, r.slice(2));
        if (row) read.push(row);
      }
      covers = (known) => parents.has(String(known.key[0]));
    } else {
      read = await this.rows(company, tracked, signal);
      for (const row of read) if (row.parentTs && row.parentTs > watermark) watermark = row.parentTs;
      covers = () => true;
    }

    const found = new Map<string, Known | null>();
    const kinds = new Map<string, { kind: 'created' | 'updated'; changedAt: string }>();
    const present = new Set<string>();
    for (const row of read) {
      present.add(row.identity);
      const before = state.known.get(row.identity);
      if (before?.digest === row.digest) continue;
      found.set(row.identity, knownOf(row, versionOf(row, before)));
      // When GP changed it: its parent's stamp; without one, when the agent found it (as for a delete).
      kinds.set(row.identity, {
        kind: before ? 'updated' : 'created',
        changedAt: row.parentTs ? isoOf(row.parentTs) : new Date().toISOString(),
      });
    }
    const deleted: Change[] = [];
    for (const [identity, known] of state.known) {
      if (present.has(identity) || !covers(known)) continue;
      found.set(identity, null);
      deleted.push({ kind: 'deleted', id: known.id, version: known.ts, changedAt: new Date().toISOString(), record: null });
    }

    const identities = [...kinds.keys()];
    const ids = [...new Set(identities.map((identity) => found.get(identity)!.id))];
    const records = ids.length ? await this.o.read(company, tracked.object, ids) : new Map<string, Record<string, unknown>>();
    const changes: Change[] = [];
    for (const identity of identities) {
      const now = found.get(identity)!;
      const record = records.get(now.id);
      // Gone since it was read: the next poll finds it deleted.
      if (!record) {
        found.delete(identity);
        continue;
      }
      const { kind, changedAt } = kinds.get(identity)!;
      changes.push({ kind, id: now.id, version: now.ts, changedAt, record });
    }
    changes.push(...deleted);
    return {
      changes,
      commit: () => {
        const next: ObjectState = { ...state, watermarks: [watermark], polls };
        this.o.store.apply(company, tracked.object, shape, found, next);
        for (const [identity, row] of found) {
          if (row) state.known.set(identity, row);
          else state.known.delete(identity);
        }
        Object.assign(state, next);
      },
    };
  }

  private stateOf(company: string, tracked: ValueTrackedObject): ObjectState | null {
    const at = `${company}/${tracked.object}`;
    let state = this.states.get(at) ?? null;
    if (!state) {
      state = this.o.store.load(company, tracked.object, shapeOf(tracked));
      if (state) this.states.set(at, state);
    }
    return state;
  }

  /** Every row of the object. */
  private async rows(company: string, tracked: ValueTrackedObject, signal?: AbortSignal): Promise<Row[]> {
    const rows: Row[] = [];
    const query = valueRowsQuery(this.o.executor.dialect, company, tracked);
    for (const raw of await this.o.executor.query(company, query, signal)) {
      const row = this.rowOf(tracked, raw);
      if (row) rows.push(row);
    }
    return rows;
  }

  /** A row as the statements read it; null for a parent without rows of this table (a LEFT JOIN's NULLs). */
  private rowOf(tracked: ValueTrackedObject, raw: readonly unknown[]): Row | null {
    const dialect = this.o.executor.dialect;
    const keyEnd = tracked.key.length;
    const idEnd = keyEnd + tracked.idColumns.length;
    const valuesEnd = idEnd + tracked.values.length;
    if (raw[0] === null || raw[0] === undefined) return null;
    const key = raw.slice(0, keyEnd).map((v, i) => (tracked.key[i]!.type.kind === 'int' ? Number(v) : String(v)));
    const values = raw.slice(idEnd, valuesEnd).map((v, i) => normalised(tracked.values[i]!.type.kind, v, dialect));
    const stamp = raw[valuesEnd];
    return {
      identity: JSON.stringify(key),
      key,
      id: tracked.idOf(raw.slice(keyEnd, idEnd)),
      digest: createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 16),
      parentTs: stamp === null || stamp === undefined ? null : dialect.decodeDateTime(stamp),
      rowId: Number(raw[valuesEnd + 1]),
    };
  }
}

/** A value as both dialects read it alike: amounts as numbers' text (SQLite's CAST keeps GP's scale or not), dates as text. */
function normalised(kind: string, value: unknown, dialect: Pick<Dialect, 'decodeDateTime'>): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'numeric') return String(Number(value));
  if (kind === 'datetime') return dialect.decodeDateTime(value);
  if (kind === 'int') return Number(value);
  return String(value);
}

/**
 * The version of a row's change: its parent's stamp as read with it (what every agent reads for the
 * same change); without a parent, its DEX_ROW_ID and the digests before and after.
 */
function versionOf(row: Row, before: Known | undefined): string {
  if (row.parentTs !== null) return row.parentTs;
  return `${row.rowId}:${before?.digest ?? ''}>${row.digest}`;
}

const knownOf = (row: Row, version: string): Known => ({
  id: row.id,
  key: row.key,
  source: 0,
  ts: version,
  rowId: row.rowId,
  range: null,
  digest: row.digest,
});

function shapeOf(tracked: ValueTrackedObject): string {
  return JSON.stringify([
    'values',
    tracked.table,
    tracked.key.map((k) => k.column),
    tracked.idColumns.map((c) => c.column),
    tracked.only,
    tracked.values.map((c) => c.column),
    tracked.parent,
  ]);
}
