import path from 'node:path';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { Param } from '../sql/model.ts';
import { COMPANY_ID, DatabaseUnavailableError, DEMO_GP_VERSION, QueryCancelledError, SYSTEM_DATABASE, TABLE_NAME } from './executor.ts';

export interface SqliteDatabasesOptions {
  /** Folder holding DYNAMICS.sqlite and one <INTERID>.sqlite per company. */
  dir: string;
  /** Opened read-only and query-only (the default); false only for the one writer (writes/sqliteWriter.ts). */
  readonly?: boolean;
}

/**
 * The embedded GP-shaped databases of one folder, for one thread. Each GP database is one SQLite
 * file, opened on first use. Statements are prepared once and reused; integers come back as plain
 * numbers (amounts arrive as exact text, see run), and rows as arrays to skip building objects that
 * the decoder would throw away. Where a query can be cancelled, its rows are stepped one at a time
 * so that it stops between two rows; otherwise they are read in one call.
 */
export class SqliteDatabases {
  private readonly dir: string;
  private readonly readonly: boolean;
  private readonly databases = new Map<string, Database.Database>();
  private readonly statements = new Map<string, Database.Statement>();

  constructor(options: SqliteDatabasesOptions) {
    this.dir = options.dir;
    this.readonly = options.readonly ?? true;
  }

  /**
   * Runs one statement. With `cancelled`, rows are stepped one at a time and `cancelled` is asked
   * before the first row and after each row; without it, they are read in one call (faster).
   */
  run(company: string | null, sql: string, params: readonly Param[], cancelled?: () => boolean): unknown[][] {
    const name = company ?? SYSTEM_DATABASE;
    const key = `${name}\u0000${sql}`;
    let statement = this.statements.get(key);
    if (!statement) {
      // Plain numbers are exact here: amounts arrive as text (the dialect CASTs numeric(19,5)), and
      // GP's int, smallint and tinyint columns are far below 2^53. BigInts per cell would cost time.
      statement = this.database(name).prepare(sql).raw(true).safeIntegers(false);
      this.statements.set(key, statement);
    }
    const values = params.map((p) => p.value);
    if (!cancelled) return statement.all(...values) as unknown[][];
    if (cancelled()) throw new QueryCancelledError();
    const rows: unknown[][] = [];
    const iterator = statement.iterate(...values) as IterableIterator<unknown[]>;
    try {
      for (const row of iterator) {
        rows.push(row);
        if (cancelled()) throw new QueryCancelledError();
      }
    } finally {
      // Leaving the loop early must reset the statement, or it stays busy for its next use.
      iterator.return?.();
    }
    return rows;
  }

  gpVersion(): string {
    const db = this.database(SYSTEM_DATABASE);
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'DU000020'").get();
    if (!table) return DEMO_GP_VERSION;
    const row = db
      .prepare(
        'SELECT versionMajor, versionMinor, versionBuild FROM DU000020 WHERE PRODID = 0 ' +
          'ORDER BY CASE WHEN companyID = -32767 THEN 0 ELSE 1 END, versionMajor DESC, versionMinor DESC, versionBuild DESC LIMIT 1',
      )
      .get() as { versionMajor: number; versionMinor: number; versionBuild: number } | undefined;
    return row ? `${row.versionMajor}.${row.versionMinor}.${row.versionBuild}` : DEMO_GP_VERSION;
  }

  checkReadable(company: string | null, table: string): void {
    if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`);
    const db = this.database(company ?? SYSTEM_DATABASE);
    try {
      db.prepare(`SELECT * FROM "${table}" LIMIT 0`).all();
    } catch (error) {
      throw new DatabaseUnavailableError(`cannot read ${table} in ${company ?? SYSTEM_DATABASE}: ${(error as Error).message}`);
    }
  }

  /** The connection to one GP database (SYSTEM_DATABASE or a checked INTERID), opened on first use: for the writer's transactions. */
  database(name: string): Database.Database {
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
    // The writer waits this long for another writer's lock rather than failing at once.
    if (!this.readonly) db.pragma('busy_timeout = 5000');
    db.pragma('query_only = ' + (this.readonly ? 'ON' : 'OFF'));
    this.databases.set(name, db);
    return db;
  }

  close(): void {
    this.statements.clear();
    for (const db of this.databases.values()) db.close();
    this.databases.clear();
  }
}
