/**
 * Renders a GpTable as SQLite DDL following the encoding contract below. The statements come in
 * three groups so a bulk loader can create tables, load, and only then build indexes and triggers
 * (faster, and triggers must not rewrite generated timestamps).
 *
 * SQLite encoding contract (other code relies on it; helpers live in sqliteValues.ts):
 *
 * - The indexes are GP's own, no others (gpIndexes.ts): its primary key becomes a UNIQUE index named
 *   PK<table>, each AK/CL index an index of the same name and columns. SQLite has no clustered
 *   index; GP's few clustered ones become ordinary indexes. So a plan seen here is one SQL Server can
 *   have on GP: a list ordered by something GP does not index scans and sorts here too.
 * - DEX_ROW_ID is, like GP's, an ordinary column (a plain INTEGER, numbered from the table's rowid
 *   by the zID_<table>I trigger when an INSERT leaves it out; the demo writes its own), not the
 *   table's order: it is indexed only where GP indexes it. Where GP's primary key is DEX_ROW_ID
 *   (GL20000, GL30000) it is `INTEGER PRIMARY KEY AUTOINCREMENT`, a rowid alias, which is that key,
 *   and never reused, like an IDENTITY. Elsewhere a deleted last row's number can come again; no
 *   list of those tables pages on DEX_ROW_ID alone.
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
import { createHash } from 'node:crypto';
import { DEX_ROW_ID, DEX_ROW_TS } from './gpTable.ts';
import type { GpColumn, GpTable } from './gpTable.ts';
import { GP_EMPTY_DATE } from './sqliteValues.ts';

/** Current UTC time in the DEX_ROW_TS encoding ('%f' is seconds with milliseconds). */
const SQLITE_NOW_UTC = "strftime('%Y-%m-%d %H:%M:%f','now')";

const DATETIME_SHAPE = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]';

/** CREATE TABLE, then CREATE INDEX, then CREATE TRIGGER statements. */
export function sqliteDdl(table: GpTable): string[] {
  return [sqliteCreateTable(table), ...sqliteCreateIndexes(table), ...sqliteCreateTriggers(table)];
}

export function sqliteCreateTable(table: GpTable): string {
  const lines = table.columns.map((column, i) => {
    const separator = i < table.columns.length - 1 ? ',' : '';
    return `  ${columnDefinition(column, table)}${separator} -- ${gpTypeName(column)}`;
  });
  return `CREATE TABLE ${q(table.name)} (\n${lines.join('\n')}\n)`;
}

export function sqliteCreateIndexes(table: GpTable): string[] {
  const statements: string[] = [];
  for (const index of table.indexes ?? []) {
    if (index.primaryKey && isRowIdKey(table)) continue; // the rowid alias is this key
    const unique = index.unique ? 'UNIQUE ' : '';
    statements.push(`CREATE ${unique}INDEX ${q(index.name)} ON ${q(table.name)} (${columnList(index.columns)})`);
  }
  return statements;
}

/** Whether GP keys the table on DEX_ROW_ID, which SQLite then keeps as the rowid. */
export function isRowIdKey(table: GpTable): boolean {
  return table.primaryKey.length === 1 && table.primaryKey[0] === DEX_ROW_ID;
}

/**
 * Every trigger's write makes its own condition false: the DEX_ROW_TS updates guard with
 * `DEX_ROW_TS <> now` and the pad triggers fire only while a value is short, so even with PRAGMA
 * recursive_triggers=ON no trigger fires itself into a loop: the second pass finds nothing to change.
 */
export function sqliteCreateTriggers(table: GpTable): string[] {
  const statements: string[] = [];
  if (!isRowIdKey(table)) {
    // As GP's IDENTITY(1,1): an INSERT that leaves DEX_ROW_ID out gets the next number. Every other
    // trigger finds its row by rowid, so none depends on the order in which triggers fire.
    statements.push(
      `CREATE TRIGGER ${q(`zID_${table.name}I`)} AFTER INSERT ON ${q(table.name)} FOR EACH ROW\n` +
        `WHEN NEW.${q(DEX_ROW_ID)} IS NULL\n` +
        `BEGIN\n  UPDATE ${q(table.name)} SET ${q(DEX_ROW_ID)} = NEW.rowid WHERE rowid = NEW.rowid;\nEND`,
    );
  }
  statements.push(...padTriggers(table));
  if (table.hasRowTs) {
    // An UPDATE that changes DEX_ROW_TS itself keeps its value; any other UPDATE stamps now.
    statements.push(
      `CREATE TRIGGER ${q(`zDT_${table.name}U`)} AFTER UPDATE ON ${q(table.name)} FOR EACH ROW\n` +
        // Numbering a new row (zID_) is part of its INSERT, not an update.
        `WHEN NEW.${q(DEX_ROW_TS)} IS OLD.${q(DEX_ROW_TS)} AND OLD.${q(DEX_ROW_ID)} IS NOT NULL\n` +
        `BEGIN\n  ${touchRows(table.name, 'rowid = NEW.rowid')};\nEND`,
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
  const body = `BEGIN\n  UPDATE ${q(table.name)} SET ${assignments} WHERE rowid = NEW.rowid;\nEND`;
  return (['INSERT', 'UPDATE'] as const).map(
    (event) =>
      `CREATE TRIGGER ${q(`zPAD_${table.name}${event[0]}`)} AFTER ${event} ON ${q(table.name)} FOR EACH ROW\nWHEN ${isShort}\n${body}`,
  );
}

function touchRows(tableName: string, where: string): string {
  return `UPDATE ${q(tableName)} SET ${q(DEX_ROW_TS)} = ${SQLITE_NOW_UTC} ` + `WHERE ${where} AND ${q(DEX_ROW_TS)} <> ${SQLITE_NOW_UTC}`;
}

function columnDefinition(column: GpColumn, table?: GpTable): string {
  const name = q(column.name);
  if (column.name === DEX_ROW_ID) return table && isRowIdKey(table) ? `${name} INTEGER PRIMARY KEY AUTOINCREMENT` : `${name} INTEGER`;
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

function columnList(columns: readonly string[]): string {
  return columns.map(q).join(', ');
}

/** Identifiers come only from the GP_TABLES catalog; quoting keeps names like "ShipToName" exact. */
function q(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/**
 * A short hash of the DDL of `tables`: it changes whenever their SQLite schema does (a column, an
 * index, a trigger), so that a cache of generated databases can tell one built from another schema.
 */
export function sqliteSchemaVersion(tables: readonly GpTable[]): string {
  const hash = createHash('sha256');
  for (const table of tables) for (const statement of sqliteDdl(table)) hash.update(`${statement};\n`);
  return hash.digest('hex').slice(0, 12);
}
