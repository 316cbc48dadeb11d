import type { Store } from '../../infrastructure/store/store.ts';

/** An engine the store contract runs on, as store/sqliteStore.test.ts and store/postgresStore.test.ts give it. */
export interface StoreUnderTest {
  /** A store on a new, empty database. */
  fresh(): Promise<Store>;
  /** Two stores on one new database, as two gateway instances (or a gateway and the operator CLI) open it. */
  twoOnOneDatabase(): Promise<[Store, Store]>;
  /**
   * How long a change made through one store may take to show in the other's remembered keys:
   * 0 where it must show on the very next read (SQLite, which asks the file on every read).
   */
  changeHeardWithinMs: number;
}

/** What each role's part of the contract is given; the stores it opens are closed once the contract has run. */
export interface RoleSuite {
  fresh(): Promise<Store>;
  twoOnOne(): Promise<[Store, Store]>;
  changeHeardWithinMs: number;
}

/** A stand-in sha256 (64 hex characters) made of one character, so tests can tell hashes apart at a glance. */
export const hash = (c: string) => c.repeat(64);
