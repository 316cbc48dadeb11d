/**
 * The few `node:sqlite` types nodeSqliteDatabase.ts uses. The workspace's @types/node is Node 20's
 * (the oldest Node the repository runs on), which has no `node:sqlite`; the single-file agent runs
 * on the Node 22 it embeds, which has.
 */
export interface StatementSync {
  setReturnArrays(on: boolean): void;
  setReadBigInts(on: boolean): void;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}
