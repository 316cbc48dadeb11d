import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { DatabaseUnavailableError, type Executor } from './executor.ts';

const SYSTEM_DATABASE = 'DYNAMICS';
/** INTERIDs are GP database names: up to 5 letters, digits or underscores. */
const COMPANY_ID = /^[A-Za-z0-9_]{1,5}$/;

export interface SqliteExecutorOptions {
  /** Folder holding DYNAMICS.sqlite and one <INTERID>.sqlite per company. */
  dir: string;
  readonly?: boolean;
}

/**
 * The embedded GP-shaped database. Each GP database is one SQLite file, opened on first use.
 * Statements are prepared once and reused; integers come back as BigInt so that scaled money is
 * exact, and rows as arrays to skip building objects that the decoder would throw away.
 */
export class SqliteExecutor implements Executor {
  readonly dialect = sqliteDialect;
  private readonly dir: string;
  private readonly readonly: boolean;
  private readonly databases = new Map<string, Database.Database>();
  private readonly statements = new Map<string, Database.Statement>();

  constructor(options: SqliteExecutorOptions) {
    this.dir = options.dir;
    this.readonly = options.readonly ?? true;
  }

  async query(company: string | null, query: CompiledQuery): Promise<unknown[][]> {
    return this.querySync(company, query);
  }

  querySync(company: string | null, query: CompiledQuery): unknown[][] {
    const name = company ?? SYSTEM_DATABASE;
    const key = `${name}\u0000${query.sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.database(name).prepare(query.sql).raw(true).safeIntegers(true);
      this.statements.set(key, statement);
    }
    return statement.all(...query.params.map((p) => p.value)) as unknown[][];
  }

  private database(name: string): Database.Database {
    let db = this.databases.get(name);
    if (db) return db;
    if (name !== SYSTEM_DATABASE && !COMPANY_ID.test(name)) throw new DatabaseUnavailableError(`invalid company database name`);
    const file = path.join(this.dir, `${name}.sqlite`);
    if (!fs.existsSync(file)) throw new DatabaseUnavailableError(`database ${name} not found in ${this.dir}`);
    try {
      db = new Database(file, { readonly: this.readonly, fileMustExist: true });
    } catch (error) {
      throw new DatabaseUnavailableError(`cannot open database ${name}: ${(error as Error).message}`);
    }
    db.pragma('query_only = ' + (this.readonly ? 'ON' : 'OFF'));
    this.databases.set(name, db);
    return db;
  }

  async close(): Promise<void> {
    this.statements.clear();
    for (const db of this.databases.values()) db.close();
    this.databases.clear();
  }
}
