import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { DEX_ROW_ID, DEX_ROW_TS, GP_TABLES, gpTablesOf, sqliteDdl } from './tables.ts';
import type { GpTable } from './tables.ts';
import { padChar, toScaled } from './sqliteValues.ts';

function openCompanyDb(): Database.Database {
  const db = new Database(':memory:');
  for (const table of gpTablesOf('company')) for (const statement of sqliteDdl(table)) db.exec(statement);
  return db;
}

const OLD_TS = '2020-01-01 00:00:00.000';
const tsOf = (db: Database.Database, sql: string, ...params: unknown[]) =>
  (db.prepare(sql).pluck().get(...params) as string);

describe('GP_TABLES catalog', () => {
  test('is keyed by table name and splits system from company tables', () => {
    for (const [key, table] of Object.entries(GP_TABLES)) assert.equal(key, table.name);
    assert.deepEqual(gpTablesOf('system').map((t) => t.name), ['SY01500']);
    assert.deepEqual(
      gpTablesOf('company').map((t) => t.name),
      ['RM00101', 'RM00102', 'GL00100', 'GL00105', 'GL20000', 'GL30000', 'SY40101'],
    );
  });

  test('has DEX_ROW_TS exactly where GP 2015 has it, and DEX_ROW_ID everywhere', () => {
    const withRowTs = Object.values(GP_TABLES as Record<string, GpTable>).filter((t) => t.hasRowTs).map((t) => t.name);
    assert.deepEqual(withRowTs, ['RM00101', 'RM00102', 'GL00100', 'GL20000', 'GL30000', 'SY40101']);
    for (const table of Object.values(GP_TABLES as Record<string, GpTable>)) {
      const names = table.columns.map((c) => c.name);
      assert.equal(names.at(-1), DEX_ROW_ID, table.name);
      assert.equal(names.includes(DEX_ROW_TS), table.hasRowTs, table.name);
    }
  });

  test('is internally consistent: unique names, char lengths, keys and indexes on real columns', () => {
    for (const table of Object.values(GP_TABLES as Record<string, GpTable>)) {
      const names = table.columns.map((c) => c.name);
      assert.equal(new Set(names).size, names.length, `${table.name} has duplicate columns`);
      for (const column of table.columns) {
        assert.equal(column.type === 'char', Number.isInteger(column.length), `${table.name}.${column.name}`);
      }
      for (const key of [table.primaryKey, ...(table.indexes ?? [])]) {
        for (const name of key) assert.ok(names.includes(name), `${table.name}: ${name} is not a column`);
      }
    }
  });

  test('uses GP lengths for the columns the API maps', () => {
    const length = (t: GpTable, name: string) => t.columns.find((c) => c.name === name)?.length;
    assert.equal(length(GP_TABLES.SY01500, 'INTERID'), 5);
    assert.equal(length(GP_TABLES.RM00101, 'CUSTNMBR'), 15);
    assert.equal(length(GP_TABLES.RM00101, 'PYMTRMID'), 21);
    assert.equal(length(GP_TABLES.RM00102, 'ZIP'), 11);
    assert.equal(length(GP_TABLES.GL00105, 'ACTNUMST'), 129);
    assert.equal(length(GP_TABLES.GL30000, 'ORMSTRID'), 31);
    assert.equal(length(GP_TABLES.GL20000, 'SOURCDOC'), 11);
  });
});

