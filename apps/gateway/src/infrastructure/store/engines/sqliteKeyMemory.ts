import type Database from 'better-sqlite3';
import type { KeyWithConnection } from '../roles/keys.ts';
import type { KeyMemory } from '../sql/engine.ts';
import { frozen } from '../sql/rows.ts';

/** Keys remembered at most; more, and memory starts over. */
const MAX_KEYS_REMEMBERED = 10_000;

/**
 * The embedded store's key memory. Another process that commits to the file (the operator CLI
 * revoking a key) moves SQLite's `PRAGMA data_version`, which this connection reads before answering
 * from memory: 2 us, against a lookup's 6. This process's own changes do not move it; the store says
 * `forget` after each of them. A revoked key therefore fails on its very next request.
 */
export class SqliteKeyMemory implements KeyMemory {
  private readonly found = new Map<string, KeyWithConnection>();
  private readonly dataVersion: Database.Statement;
  private seenVersion = -1;
  private generation = 0;

  constructor(db: Database.Database) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** Forgets everything when another process has committed since the last look. */
  private current(): void {
    const version = this.dataVersion.get() as number;
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.forget();
    }
  }

  get(memoKey: string): KeyWithConnection | undefined {
    this.current();
    return this.found.get(memoKey);
  }

  readStarted(): number {
    this.current();
    return this.generation;
  }

  remember(memoKey: string, value: KeyWithConnection, generation: number): void {
    if (generation !== this.generation) return;
    if (this.found.size >= MAX_KEYS_REMEMBERED) this.found.clear();
    this.found.set(memoKey, frozen(value));
  }

  forget(): void {
    this.generation++;
    this.found.clear();
  }

  async close(): Promise<void> {
    this.found.clear();
  }
}
