/**
 * Renders a GpTable as SQLite DDL following the encoding contract below. The statements come in
 * three groups so a bulk loader can create tables, load, and only then build indexes and triggers
 * (faster, and triggers must not rewrite generated timestamps).
 *
 * SQLite encoding contract (other code relies on it; helpers live in sqliteValues.ts):
 *
 * - DEX_ROW_ID is `INTEGER PRIMARY KEY AUTOINCREMENT`: a rowid alias, so keyset paging on it is an
 *   index seek, and AUTOINCREMENT so ids are never reused, like GP's IDENTITY(1,1). GP's own primary
 *   key becomes a UNIQUE index named PK<table> (none when GP's key is DEX_ROW_ID, as in GL20000).
 * - char(n) is `TEXT NOT NULL COLLATE NOCASE`, always exactly n characters, right-padded with spaces
 *   the way SQL Server stores char(n); empty is n spaces. As in SQL Server, a longer value is an
 *   error (CHECK) and a shorter one is padded on write (zPAD_<table>I/U triggers), so the invariant
 *   holds for rows anyone inserts. NOCASE stands in for GP's case-insensitive collation (ASCII
 *   only). SQLite, unlike SQL Server, does not ignore trailing blanks in `=` or IN, so a reader
 *   must padChar() every bound key or literal it compares with (SOURCDOC IN ('BBF', 'P/L') matches
 *   nothing; padded values do); sorting padded values gives SQL Server's blank-padded order.
 * - numeric(19,5) is `INTEGER NOT NULL` holding the exact value times 100000 (1250.5 is 125050000).
 *   No money value may pass through a JS float: write BigInt from toScaled(), read with
 *   better-sqlite3's safeIntegers() and scaledToDecimalString(). A CHECK rejects non-integers.
 *   The int64 range caps values at ±92,233,720,368,547.75807, below numeric(19,5)'s own limit.
 * - int, smallint and tinyint are `INTEGER NOT NULL`. Flags are 0/1; percents are hundredths.
 * - datetime is TEXT 'YYYY-MM-DD HH:MM:SS.SSS' (a CHECK enforces the shape). Date-only columns have
 *   time 00:00:00.000 and an empty date is '1900-01-01 00:00:00.000' (GP_EMPTY_DATE).
 * - Every column but DEX_ROW_ID (assigned) and DEX_ROW_TS (now) is NOT NULL with GP's bound default
 *   (GPS_CHAR blanks, 0, 1900-01-01), so a test may insert a row naming only the columns it cares
 *   about.
 * - DEX_ROW_TS, where GP has it, is UTC with real milliseconds, defaults to the current UTC time,
 *   and an AFTER UPDATE trigger (named after GP's zDT_<table>U) sets it to now unless the UPDATE
 *   itself changed it. Padding a short char value is such an update, after an INSERT too, so write
 *   padded values when setting DEX_ROW_TS explicitly. Tables with `bumpsParentRowTs` also bump the
 *   parent's DEX_ROW_TS on insert, update and delete, as GP's RM00102 triggers bump RM00101.
 */
import { DEX_ROW_ID, DEX_ROW_TS } from './gpTable.ts';
import type { GpColumn, GpTable } from './gpTable.ts';
import { GP_EMPTY_DATE } from './sqliteValues.ts';

/** Current UTC time in the DEX_ROW_TS encoding ('%f' is seconds with milliseconds). */
export const SQLITE_NOW_UTC = "strftime('%Y-%m-%d %H:%M:%f','now')";

const DATETIME_SHAPE = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]';

/** CREATE TABLE, then CREATE INDEX, then CREATE TRIGGER statements. */
export function sqliteDdl(table: GpTable): string[] {
  return [sqliteCreateTable(table), ...sqliteCreateIndexes(table), ...sqliteCreateTriggers(table)];
}

export function sqliteCreateTable(table: GpTable): string {
  const lines = table.columns.map((column, i) => {
    const separator = i < table.columns.length - 1 ? ',' : '';
    return `  ${columnDefinition(column)}${separator} -- ${gpTypeName(column)}`;
  });
  return `CREATE TABLE ${q(table.name)} (\n${lines.join('\n')}\n)`;
}

export function sqliteCreateIndexes(table: GpTable): string[] {
  const statements: string[] = [];
  const isRowIdKey = table.primaryKey.length === 1 && table.primaryKey[0] === DEX_ROW_ID;
  if (!isRowIdKey) {
    statements.push(`CREATE UNIQUE INDEX ${q(`PK${table.name}`)} ON ${q(table.name)} (${columnList(table.primaryKey)})`);
  }
  const indexes = [...(table.hasRowTs ? [[DEX_ROW_TS]] : []), ...(table.indexes ?? [])];
  for (const columns of indexes) {
    statements.push(`CREATE INDEX ${q(`IX_${table.name}_${columns.join('_')}`)} ON ${q(table.name)} (${columnList(columns)})`);
  }
  return statements;
}

/**
 * Every trigger's write makes its own condition false: the DEX_ROW_TS updates guard with
 * `DEX_ROW_TS <> now` and the pad triggers fire only while a value is short, so even with PRAGMA
 * recursive_triggers=ON no trigger fires itself into a loop: the second pass finds nothing to change.
 */
