/**
 * The part of better-sqlite3's API the agent uses (db/sqliteDatabases.ts), over Node's built-in
 * `node:sqlite`. The single-file agent is bundled with `better-sqlite3` pointing here, so that the
 * demo database works without a native module (docs/decisions.md#the-agent-as-one-program). Only
 * reading is needed: open, prepare, all / iterate / get (as objects or as arrays), a pragma, close.
 */
import type { DatabaseSync as NodeDatabase, StatementSync as NodeStatement } from './nodeSqliteTypes.ts';

type NodeSqlite = { DatabaseSync: new (file: string, options: { readOnly: boolean; open: boolean }) => NodeDatabase };
let nodeSqlite: NodeSqlite | null = null;

/**
 * `node:sqlite` warns once that it is experimental; that line would land in every service log on
 * every start, so it is dropped here, and only that one.
 */
function loadNodeSqlite(): NodeSqlite {
  if (nodeSqlite) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (/SQLite is an experimental feature/.test(String(warning))) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    nodeSqlite = (process as unknown as { getBuiltinModule(id: string): NodeSqlite }).getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqlite;
}

class Statement {
  constructor(private readonly statement: NodeStatement) {}

  raw(on = true): this {
    this.statement.setReturnArrays(on);
    return this;
  }

  safeIntegers(on = true): this {
    this.statement.setReadBigInts(on);
    return this;
  }

  all(...params: unknown[]): unknown[] {
    return this.statement.all(...params);
  }

  get(...params: unknown[]): unknown {
    return this.statement.get(...params);
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.statement.iterate(...params);
  }
}

export default class Database {
  private readonly db: NodeDatabase;

  constructor(file: string, options: { readonly?: boolean; fileMustExist?: boolean } = {}) {
    // node:sqlite opens read-only files only if they exist, and read-write ones creating them; the
    // agent always opens existing files (sqliteDatabases.ts checks first).
    this.db = new (loadNodeSqlite().DatabaseSync)(file, { readOnly: options.readonly ?? false, open: true });
  }

  prepare(sql: string): Statement {
    return new Statement(this.db.prepare(sql));
  }

  pragma(text: string): void {
    this.db.exec(`PRAGMA ${text}`);
  }

  exec(sql: string): this {
    this.db.exec(sql);
    return this;
  }

  close(): void {
    this.db.close();
  }
}
