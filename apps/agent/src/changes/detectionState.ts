import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * What change detection knows of one object in one company (docs/decisions.md#change-feed), and the
 * file that keeps it across restarts, so that a restarted agent neither reports again what it
 * reported nor misses what changed while it was down.
 */

/** A key's values, in the table's key order. */
export type Key = readonly (string | number)[];

/**
 * A row the agent has seen, by its identity (the API id; for a table where two rows share an API id,
 * the row's key): the API id, the table it is in (index into the object's sources), its DEX_ROW_TS as
 * read back, its DEX_ROW_ID, and the key range of that table it was last counted in.
 */
export interface Known {
  id: string;
  /** The row's key in its table: what Change Tracking names a deleted row by. */
  key: Key;
  source: number;
  ts: string;
  rowId: number;
  range: number | null;
  /** Of a table compared by value (valueTracked.ts): a digest of its compared values; `ts` is then the version last reported. */
  digest?: string;
}

export interface ObjectState {
  /** By identity, whichever table holds the row: a document keeps its id as posting moves it. */
  known: Map<string, Known>;
  /** Per source table, the lower bounds of its key ranges in the database's key order; the first is null (open below). */
  bounds: (Key | null)[][];
  /** Per source table, the largest DEX_ROW_TS seen in it. */
  watermarks: string[];
  /** Per source table, the next of its ranges to check. */
  nextRanges: number[];
  /** Polls made since the object was learnt: history tables are polled every so many. */
  polls: number;
  /** With Change Tracking: the database version up to which changes were read (a bigint as text). */
  ctVersion?: string;
}

/**
 * Where the state lives. `shape` names the object's tables and keys and the range size as this agent
 * cuts them: a state saved by an agent that tracked the object differently is not used (the object
 * is learnt again, reporting nothing twice, at worst missing what changed while the agent was down).
 */
export interface DetectionStateStore {
  load(company: string, object: string, shape: string): ObjectState | null;
  /** The whole state, after the object was learnt. */
  replace(company: string, object: string, shape: string, state: ObjectState): void;
  /** A committed poll: the rows it found (null: gone) and the object's cursors after it. */
  apply(company: string, object: string, shape: string, found: ReadonlyMap<string, Known | null>, state: ObjectState): void;
  close(): void;
}

/** Nothing kept: a restarted agent learns every table again (tests, and an agent given no folder). */
export const MEMORY_ONLY: DetectionStateStore = { load: () => null, replace() {}, apply() {}, close() {} };

/** The state file in the agent's state folder (GP_AGENT_STATE_DIR). */
export const STATE_FILE_NAME = 'change-detection.sqlite';

/**
 * The state in a SQLite file: each save is one transaction (WAL, synchronous FULL), so a crash or a
 * power cut leaves either the state before a poll or the state after it, never half of one. A save
 * writes only the rows the poll found, so a quiet poll costs one small update.
 */
export class SqliteDetectionState implements DetectionStateStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS objects (company TEXT NOT NULL, object TEXT NOT NULL, shape TEXT NOT NULL, ' +
        'cursor TEXT NOT NULL, PRIMARY KEY (company, object)) WITHOUT ROWID;' +
        'CREATE TABLE IF NOT EXISTS known (company TEXT NOT NULL, object TEXT NOT NULL, identity TEXT NOT NULL, ' +
        'id TEXT NOT NULL, key TEXT NOT NULL, source INTEGER NOT NULL, ts TEXT NOT NULL, row_id INTEGER NOT NULL, range INTEGER, ' +
        'digest TEXT, PRIMARY KEY (company, object, identity)) WITHOUT ROWID;',
    );
    // A file an agent wrote before tables were compared by value: its rows have no digest.
    if (!(this.db.pragma('table_info(known)') as { name: string }[]).some((c) => c.name === 'digest'))
      this.db.exec('ALTER TABLE known ADD COLUMN digest TEXT');
    this.statements = {
      object: this.db.prepare<[string, string], { shape: string; cursor: string }>(
        'SELECT shape, cursor FROM objects WHERE company = ? AND object = ?',
      ),
      known: this.db.prepare<
        [string, string],
        {
          identity: string;
          id: string;
          key: string;
          source: number;
          ts: string;
          row_id: number;
          range: number | null;
          digest: string | null;
        }
      >('SELECT identity, id, key, source, ts, row_id, range, digest FROM known WHERE company = ? AND object = ?'),
      putObject: this.db.prepare('INSERT OR REPLACE INTO objects (company, object, shape, cursor) VALUES (?, ?, ?, ?)'),
      clear: this.db.prepare('DELETE FROM known WHERE company = ? AND object = ?'),
      put: this.db.prepare(
        'INSERT OR REPLACE INTO known (company, object, identity, id, key, source, ts, row_id, range, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      drop: this.db.prepare('DELETE FROM known WHERE company = ? AND object = ? AND identity = ?'),
    };
  }

  load(company: string, object: string, shape: string): ObjectState | null {
    const row = this.statements.object.get(company, object);
    if (!row || row.shape !== shape) return null;
    const cursor = JSON.parse(row.cursor) as Omit<ObjectState, 'known'>;
    const known = new Map<string, Known>();
    for (const k of this.statements.known.iterate(company, object))
      known.set(k.identity, {
        id: k.id,
        key: JSON.parse(k.key) as Key,
        source: k.source,
        ts: k.ts,
        rowId: k.row_id,
        range: k.range,
        ...(k.digest !== null && { digest: k.digest }),
      });
    return { ...cursor, known };
  }

  replace(company: string, object: string, shape: string, state: ObjectState): void {
    this.db.transaction(() => {
      this.statements.clear.run(company, object);
      for (const [identity, k] of state.known) this.put(company, object, identity, k);
      this.putCursor(company, object, shape, state);
    })();
  }

  apply(company: string, object: string, shape: string, found: ReadonlyMap<string, Known | null>, state: ObjectState): void {
    this.db.transaction(() => {
      for (const [identity, k] of found) {
        if (k) this.put(company, object, identity, k);
        else this.statements.drop.run(company, object, identity);
      }
      this.putCursor(company, object, shape, state);
    })();
  }

  close(): void {
    this.db.close();
  }

  private put(company: string, object: string, identity: string, k: Known): void {
    this.statements.put.run(company, object, identity, k.id, JSON.stringify(k.key), k.source, k.ts, k.rowId, k.range, k.digest ?? null);
  }

  private putCursor(company: string, object: string, shape: string, state: ObjectState): void {
    const { bounds, watermarks, nextRanges, polls, ctVersion } = state;
    this.statements.putObject.run(company, object, shape, JSON.stringify({ bounds, watermarks, nextRanges, polls, ctVersion }));
  }
}