describe('sqliteDdl', () => {
  test('creates every table with GP bound defaults for omitted columns', () => {
    const db = openCompanyDb();
    db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)').run(padChar('AARONFIT0001', 15));
    const row = db.prepare('SELECT CUSTNAME, CRLMTAMT, CREATDDT, INACTIVE, DEX_ROW_TS FROM RM00101').get() as Record<string, unknown>;
    assert.equal(row.CUSTNAME, ' '.repeat(65));
    assert.equal(row.CRLMTAMT, 0);
    assert.equal(row.CREATDDT, '1900-01-01 00:00:00.000');
    assert.equal(row.INACTIVE, 0);
    assert.match(String(row.DEX_ROW_TS), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
  });

  test("GP's primary key is unique, case-insensitively", () => {
    const db = openCompanyDb();
    const insert = db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)');
    insert.run(padChar('AARONFIT0001', 15));
    assert.throws(() => insert.run(padChar('AARONFIT0001', 15)), /UNIQUE constraint failed/);
    assert.throws(() => insert.run(padChar('aaronfit0001', 15)), /UNIQUE constraint failed/);
  });

  test('rejects values that break the encoding contract', () => {
    const db = openCompanyDb();
    assert.throws(() => db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)').run('X'.repeat(16)), /CHECK constraint failed/);
    assert.throws(
      () => db.prepare('INSERT INTO RM00101 (CUSTNMBR, CRLMTAMT) VALUES (?, ?)').run(padChar('A', 15), 1250.5),
      /CHECK constraint failed/,
    );
    assert.throws(
      () => db.prepare('INSERT INTO RM00101 (CUSTNMBR, CREATDDT) VALUES (?, ?)').run(padChar('A', 15), '2026-03-01'),
      /CHECK constraint failed/,
    );
    db.prepare('INSERT INTO RM00101 (CUSTNMBR, CRLMTAMT) VALUES (?, ?)').run(padChar('A', 15), toScaled('1250.5'));
    const stored = db.prepare('SELECT CRLMTAMT FROM RM00101').safeIntegers(true).pluck().get();
    assert.equal(stored, 125050000n);
  });

  test('short char values are blank-padded on insert and update, as SQL Server stores char(n)', () => {
    const db = openCompanyDb();
    db.prepare("INSERT INTO GL30000 (HSTYEAR, JRNENTRY, SOURCDOC, ACTINDX) VALUES (2025, 1, 'GJ', 1)").run();
    db.prepare("INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES ('SHORT', 'Inserted')").run();
    db.prepare("UPDATE RM00101 SET CITY = 'Chicago'").run();
    assert.equal(tsOf(db, 'SELECT SOURCDOC FROM GL30000'), 'GJ'.padEnd(11));
    const row = db.prepare('SELECT CUSTNMBR, CUSTNAME, CITY, STATE FROM RM00101').get();
    assert.deepEqual(row, { CUSTNMBR: 'SHORT'.padEnd(15), CUSTNAME: 'Inserted'.padEnd(65), CITY: 'Chicago'.padEnd(35), STATE: ' '.repeat(29) });
    assert.equal(db.prepare('SELECT count(*) FROM RM00101 WHERE CUSTNMBR = ?').pluck().get(padChar('short', 15)), 1);
  });

  test('an UPDATE bumps DEX_ROW_TS unless it sets DEX_ROW_TS itself', () => {
    const db = openCompanyDb();
    db.prepare('INSERT INTO GL00100 (ACTINDX, DEX_ROW_TS) VALUES (1, ?)').run(OLD_TS);
    db.prepare("UPDATE GL00100 SET ACTDESCR = ? WHERE ACTINDX = 1").run(padChar('Cash', 51));
    const bumped = tsOf(db, 'SELECT DEX_ROW_TS FROM GL00100');
    assert.ok(bumped > OLD_TS, bumped);
    db.prepare('UPDATE GL00100 SET DEX_ROW_TS = ?, ACTIVE = 1').run(OLD_TS);
    assert.equal(tsOf(db, 'SELECT DEX_ROW_TS FROM GL00100'), OLD_TS);
  });

  test('the triggers terminate even with recursive triggers on', () => {
    const db = openCompanyDb();
    db.pragma('recursive_triggers = ON');
    db.prepare('INSERT INTO RM00101 (CUSTNMBR, DEX_ROW_TS) VALUES (?, ?)').run(padChar('C1', 15), OLD_TS);
    db.prepare('INSERT INTO RM00102 (CUSTNMBR, ADRSCODE, DEX_ROW_TS) VALUES (?, ?, ?)').run(padChar('C1', 15), padChar('PRIMARY', 15), OLD_TS);
    db.prepare('UPDATE RM00102 SET CITY = ?').run(padChar('Chicago', 35));
    db.prepare('UPDATE RM00101 SET HOLD = 1').run();
    assert.ok(tsOf(db, 'SELECT DEX_ROW_TS FROM RM00102') > OLD_TS);
  });

  test('RM00102 inserts, updates and deletes bump the customer, as in GP', () => {
    const db = openCompanyDb();
    const customerTs = () => tsOf(db, 'SELECT DEX_ROW_TS FROM RM00101');
    const resetCustomerTs = () => db.prepare('UPDATE RM00101 SET DEX_ROW_TS = ?').run(OLD_TS);
    db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)').run(padChar('C1', 15));

    resetCustomerTs();
    db.prepare('INSERT INTO RM00102 (CUSTNMBR, ADRSCODE) VALUES (?, ?)').run(padChar('c1', 15), padChar('PRIMARY', 15));
    assert.ok(customerTs() > OLD_TS, 'insert');
    resetCustomerTs();
    db.prepare('UPDATE RM00102 SET CITY = ?').run(padChar('Chicago', 35));
    assert.ok(customerTs() > OLD_TS, 'update');
    resetCustomerTs();
    db.prepare('DELETE FROM RM00102').run();
    assert.ok(customerTs() > OLD_TS, 'delete');
  });

  test('DEX_ROW_ID is never reused, like an IDENTITY', () => {
    const db = openCompanyDb();
    const insert = db.prepare('INSERT INTO SY40101 (YEAR1) VALUES (?)');
    insert.run(2024);
    const { lastInsertRowid } = insert.run(2025);
    db.prepare('DELETE FROM SY40101 WHERE YEAR1 = 2025').run();
    assert.equal(insert.run(2026).lastInsertRowid, Number(lastInsertRowid) + 1);
  });
});
