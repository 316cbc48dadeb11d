import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { DEX_ROW_ID, DEX_ROW_TS, GP_TABLES, gpTablesOf, isRowIdKey, sqliteDdl } from './index.ts';
import type { GpTable } from './index.ts';
import { padChar, toScaled } from './sqliteValues.ts';

function openCompanyDb(): Database.Database {
  const db = new Database(':memory:');
  for (const table of gpTablesOf('company')) for (const statement of sqliteDdl(table)) db.exec(statement);
  return db;
}

const OLD_TS = '2020-01-01 00:00:00.000';
const tsOf = (db: Database.Database, sql: string, ...params: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .get(...params) as string;

describe('GP_TABLES catalog', () => {
  test('is keyed by table name and splits system from company tables', () => {
    for (const [key, table] of Object.entries(GP_TABLES)) assert.equal(key, table.name);
    assert.deepEqual(
      gpTablesOf('system').map((t) => t.name),
      ['SY01500', 'SY003001', 'SY00302'],
    );
    assert.deepEqual(
      gpTablesOf('company').map((t) => t.name),
      [
        'RM00101',
        'RM00102',
        'GL00100',
        'GL00105',
        'GL20000',
        'GL30000',
        'SY40101',
        'SY40100',
        'SY03300',
        'RM00301',
        'CM00100',
        'IV40700',
        'SY00500',
        'PM00200',
        'PM00300',
        'IV00101',
        'IV00102',
        'IV40201',
        'IV40202',
        'IV40800',
        'IV00108',
        'RM20101',
        'RM30101',
        'PM20000',
        'PM30200',
        'SOP10100',
        'SOP10200',
        'SOP30200',
        'SOP30300',
        'POP10100',
        'POP10110',
        'POP30100',
        'POP30110',
        'RM00103',
        'RM10301',
        'PM10000',
        'GL10000',
        'GL10001',
        'SOP40200',
        'RM40401',
        'PM40100',
        'GL40000',
        'RM10101',
        'PM10100',
        'SY01100',
        'SOP40300',
      ],
    );
  });

  test('has DEX_ROW_TS exactly where GP 2015 has it (docs/decisions.md#gp-tables-and-the-sql-login), and DEX_ROW_ID everywhere', () => {
    const withRowTs = new Set([
      'RM00101',
      'RM00102',
      'RM00301',
      'RM20101',
      'RM30101',
      'PM00200',
      'PM00300',
      'PM20000',
      'PM30200',
      'IV00101',
      'GL00100',
      'GL20000',
      'GL30000',
      'SOP10100',
      'SOP10200',
      'SOP30200',
      'SOP30300',
      'POP10100',
      'POP10110',
      'POP30100',
      'POP30110',
      'SY40100',
      'SY40101',
      'RM10301',
      'PM10000',
      'GL10000',
      'GL10001',
      'GL40000',
      'IV40201',
      'IV40202',
      'IV40800',
      'IV00108',
    ]);
    const withoutRowTs = new Set([
      'SY01500',
      'IV00102',
      'IV40700',
      'GL00105',
      'CM00100',
      'SY03300',
      'SY00500',
      'RM00103',
      'SOP40200',
      'RM40401',
      'PM40100',
      'RM10101',
      'PM10100',
      'SY01100',
      'SOP40300',
      'SY003001',
      'SY00302',
    ]);
    for (const table of Object.values(GP_TABLES as Record<string, GpTable>)) {
      assert.ok(withRowTs.has(table.name) || withoutRowTs.has(table.name), `${table.name} is in neither list`);
      assert.equal(table.hasRowTs, withRowTs.has(table.name), table.name);
    }
    assert.deepEqual(GP_TABLES.IV00102.bumpsParentRowTs, { table: 'IV00101', key: ['ITEMNMBR'] });
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
      for (const key of [table.primaryKey, ...(table.indexes ?? []).map((i) => i.columns)]) {
        for (const name of key) assert.ok(names.includes(name), `${table.name}: ${name} is not a column`);
      }
    }
  });

  test("has exactly GP's indexes in SQLite (gpIndexes.ts), and DEX_ROW_ID as the rowid only where GP keys on it", () => {
    const db = openCompanyDb();
    for (const table of gpTablesOf('company')) {
      const expected = (table.indexes ?? [])
        .filter((i) => !(i.primaryKey && isRowIdKey(table)))
        .map((i) => `${i.unique ? 'unique ' : ''}${i.name} (${i.columns.join(', ')})`)
        .sort();
      const actual = (
        db.prepare('SELECT name, "unique" FROM pragma_index_list(?) WHERE origin = ?').all(table.name, 'c') as Array<{
          name: string;
          unique: number;
        }>
      )
        .map((i) => {
          const columns = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck().all(i.name) as string[];
          return `${i.unique ? 'unique ' : ''}${i.name} (${columns.join(', ')})`;
        })
        .sort();
      assert.deepEqual(actual, expected, table.name);
      const rowIdAlias =
        (db.prepare('SELECT pk FROM pragma_table_info(?) WHERE name = ?').pluck().get(table.name, DEX_ROW_ID) as number) === 1;
      assert.equal(rowIdAlias, table.name === 'GL20000' || table.name === 'GL30000', table.name);
    }
    // GP's primary key of RM00101 is its customer number; the table is still a heap in DEX_ROW_ID order.
    assert.equal(GP_TABLES.RM00101.indexes?.[0]?.name, 'PKRM00101');
  });

  test('numbers a row inserted without DEX_ROW_ID, as IDENTITY(1,1) does, and keeps a timestamp given with it', () => {
    const db = openCompanyDb();
    db.prepare('INSERT INTO RM00101 (CUSTNMBR, DEX_ROW_TS) VALUES (?, ?)').run(padChar('A', 15), OLD_TS);
    db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)').run('B');
    assert.deepEqual(db.prepare('SELECT DEX_ROW_ID FROM RM00101 ORDER BY CUSTNMBR').pluck().all(), [1, 2]);
    assert.equal(tsOf(db, 'SELECT DEX_ROW_TS FROM RM00101 WHERE DEX_ROW_ID = 1'), OLD_TS);
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
    assert.equal(length(GP_TABLES.PM00200, 'VENDORID'), 15);
    assert.equal(length(GP_TABLES.PM00200, 'VNDCLSID'), 11);
    assert.equal(length(GP_TABLES.PM00300, 'ZIPCODE'), 11);
    assert.equal(length(GP_TABLES.IV00101, 'ITEMNMBR'), 31);
    assert.equal(length(GP_TABLES.IV00101, 'ITEMDESC'), 101);
    assert.equal(length(GP_TABLES.IV00101, 'ITMCLSCD'), 11);
    assert.equal(length(GP_TABLES.IV00102, 'LOCNCODE'), 11);
    assert.equal(length(GP_TABLES.IV40700, 'LOCNDSCR'), 31);
    assert.equal(length(GP_TABLES.SY03300, 'PYMTRMID'), 21);
    assert.equal(length(GP_TABLES.RM00301, 'SPRSNSLN'), 21);
    assert.equal(length(GP_TABLES.CM00100, 'DSCRIPTN'), 31);
    assert.equal(length(GP_TABLES.SY00500, 'BCHSOURC'), 15);
    for (const name of ['RM20101', 'RM30101'] as const) {
      assert.equal(length(GP_TABLES[name], 'DOCNUMBR'), 21);
      assert.equal(length(GP_TABLES[name], 'CHEKNMBR'), 21);
      assert.equal(length(GP_TABLES[name], 'TRXDSCRN'), 31);
    }
    for (const name of ['PM20000', 'PM30200'] as const) assert.equal(length(GP_TABLES[name], 'VCHRNMBR'), 21);
    for (const name of ['SOP10100', 'SOP30200', 'SOP10200', 'SOP30300'] as const) assert.equal(length(GP_TABLES[name], 'SOPNUMBE'), 21);
    for (const name of ['POP10100', 'POP30100', 'POP10110', 'POP30110'] as const) assert.equal(length(GP_TABLES[name], 'PONUMBER'), 17);
    assert.equal(length(GP_TABLES.SY40100, 'ODESCTN'), 51);
  });

  test('declares every column gp-schema.md maps to an API field (and the filters need)', () => {
    const required: Record<string, string[]> = {
      GL00100: ['ACTINDX', 'ACTDESCR', 'ACCTTYPE', 'PSTNGTYP', 'ACTIVE', 'ACCATNUM', 'CREATDDT', 'MODIFDT'],
      PM00200: [
        'VENDORID',
        'VENDNAME',
        'VNDCHKNM',
        'VENDSHNM',
        'VNDCLSID',
        'VADDCDPR',
        'PYMTRMID',
        'CURNCYID',
        'TXIDNMBR',
        'TEN99TYPE',
        'PHNUMBR1',
        'VENDSTTS',
        'HOLD',
        'CREATDDT',
        'MODIFDT',
      ],
      PM00300: ['VENDORID', 'ADRSCODE', 'VNDCNTCT', 'ADDRESS1', 'ADDRESS2', 'ADDRESS3', 'CITY', 'STATE', 'ZIPCODE', 'COUNTRY', 'PHNUMBR1'],
      IV00101: [
        'ITEMNMBR',
        'ITEMDESC',
        'ITMSHNAM',
        'ITMCLSCD',
        'ITEMTYPE',
        'ITMTRKOP',
        'UOMSCHDL',
        'STNDCOST',
        'CURRCOST',
        'ITMGEDSC',
        'MODIFDT',
        'CREATDDT',
        'INACTIVE',
      ],
      IV00102: ['ITEMNMBR', 'LOCNCODE', 'RCRDTYPE', 'QTYONHND', 'ATYALLOC', 'QTYONORD', 'QTYBKORD'],
      IV40700: ['LOCNCODE', 'LOCNDSCR', 'ADDRESS1', 'ADDRESS2', 'CITY', 'STATE', 'ZIPCODE', 'COUNTRY', 'INACTIVE'],
      CM00100: ['CHEKBKID', 'DSCRIPTN', 'ACTINDX', 'CURNCYID', 'CURRBLNC', 'INACTIVE'],
      SY03300: ['PYMTRMID', 'DUETYPE', 'DUEDTDS', 'DSCPCTAM'],
      RM00301: ['SLPRSNID', 'SLPRSNFN', 'SPRSNSLN', 'EMPLOYID', 'INACTIVE'],
      SY40100: ['YEAR1', 'PERIODID', 'PERIODDT', 'PERDENDT', 'SERIES', 'FORIGIN', 'ODESCTN', 'CLOSED', 'PSERIES_1', 'PSERIES_6'],
      SY00500: ['BACHNUMB', 'BCHSOURC', 'SERIES', 'NUMOFTRX', 'BCHTOTAL', 'MKDTOPST', 'GLPOSTDT'],
      SOP10200: [
        'SOPNUMBE',
        'SOPTYPE',
        'CMPNTSEQ',
        'LNITMSEQ',
        'ITEMNMBR',
        'ITEMDESC',
        'QUANTITY',
        'UNITPRCE',
        'XTNDPRCE',
        'LOCNCODE',
        'QTYFULFI',
      ],
    };
    const rm = [
      'RMDTYPAL',
      'DOCNUMBR',
      'CUSTNMBR',
      'DOCDATE',
      'DUEDATE',
      'ORTRXAMT',
      'CURTRXAM',
      'SLSAMNT',
      'TAXAMNT',
      'FRTAMNT',
      'TRXDSCRN',
      'BACHNUMB',
      'BCHSOURC',
      'CURNCYID',
      'CHEKNMBR',
      'VOIDSTTS',
    ];
    const pm = [
      'DOCTYPE',
      'VCHRNMBR',
      'DOCNUMBR',
      'VENDORID',
      'DOCDATE',
      'DUEDATE',
      'DOCAMNT',
      'CURTRXAM',
      'PRCHAMNT',
      'TAXAMNT',
      'TRXDSCRN',
      'BACHNUMB',
      'BCHSOURC',
      'CURNCYID',
      'VOIDED',
    ];
    const sop = [
      'SOPTYPE',
      'SOPNUMBE',
      'DOCID',
      'CUSTNMBR',
      'CUSTNAME',
      'DOCDATE',
      'SUBTOTAL',
      'TAXAMNT',
      'FRTAMNT',
      'DOCAMNT',
      'BACHNUMB',
      'LOCNCODE',
      'CSTPONBR',
      'VOIDSTTS',
    ];
    const pop = [
      'PONUMBER',
      'POSTATUS',
      'POTYPE',
      'VENDORID',
      'VENDNAME',
      'DOCDATE',
      'PRMDATE',
      'SUBTOTAL',
      'TRDISAMT',
      'FRTAMNT',
      'MSCCHAMT',
      'TAXAMNT',
      'CURNCYID',
    ];
    const popLines = [
      'PONUMBER',
      'ORD',
      'LineNumber',
      'ITEMNMBR',
      'ITEMDESC',
      'QTYORDER',
      'QTYCANCE',
      'UNITCOST',
      'EXTDCOST',
      'LOCNCODE',
      'POLNESTA',
    ];
    Object.assign(required, {
      RM20101: rm,
      RM30101: rm,
      PM20000: pm,
      PM30200: pm,
      SOP10100: sop,
      SOP30200: sop,
      SOP30300: required.SOP10200,
      POP10100: pop,
      POP30100: pop,
      POP10110: popLines,
      POP30110: popLines,
    });
    for (const [name, columns] of Object.entries(required)) {
      const table = (GP_TABLES as Record<string, GpTable>)[name];
      assert.ok(table, name);
      const declared = new Set(table.columns.map((c) => c.name));
      for (const column of columns) assert.ok(declared.has(column), `${name}.${column}`);
    }
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
    assert.deepEqual(row, {
      CUSTNMBR: 'SHORT'.padEnd(15),
      CUSTNAME: 'Inserted'.padEnd(65),
      CITY: 'Chicago'.padEnd(35),
      STATE: ' '.repeat(29),
    });
    assert.equal(db.prepare('SELECT count(*) FROM RM00101 WHERE CUSTNMBR = ?').pluck().get(padChar('short', 15)), 1);
  });

  test('an UPDATE bumps DEX_ROW_TS unless it sets DEX_ROW_TS itself', () => {
    const db = openCompanyDb();
    db.prepare('INSERT INTO GL00100 (ACTINDX, DEX_ROW_TS) VALUES (1, ?)').run(OLD_TS);
    db.prepare('UPDATE GL00100 SET ACTDESCR = ? WHERE ACTINDX = 1').run(padChar('Cash', 51));
    const bumped = tsOf(db, 'SELECT DEX_ROW_TS FROM GL00100');
    assert.ok(bumped > OLD_TS, bumped);
    db.prepare('UPDATE GL00100 SET DEX_ROW_TS = ?, ACTIVE = 1').run(OLD_TS);
    assert.equal(tsOf(db, 'SELECT DEX_ROW_TS FROM GL00100'), OLD_TS);
  });

  test('the triggers terminate even with recursive triggers on', () => {
    const db = openCompanyDb();
    db.pragma('recursive_triggers = ON');
    db.prepare('INSERT INTO RM00101 (CUSTNMBR, DEX_ROW_TS) VALUES (?, ?)').run(padChar('C1', 15), OLD_TS);
    db.prepare('INSERT INTO RM00102 (CUSTNMBR, ADRSCODE, DEX_ROW_TS) VALUES (?, ?, ?)').run(
      padChar('C1', 15),
      padChar('PRIMARY', 15),
      OLD_TS,
    );
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

  test("IV00102 inserts, updates and deletes bump the item, as GP's zDT_IV00102 triggers do", () => {
    const db = openCompanyDb();
    const itemTs = () => tsOf(db, 'SELECT DEX_ROW_TS FROM IV00101');
    const resetItemTs = () => db.prepare('UPDATE IV00101 SET DEX_ROW_TS = ?').run(OLD_TS);
    db.prepare('INSERT INTO IV00101 (ITEMNMBR) VALUES (?)').run(padChar('PHON-10001', 31));
    const site = [padChar('PHON-10001', 31), 2, padChar('NORTH', 11)];

    resetItemTs();
    db.prepare('INSERT INTO IV00102 (ITEMNMBR, RCRDTYPE, LOCNCODE) VALUES (?, ?, ?)').run(...site);
    assert.ok(itemTs() > OLD_TS, 'insert');
    resetItemTs();
    db.prepare('UPDATE IV00102 SET QTYONHND = ?').run(toScaled('12'));
    assert.ok(itemTs() > OLD_TS, 'update');
    resetItemTs();
    db.prepare('DELETE FROM IV00102').run();
    assert.ok(itemTs() > OLD_TS, 'delete');
  });

  test('DEX_ROW_ID of GL lines, the key GL lists page on, is never reused, like an IDENTITY', () => {
    const db = openCompanyDb();
    const insert = db.prepare('INSERT INTO GL20000 (JRNENTRY) VALUES (?)');
    insert.run(1);
    const { lastInsertRowid } = insert.run(2);
    db.prepare('DELETE FROM GL20000 WHERE JRNENTRY = 2').run();
    assert.equal(insert.run(3).lastInsertRowid, Number(lastInsertRowid) + 1);
  });
});
