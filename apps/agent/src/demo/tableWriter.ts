/**
 * Inserts GP rows through one prepared statement per table, applying the SQLite encoding
 * contract: char values are padded, omitted columns get GP's bound defaults, money must already
 * be a scaled BigInt (a JS number here would mean a float slipped into a money path).
 */
import type Database from 'better-sqlite3';
import { DEX_ROW_ID, DEX_ROW_TS } from '../gp/tables.ts';
import type { GpColumn, GpTable } from '../gp/tables.ts';
import { GP_EMPTY_DATE, padChar } from '../gp/sqliteValues.ts';

export type GpValue = string | number | bigint;
/** Omitted or undefined columns get GP's bound default (blank, 0, 1900-01-01). */
export type GpRow = Readonly<Record<string, GpValue | undefined>>;

export interface TableWriter {
  readonly table: GpTable;
  insert(row: GpRow): void;
  readonly rowCount: number;
}

export function createTableWriter(db: Database.Database, table: GpTable): TableWriter {
  const columns = table.columns.filter((c) => c.name !== DEX_ROW_ID);
  const known = new Set(columns.map((c) => c.name));
  const statement = db.prepare(
    `INSERT INTO "${table.name}" (${columns.map((c) => `"${c.name}"`).join(', ')}) ` +
      `VALUES (${columns.map(() => '?').join(', ')})`,
  );
  let rowCount = 0;
  return {
    table,
    get rowCount() {
      return rowCount;
    },
    insert(row) {
      for (const name in row) {
        // Rows for a sibling table (GL20000/GL30000) may name the other's year column as undefined.
        if (!known.has(name) && row[name] !== undefined) throw new Error(`${table.name} has no column ${name}`);
      }
      statement.run(columns.map((column) => encode(table, column, row[column.name])));
      rowCount++;
    },
  };
}

function encode(table: GpTable, column: GpColumn, value: GpValue | undefined): GpValue {
  const where = `${table.name}.${column.name}`;
  switch (column.type) {
    case 'char':
      if (value === undefined) return padChar('', column.length ?? 0);
      if (typeof value !== 'string') throw new TypeError(`${where} expects a string`);
      return padChar(value, column.length ?? 0);
    case 'numeric':
      if (value === undefined) return 0n;
      if (typeof value !== 'bigint') throw new TypeError(`${where} expects a scaled bigint`);
      return value;
    case 'datetime':
      // Generated data must carry its own timestamps; a DEFAULT of 'now' would break determinism.
      if (value === undefined && column.name === DEX_ROW_TS) throw new Error(`${where} is required`);
      if (value === undefined) return GP_EMPTY_DATE;
      if (typeof value !== 'string') throw new TypeError(`${where} expects GP datetime text`);
      return value;
    default:
      if (value === undefined) return 0;
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new TypeError(`${where} expects an integer`);
      return value;
  }
}
