import type Database from 'better-sqlite3';
import { GP_TABLES, gpDate, padChar, toScaled, type GpColumn, type GpTable, type GpTableName } from '@gp-gateway/gp-schema';
import type { GpWriteValue } from './fieldColumns.ts';
import { preparedOnce } from './preparedStatements.ts';

/** Rows of GP's tables in the embedded database, as the writer inserts and looks them up. */

type Db = Database.Database;

function tableOf(name: string): GpTable {
  const table = (GP_TABLES as Readonly<Record<string, GpTable | undefined>>)[name];
  if (!table) throw new Error(`not a GP table: ${name}`);
  return table;
}

/** A value in the SQLite encoding of its column (sqliteSchema.ts): char padded, numeric scaled, dates as text. */
export function storedValue(column: GpColumn, value: GpWriteValue): unknown {
  switch (column.type) {
    case 'char':
      return padChar(String(value), column.length!);
    case 'numeric':
      return toScaled(String(value));
    case 'datetime':
      return gpDate(String(value).slice(0, 10));
    default:
      return Number(value);
  }
}

function encode(table: GpTable, column: string, value: GpWriteValue): unknown {
  const def = table.columns.find((c) => c.name === column);
  if (!def) throw new Error(`${table.name} has no column ${column}`);
  return storedValue(def, value);
}

export function insert(db: Db, tableName: GpTableName, row: Record<string, GpWriteValue>): void {
  const table = tableOf(tableName);
  const columns = Object.keys(row);
  const sql = `INSERT INTO "${tableName}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  preparedOnce(db, sql).run(...columns.map((c) => encode(table, c, row[c]!)));
}

/** The first row matching every column (values encoded as stored), or undefined. */
export function find(
  db: Db,
  tableName: GpTableName,
  where: Record<string, GpWriteValue>,
  select = '1',
): Record<string, unknown> | undefined {
  const table = tableOf(tableName);
  const columns = Object.keys(where);
  const sql = `SELECT ${select} FROM "${tableName}" WHERE ${columns.map((c) => `"${c}" = ?`).join(' AND ')} LIMIT 1`;
  return preparedOnce(db, sql).get(...columns.map((c) => encode(table, c, where[c]!))) as Record<string, unknown> | undefined;
}

export const exists = (db: Db, table: GpTableName, where: Record<string, GpWriteValue>) => find(db, table, where) !== undefined;
