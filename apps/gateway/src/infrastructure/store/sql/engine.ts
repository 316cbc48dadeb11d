import type { Kysely, Transaction } from 'kysely';
import type { KeyWithConnection } from '../roles/keys.ts';
import type { StoreSchema } from './schema.ts';

export type EngineKind = 'sqlite' | 'postgres';

/**
 * Keys found with their connection, remembered while nothing that a key reads as has changed: every
 * API request reads its key, and answering a key seen before from memory saves it a trip to the
 * database. Each engine learns of changes made elsewhere its own way (engines/sqliteKeyMemory.ts,
 * engines/postgresKeyMemory.ts); the store says `forget` after each change of its own.
 */
export interface KeyMemory {
  /** The key remembered under `memoKey`, if what was remembered still stands. */
  get(memoKey: string): KeyWithConnection | undefined;
  /** What `remember` needs from before the read. */
  readStarted(): number;
  /** Remembers a key read since `generation`, unless a change was heard meanwhile. */
  remember(memoKey: string, value: KeyWithConnection, generation: number): void;
  /** A key or connection changed. */
  forget(): void;
  close(): Promise<void>;
}

/** What the one store implementation (sqlStore.ts) needs of the database it runs on. */
export interface StoreEngine {
  kind: EngineKind;
  db: Kysely<StoreSchema>;
  /** The column that orders rows made in the same millisecond: SQLite's rowid, PostgreSQL's `seq`. */
  insertionOrder: 'rowid' | 'seq';
  /**
   * Whether `SELECT … FOR UPDATE` locks rows (PostgreSQL). SQLite has no row locks and needs none:
   * one process's statements run one at a time, and a transaction that writes first holds the file.
   */
  rowLocks: boolean;
  /** Runs `work` in one transaction (again, on PostgreSQL, when it was chosen to break a deadlock). */
  transaction<T>(work: (trx: Transaction<StoreSchema>) => Promise<T>): Promise<T>;
  keys: KeyMemory;
  /** Resolves when the database answers within `timeoutMs` (`/ready`). */
  checkReachable(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}
