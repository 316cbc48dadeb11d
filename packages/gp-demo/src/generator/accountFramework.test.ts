import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { demoFrameworkOf } from '../mssql/loadDemo.ts';
import { demoAccountFramework, generateDemo } from './generate.ts';

/**
 * Demos in other account frameworks than the default four segments: GP installs have 3, 5, 6 or 10
 * (docs/decisions.md#the-chart-of-accounts), and the agent must read each. The account tables have
 * the framework's segment columns, DYNAMICS records the framework, and the rest of the company
 * (GL lines, checkbooks) refers to accounts that exist.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-framework-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function generated(segments: number) {
  const dir = path.join(root, `segments-${segments}`);
  const result = generateDemo({ dir, seed: 3, accountFramework: demoAccountFramework(segments) });
  const open = (file: string) => new Database(file, { readonly: true, fileMustExist: true });
  return { result, system: open(result.systemDatabase), company: open(result.companyDatabases.TWO!) };
}

const segmentColumns = (db: Database.Database, table: string) =>
  db.prepare(`SELECT name FROM pragma_table_info('${table}') WHERE name LIKE 'ACTNUMBR%' ORDER BY cid`).pluck().all() as string[];

test('a 3-segment demo: ACTNUMBR_1..3, the framework in DYNAMICS, Fabrikam-style numbers', () => {
  const { result, system, company } = generated(3);
  try {
    assert.deepEqual(result.counts.DYNAMICS, { SY01500: 2, SY003001: 1, SY00302: 3 });
    assert.deepEqual(system.prepare('SELECT MXNUMSEG, MXLACNUM FROM SY003001').raw().all(), [[3, 13]]);
    assert.deepEqual(system.prepare('SELECT SGMTNUMB, SGMNTLTH FROM SY00302 ORDER BY SGMTNUMB').raw().all(), [
      [1, 5],
      [2, 5],
      [3, 3],
    ]);
    assert.deepEqual(segmentColumns(company, 'GL00100'), ['ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3']);
    assert.deepEqual(segmentColumns(company, 'GL00105'), ['ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3']);
    const cash = company
      .prepare(
        "SELECT rtrim(ACTNUMBR_1), rtrim(ACTNUMBR_2), rtrim(ACTNUMBR_3), rtrim(ACTNUMST) FROM GL00105 WHERE rtrim(ACTNUMST) = '000-1100-00'",
      )
      .raw()
      .get();
    assert.deepEqual(cash, ['000', '1100', '00', '000-1100-00']);
    // Every GL line and checkbook names an account of the chart.
    const orphans = company
      .prepare(
        'SELECT count(*) FROM (SELECT ACTINDX FROM GL20000 UNION ALL SELECT ACTINDX FROM GL30000 UNION ALL SELECT ACTINDX FROM CM00100) l ' +
          'WHERE l.ACTINDX NOT IN (SELECT ACTINDX FROM GL00105)',
      )
      .pluck()
      .get();
    assert.equal(orphans, 0);
  } finally {
    system.close();
    company.close();
  }
});

test('a 5-segment demo: every segment used, and accounts that differ in the fifth segment only', () => {
  const { result, system, company } = generated(5);
  try {
    assert.deepEqual(result.counts.DYNAMICS, { SY01500: 2, SY003001: 1, SY00302: 5 });
    assert.deepEqual(system.prepare('SELECT MXNUMSEG FROM SY003001').pluck().all(), [5]);
    // What the SQL Server loader builds its schema from.
    assert.deepEqual(demoFrameworkOf(result.systemDatabase), demoAccountFramework(5));
    assert.deepEqual(segmentColumns(company, 'GL00100'), ['ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3', 'ACTNUMBR_4', 'ACTNUMBR_5']);
    const numbers = company.prepare("SELECT rtrim(ACTNUMST) FROM GL00105 WHERE ACTNUMST LIKE '100-6100-%' ORDER BY ACTNUMST").pluck().all();
    assert.deepEqual(numbers, ['100-6100-00-00-01', '100-6100-00-00-02']);
    assert.equal(company.prepare("SELECT count(*) FROM GL00105 WHERE rtrim(ACTNUMST) = '000-1100-00-00-00'").pluck().get(), 1);
    const sharingFourSegments = company
      .prepare(
        'SELECT count(*) FROM (SELECT 1 FROM GL00100 GROUP BY ACCTTYPE, ACTNUMBR_1, ACTNUMBR_2, ACTNUMBR_3, ACTNUMBR_4 HAVING count(*) > 1)',
      )
      .pluck()
      .get() as number;
    assert.ok(sharingFourSegments > 10, `${sharingFourSegments} groups of accounts share their first four segments`);
    const unknown = company.prepare('SELECT count(*) FROM GL20000 WHERE ACTINDX NOT IN (SELECT ACTINDX FROM GL00105)').pluck().get();
    assert.equal(unknown, 0);
  } finally {
    system.close();
    company.close();
  }
});

test('the demo refuses a framework its chart of accounts cannot fill', () => {
  assert.throws(() => demoAccountFramework(2), RangeError);
  assert.throws(() => demoAccountFramework(11), RangeError);
  assert.deepEqual(demoAccountFramework(4).segmentLengths, [5, 5, 3, 3]);
  assert.deepEqual(demoAccountFramework(6).segmentLengths, [5, 5, 3, 3, 3, 3]);
});
