import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import {
  AccountFrameworkError,
  checkedAccountFramework,
  DEFAULT_ACCOUNT_FRAMEWORK,
  GP_TABLES,
  gpTablesFor,
  gpTablesOf,
  sqliteDdl,
  type GpTable,
} from './index.ts';

const segmentColumns = (table: GpTable) => table.columns.filter((c) => c.name.startsWith('ACTNUMBR_')).map((c) => [c.name, c.length]);
const indexColumns = (table: GpTable, name: string) => table.indexes?.find((i) => i.name === name)?.columns;

test("the default framework is GP 2015 sample company's: four segments, char 5/5/3/3", () => {
  assert.deepEqual(segmentColumns(GP_TABLES.GL00100), [
    ['ACTNUMBR_1', 5],
    ['ACTNUMBR_2', 5],
    ['ACTNUMBR_3', 3],
    ['ACTNUMBR_4', 3],
  ]);
  assert.equal(gpTablesFor(DEFAULT_ACCOUNT_FRAMEWORK), GP_TABLES);
});

test('with 3 segments the account tables have ACTNUMBR_1..3 and GP indexes account numbers on exactly those', () => {
  const tables = gpTablesFor({ segmentLengths: [3, 4, 2] });
  assert.deepEqual(segmentColumns(tables.GL00100), [
    ['ACTNUMBR_1', 3],
    ['ACTNUMBR_2', 4],
    ['ACTNUMBR_3', 2],
  ]);
  assert.deepEqual(segmentColumns(tables.GL00105), segmentColumns(tables.GL00100));
  assert.deepEqual(indexColumns(tables.GL00100, 'AK4GL00100'), ['ACCTTYPE', 'ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3']);
  assert.deepEqual(indexColumns(tables.GL00100, 'AK5GL00100'), ['ACCATNUM', 'MNACSGMT', 'ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3']);
  assert.deepEqual(indexColumns(tables.GL00105, 'AK2GL00105'), ['ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3']);
  // Every other table is GP_TABLES' own.
  assert.equal(tables.GL20000, GP_TABLES.GL20000);
});

test('with 5 segments the unique indexes end in ACTNUMBR_5, and SQLite creates them', () => {
  const framework = { segmentLengths: [5, 5, 3, 3, 3] };
  const tables = gpTablesFor(framework);
  assert.deepEqual(indexColumns(tables.GL00100, 'AK4GL00100'), [
    'ACCTTYPE',
    'ACTNUMBR_1',
    'ACTNUMBR_2',
    'ACTNUMBR_3',
    'ACTNUMBR_4',
    'ACTNUMBR_5',
  ]);
  const db = new Database(':memory:');
  try {
    for (const table of gpTablesOf('company', framework)) for (const statement of sqliteDdl(table)) db.exec(statement);
    const insert = db.prepare(
      'INSERT INTO GL00100 (ACTINDX, ACTNUMBR_1, ACTNUMBR_2, ACTNUMBR_3, ACTNUMBR_4, ACTNUMBR_5, ACCTTYPE) VALUES (?, ?, ?, ?, ?, ?, 1)',
    );
    // Two accounts that differ only in the fifth segment are two accounts.
    insert.run(1, '100  ', '6100 ', '00 ', '00 ', '01 ');
    insert.run(2, '100  ', '6100 ', '00 ', '00 ', '02 ');
    assert.throws(() => insert.run(3, '100  ', '6100 ', '00 ', '00 ', '02 '), /UNIQUE/);
  } finally {
    db.close();
  }
});

test('a framework GP could not have is refused', () => {
  assert.throws(() => checkedAccountFramework({ segmentLengths: [] }), AccountFrameworkError);
  assert.throws(() => checkedAccountFramework({ segmentLengths: Array.from({ length: 11 }, () => 2) }), AccountFrameworkError);
  assert.throws(() => checkedAccountFramework({ segmentLengths: [5, 0, 3] }), AccountFrameworkError);
  assert.throws(() => checkedAccountFramework({ segmentLengths: [30, 30, 30] }), AccountFrameworkError);
  assert.deepEqual(checkedAccountFramework({ segmentLengths: Array.from({ length: 10 }, () => 6) }).segmentLengths.length, 10);
});
