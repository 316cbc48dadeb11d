import type Database from 'better-sqlite3';

/** Distinct statements kept per database; past it they are prepared afresh (an insert's text varies with the fields a body sets). */
const MAX_PER_DATABASE = 2_000;

const byDatabase = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * `db.prepare(sql)`, once per connection and text. Preparing afresh was half of the embedded
 * writer's CPU per write (docs/performance.md#writes). A statement kept across a schema change (the
 * journal table created inside a validate-only write, then rolled back) is re-prepared by SQLite
 * itself on its next run. Callers must not change a statement's mode (pluck, raw, expand): it is shared.
 */
export function preparedOnce(db: Database.Database, sql: string): Database.Statement {
  let statements = byDatabase.get(db);
  if (!statements) byDatabase.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= MAX_PER_DATABASE) statements.clear();
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