export function sqliteCreateTriggers(table: GpTable): string[] {
  const statements: string[] = [...padTriggers(table)];
  if (table.hasRowTs) {
    // An UPDATE that changes DEX_ROW_TS itself keeps its value; any other UPDATE stamps now.
    statements.push(
      `CREATE TRIGGER ${q(`zDT_${table.name}U`)} AFTER UPDATE ON ${q(table.name)} FOR EACH ROW\n` +
        `WHEN NEW.${q(DEX_ROW_TS)} IS OLD.${q(DEX_ROW_TS)}\n` +
        `BEGIN\n  ${touchRows(table.name, `${q(DEX_ROW_ID)} = NEW.${q(DEX_ROW_ID)}`)};\nEND`,
    );
  }
  const parent = table.bumpsParentRowTs;
  if (parent) {
    const keyOf = (row: 'NEW' | 'OLD') => `(${parent.key.map((c) => `${q(parent.table)}.${q(c)} = ${row}.${q(c)}`).join(' AND ')})`;
    const triggerName = (event: string) => q(`zDT_${table.name}_${parent.table}${event}`);
    const touchParent = (where: string) => `BEGIN\n  ${touchRows(parent.table, where)};\nEND`;
    statements.push(
      `CREATE TRIGGER ${triggerName('I')} AFTER INSERT ON ${q(table.name)} FOR EACH ROW\n${touchParent(keyOf('NEW'))}`,
      `CREATE TRIGGER ${triggerName('U')} AFTER UPDATE ON ${q(table.name)} FOR EACH ROW\n` +
        touchParent(`(${keyOf('NEW')} OR ${keyOf('OLD')})`),
      `CREATE TRIGGER ${triggerName('D')} AFTER DELETE ON ${q(table.name)} FOR EACH ROW\n${touchParent(keyOf('OLD'))}`,
    );
  }
  return statements;
}

/**
 * SQL Server stores a short value in char(n) blank-padded; these triggers give SQLite the same
 * behaviour for rows written by anyone (e.g. a test inserting 'GJ' into SOURCDOC), so a reader can
 * rely on every stored char value being exactly n characters. The WHEN clause makes them no-ops for
 * rows that are already padded, which is every row the demo generator writes.
 */
function padTriggers(table: GpTable): string[] {
  const chars = table.columns.filter((c) => c.type === 'char').map((c) => ({ name: q(c.name), length: charLength(c) }));
  if (chars.length === 0) return [];
  const isShort = chars.map((c) => `length(NEW.${c.name}) < ${c.length}`).join(' OR ');
  const assignments = chars.map((c) => `${c.name} = substr(${c.name} || '${' '.repeat(c.length)}', 1, ${c.length})`).join(', ');
  const body = `BEGIN\n  UPDATE ${q(table.name)} SET ${assignments} WHERE ${q(DEX_ROW_ID)} = NEW.${q(DEX_ROW_ID)};\nEND`;
  return (['INSERT', 'UPDATE'] as const).map(
    (event) =>
      `CREATE TRIGGER ${q(`zPAD_${table.name}${event[0]}`)} AFTER ${event} ON ${q(table.name)} FOR EACH ROW\nWHEN ${isShort}\n${body}`,
  );
}

function touchRows(tableName: string, where: string): string {
  return `UPDATE ${q(tableName)} SET ${q(DEX_ROW_TS)} = ${SQLITE_NOW_UTC} ` + `WHERE ${where} AND ${q(DEX_ROW_TS)} <> ${SQLITE_NOW_UTC}`;
}

function columnDefinition(column: GpColumn): string {
  const name = q(column.name);
  if (column.name === DEX_ROW_ID) return `${name} INTEGER PRIMARY KEY AUTOINCREMENT`;
  if (column.name === DEX_ROW_TS) {
    return `${name} TEXT NOT NULL DEFAULT (${SQLITE_NOW_UTC}) CHECK (${name} GLOB '${DATETIME_SHAPE}')`;
  }
  switch (column.type) {
    case 'char': {
      const length = charLength(column);
      // <= rather than =: short values are padded by the zPAD_ triggers, as SQL Server pads char(n).
      return `${name} TEXT NOT NULL COLLATE NOCASE DEFAULT '${' '.repeat(length)}' CHECK (length(${name}) <= ${length})`;
    }
    case 'datetime':
      return `${name} TEXT NOT NULL DEFAULT '${GP_EMPTY_DATE}' CHECK (${name} GLOB '${DATETIME_SHAPE}')`;
    case 'numeric':
    case 'int':
    case 'smallint':
    case 'tinyint':
      return `${name} INTEGER NOT NULL DEFAULT 0 CHECK (typeof(${name}) = 'integer')`;
  }
}

function gpTypeName(column: GpColumn): string {
  if (column.name === DEX_ROW_ID) return 'int IDENTITY(1,1)';
  switch (column.type) {
    case 'char':
      return `char(${charLength(column)}), blank-padded`;
    case 'numeric':
      return 'numeric(19,5), stored x 100000';
    case 'datetime':
      return column.name === DEX_ROW_TS ? 'datetime, UTC' : 'datetime';
    default:
      return column.type;
  }
}

function charLength(column: GpColumn): number {
  if (column.length === undefined || !Number.isInteger(column.length) || column.length < 1) {
    throw new Error(`char column ${column.name} needs a positive integer length`);
  }
  return column.length;
}

function columnList(columns: string[]): string {
  return columns.map(q).join(', ');
}

/** Identifiers come only from the GP_TABLES catalog; quoting keeps names like "ShipToName" exact. */
function q(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
