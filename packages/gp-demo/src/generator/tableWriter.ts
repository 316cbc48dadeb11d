/**
 * Inserts GP rows through prepared statements, applying the SQLite encoding contract: char values
 * are padded (too long is an error), omitted columns get GP's bound defaults, money must already
 * be a scaled BigInt (a JS number here would mean a float slipped into a money path), datetimes
 * must have GP's shape. It is the load's only guard: the build runs with CHECK constraints off.
 */
import type Database from 'better-sqlite3';
import { DEX_ROW_ID, DEX_ROW_TS, GP_EMPTY_DATE, padChar, type GpColumn, type GpTable } from '@gp-gateway/gp-schema';

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
  const byName = new Map(columns.map((c) => [c.name, c]));
  // Omitted columns are left to the DDL's DEFAULTs, which are exactly GP's bound defaults that
  // encode() would produce (blanks, 0, 1900-01-01), so binding only the given columns stores the
  // same row at a fraction of the cost for wide tables. One statement per set of given columns.
  const statements = new Map<string, { statement: Database.Statement; columns: GpColumn[] }>();
  const statementFor = (names: string[]) => {
    const key = names.join(',');
    let entry = statements.get(key);
    if (!entry) {
      const given = names.map((name) => byName.get(name) as GpColumn);
      for (const column of columns) {
        // Generated data must carry its own timestamps; a DEFAULT of 'now' would break determinism.
        if (column.name === DEX_ROW_TS && !names.includes(DEX_ROW_TS)) throw new Error(`${table.name}.${DEX_ROW_TS} is required`);
      }
      // DEX_ROW_ID last: numbered here, in insert order, as GP's IDENTITY(1,1) numbers rows.
      const quoted = [...given.map((c) => `"${c.name}"`), `"${DEX_ROW_ID}"`];
      const sql = `INSERT INTO "${table.name}" (${quoted.join(', ')}) VALUES (${quoted.map(() => '?').join(', ')})`;
      entry = { statement: db.prepare(sql), columns: given };
      statements.set(key, entry);
    }
    return entry;
  };
  let rowCount = 0;
  // DEX_ROW_ID is an ordinary column (sqliteSchema.ts): the next number follows the table's rows.
  let lastRowId = Number(db.prepare(`SELECT coalesce(max(rowid), 0) FROM "${table.name}"`).pluck().get());
  // Consecutive rows from one generator nearly always give the same columns: reuse the last
  // statement when they do, without building a key.
  let lastNames: string[] = [];
  let last: { statement: Database.Statement; columns: GpColumn[] } | undefined;
  return {
    table,
    get rowCount() {
      return rowCount;
    },
    insert(row) {
      let same = last !== undefined;
      let given = 0;
      for (const name in row) {
        if (row[name] === undefined) continue;
        if (same && lastNames[given] !== name) same = false;
        given++;
      }
      if (!same || given !== lastNames.length) {
        const names: string[] = [];
        for (const name in row) {
          if (row[name] === undefined) continue;
          // Rows for a sibling table (GL20000/GL30000) may name the other's year column as undefined.
          if (!byName.has(name)) throw new Error(`${table.name} has no column ${name}`);
          names.push(name);
        }
        last = statementFor(names);
        lastNames = names;
      }
      const entry = last as { statement: Database.Statement; columns: GpColumn[] };
      const values = new Array<GpValue>(entry.columns.length + 1);
      for (let i = 0; i < entry.columns.length; i++) {
        const column = entry.columns[i] as GpColumn;
        values[i] = encode(table, column, row[column.name]);
      }
      values[entry.columns.length] = ++lastRowId;
      entry.statement.run(values);
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
      // The bulk load runs with CHECK constraints off, so the shape is checked here (cheaply).
      if (typeof value !== 'string' || !isGpDatetime(value))
        throw new TypeError(`${where} expects GP datetime text, got ${JSON.stringify(value)}`);
      return value;
    default:
      if (value === undefined) return 0;
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new TypeError(`${where} expects an integer`);
      return value;
  }
}

/** 'YYYY-MM-DD HH:MM:SS.SSS', checked by position rather than by regex (this runs for every date). */
function isGpDatetime(value: string): boolean {
  return (
    value.length === 23 &&
    value.charCodeAt(4) === 45 &&
    value.charCodeAt(7) === 45 &&
    value.charCodeAt(10) === 32 &&
    value.charCodeAt(13) === 58 &&
    value.charCodeAt(16) === 58 &&
    value.charCodeAt(19) === 46
  );
}
