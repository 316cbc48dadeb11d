import { sql, type Kysely } from 'kysely';
import type { EngineKind } from './engine.ts';

/**
 * Column types that differ between the engines. Times are ISO-8601 text in SQLite and timestamptz in
 * PostgreSQL; JSON is text and jsonb; bytes BLOB and bytea. A row id that counts up is SQLite's
 * `INTEGER PRIMARY KEY AUTOINCREMENT` and PostgreSQL's identity; PostgreSQL's tables also have a `seq`
 * identity that orders rows made in the same millisecond, as SQLite's rowid does.
 */
export function columnTypes(kind: EngineKind) {
  const postgres = kind === 'postgres';
  return {
    postgres,
    time: postgres ? sql`timestamptz` : sql`text`,
    json: postgres ? sql`jsonb` : sql`text`,
    bytes: postgres ? sql`bytea` : sql`blob`,
    bigint: postgres ? sql`bigint` : sql`integer`,
  };
}

/** The database as migrations see it: untyped, since each step sees the tables as they were then. */
export type Db = Kysely<any>;
