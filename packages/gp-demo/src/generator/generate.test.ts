import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { GP_EMPTY_DATE, GP_TABLES, gpTablesOf, padChar, type GpTable } from '@gp-gateway/gp-schema';
import { DEMO_COMPANIES, DemoExistsError, demoDatabasePaths, generateDemo } from './generate.ts';
import type { GenerateProgress, GenerateResult } from './generate.ts';

let root: string;
let base: GenerateResult;
let baseListing: string[];
const progress: GenerateProgress[] = [];
const digests: Record<string, Record<string, string>> = {};

const open = (file: string, readonly = true) => new Database(file, { readonly, fileMustExist: true });
const companyFiles = (result: GenerateResult) => Object.values(result.companyDatabases);

/** One hash per database over every row of every table, in DEX_ROW_ID order, exact integers. */
function digest(result: GenerateResult): Record<string, string> {
  const files = { DYNAMICS: result.systemDatabase, ...result.companyDatabases };
  return Object.fromEntries(
    Object.entries(files).map(([name, file]) => {
      const db = open(file);
      const hash = createHash('sha256');
      for (const table of gpTablesOf(name === 'DYNAMICS' ? 'system' : 'company')) {
        const rows = db.prepare(`SELECT * FROM ${table.name} ORDER BY DEX_ROW_ID`).safeIntegers(true).raw().all();
        hash.update(table.name);
        for (const row of rows) hash.update(JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
      }
      db.close();
      return [name, hash.digest('hex')];
    }),
  );
}

function eachCompanyDb(result: GenerateResult, check: (db: Database.Database, company: string) => void): void {
  for (const [company, file] of Object.entries(result.companyDatabases)) {
    const db = open(file);
    try {
      check(db, company);
    } finally {
      db.close();
    }
  }
}

const count = (db: Database.Database, sql: string, ...params: unknown[]): number =>
  db
    .prepare(sql)
    .pluck()
    .get(...params) as number;

before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-demo-test-'));
  base = generateDemo({ dir: path.join(root, 'base'), seed: 7, onProgress: (p) => progress.push(p) });
  // Read before anything opens the files: read-only WAL readers leave -wal/-shm files behind.
  baseListing = fs.readdirSync(path.join(root, 'base')).sort();
  digests.base = digest(base);
  digests.sameSeed = digest(generateDemo({ dir: path.join(root, 'same-seed'), seed: 7 }));
  digests.otherSeed = digest(generateDemo({ dir: path.join(root, 'other-seed'), seed: 8 }));
});

after(() => fs.rmSync(root, { recursive: true, force: true }));

describe('generateDemo output', () => {
  test('writes DYNAMICS.sqlite and one file per company, where demoDatabasePaths says', () => {
    const dir = path.join(root, 'base');
    assert.deepEqual({ systemDatabase: base.systemDatabase, companyDatabases: base.companyDatabases }, demoDatabasePaths(dir));
    assert.deepEqual(baseListing, ['DYNAMICS.sqlite', 'NWIND.sqlite', 'TWO.sqlite']);
    assert.deepEqual(
      fs.readdirSync(root).filter((f) => f.includes('building')),
      [],
      'no staging folder left behind',
    );
  });

  test('SY01500 lists exactly the two demo companies', () => {
    const db = open(base.systemDatabase);
    const rows = db
      .prepare('SELECT rtrim(INTERID) AS id, CMPANYID AS number, rtrim(CMPNYNAM) AS name FROM SY01500 ORDER BY CMPANYID')
      .all();
    db.close();
    assert.deepEqual(rows, [
      { id: 'TWO', number: 1, name: 'Fabrikam, Inc.' },
      { id: 'NWIND', number: 2, name: 'Northwind Traders' },
    ]);
    assert.deepEqual(
      DEMO_COMPANIES.map((c) => c.id),
      ['TWO', 'NWIND'],
    );
  });

  test('reports the row counts that are really in the files, at the requested size', () => {
    eachCompanyDb(base, (db, company) => {
      for (const [table, rows] of Object.entries(base.counts[company] ?? {})) {
        assert.equal(count(db, `SELECT count(*) FROM ${table}`), rows, `${company}.${table}`);
      }
      assert.equal(count(db, 'SELECT count(*) FROM RM00101'), 500);
      const glLines = count(db, 'SELECT (SELECT count(*) FROM GL20000) + (SELECT count(*) FROM GL30000)');
      assert.ok(glLines > 4900 && glLines < 5300, `${glLines} GL lines`);
      const accounts = count(db, 'SELECT count(*) FROM GL00100');
      assert.ok(accounts >= 70 && accounts <= 100, `${accounts} accounts`);
    });
    assert.deepEqual(base.counts.DYNAMICS, { SY01500: 2, SY003001: 1, SY00302: 4 });
  });

  test('is deterministic: the same seed gives identical contents, another seed different ones', () => {
    assert.deepEqual(digests.sameSeed, digests.base);
    for (const company of DEMO_COMPANIES) assert.notEqual(digests.otherSeed?.[company.id], digests.base?.[company.id]);
    assert.notEqual(digests.base?.TWO, digests.base?.NWIND, 'the two companies differ');
  });

  test('reports progress per phase, ending with done = total', () => {
    const phases = [...new Set(progress.map((p) => p.phase))];
    const perCompany = [
      'customers',
      'master data',
      'general ledger',
      'receivables and payables',
      'sales orders',
      'purchase orders',
      'indexes',
    ];
    assert.deepEqual(phases, [...DEMO_COMPANIES.flatMap((c) => perCompany.map((p) => `${c.id} ${p}`)), 'DYNAMICS companies']);
    for (const phase of phases) {
      const last = progress.filter((p) => p.phase === phase).at(-1);
      assert.ok(last && last.done === last.total, phase);
    }
  });
});

describe('encoding contract', () => {
  const tablesOf = (file: string) => (file === base.systemDatabase ? gpTablesOf('system') : gpTablesOf('company'));
  const allFiles = () => [base.systemDatabase, ...companyFiles(base)];

  test('numeric and integer columns hold only integers (money is scaled, never REAL)', () => {
    for (const file of allFiles()) {
      const db = open(file);
      for (const table of tablesOf(file)) {
        for (const column of table.columns.filter((c) => c.type !== 'char' && c.type !== 'datetime')) {
          assert.equal(
            count(db, `SELECT count(*) FROM ${table.name} WHERE typeof(${column.name}) <> 'integer'`),
            0,
            `${table.name}.${column.name}`,
          );
        }
      }
      db.close();
    }
  });

  test('char columns are exactly their declared length', () => {
    for (const file of allFiles()) {
      const db = open(file);
      for (const table of tablesOf(file)) {
        for (const column of table.columns.filter((c) => c.type === 'char')) {
          const wrong = count(
            db,
            `SELECT count(*) FROM ${table.name} WHERE typeof(${column.name}) <> 'text' OR length(${column.name}) <> ?`,
            column.length,
          );
          assert.equal(wrong, 0, `${table.name}.${column.name}`);
        }
      }
      db.close();
    }
  });

  test('dates are GP datetime text: date-only columns at midnight, empty dates exactly 1900-01-01', () => {
    eachCompanyDb(base, (db) => {
      for (const table of gpTablesOf('company')) {
        for (const column of table.columns.filter((c) => c.type === 'datetime')) {
          const name = `${table.name}.${column.name}`;
          const shape = column.name === 'DEX_ROW_TS' ? '____-__-__ __:__:__.___' : '____-__-__ 00:00:00.000';
          assert.equal(count(db, `SELECT count(*) FROM ${table.name} WHERE ${column.name} NOT LIKE ?`, shape), 0, name);
          const ancient = count(db, `SELECT count(*) FROM ${table.name} WHERE ${column.name} < '2000'`);
          const empty = count(db, `SELECT count(*) FROM ${table.name} WHERE ${column.name} = ?`, GP_EMPTY_DATE);
          assert.equal(ancient, empty, `${name}: every pre-2000 date is the empty date`);
        }
      }
      assert.ok(count(db, 'SELECT count(*) FROM RM00101 WHERE CREATDDT = ?', GP_EMPTY_DATE) > 0, 'some customers have no created date');
    });
  });

  test('some optional customer fields are blank, so nulls show up in the API', () => {
    eachCompanyDb(base, (db) => {
      for (const column of ['CNTCPRSN', 'CUSTCLAS', 'PYMTRMID', 'SLPRSNID', 'PHONE1', 'SHRTNAME', 'TAXSCHID']) {
        const blank = count(db, `SELECT count(*) FROM RM00101 WHERE rtrim(${column}) = ''`);
        assert.ok(blank > 0 && blank < 250, `${column}: ${blank} blank`);
      }
    });
  });
});

describe('referential consistency', () => {
  test('every journal entry balances exactly, per year and JRNENTRY', () => {
    eachCompanyDb(base, (db) => {
      for (const [table, year] of [
        ['GL20000', 'OPENYEAR'],
        ['GL30000', 'HSTYEAR'],
      ]) {
        const entries = db
          .prepare(
            `SELECT ${year} AS year, JRNENTRY, sum(DEBITAMT) AS debit, sum(CRDTAMNT) AS credit, count(*) AS lines FROM ${table} GROUP BY ${year}, JRNENTRY`,
          )
          .safeIntegers(true)
          .all() as { debit: bigint; credit: bigint; lines: bigint }[];
        assert.ok(entries.length > 300, `${table} has ${entries.length} entries`);
        for (const entry of entries) {
          assert.equal(typeof entry.debit, 'bigint');
          assert.equal(
            entry.debit,
            entry.credit,
            JSON.stringify(entry, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
          );
        }
      }
      const sizes = db
        .prepare(
          `SELECT min(n) AS min, max(n) AS max FROM (SELECT count(*) AS n FROM GL30000 WHERE SOURCDOC NOT IN (?, ?) GROUP BY HSTYEAR, JRNENTRY)`,
        )
        .get(padChar('BBF', 11), padChar('P/L', 11));
      assert.deepEqual(sizes, { min: 2, max: 6 });
    });
  });

  test('every GL line points at an account in GL00105, and GL00100/GL00105 agree', () => {
    eachCompanyDb(base, (db) => {
      for (const table of ['GL20000', 'GL30000']) {
        assert.equal(
          count(db, `SELECT count(*) FROM ${table} g WHERE NOT EXISTS (SELECT 1 FROM GL00105 a WHERE a.ACTINDX = g.ACTINDX)`),
          0,
          table,
        );
      }
      assert.equal(
        count(
          db,
          'SELECT count(*) FROM GL00100 a FULL JOIN GL00105 b ON a.ACTINDX = b.ACTINDX WHERE a.ACTINDX IS NULL OR b.ACTINDX IS NULL',
        ),
        0,
      );
      assert.equal(
        count(db, "SELECT count(*) FROM GL00105 WHERE ACTNUMST NOT GLOB '[0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]-[0-9][0-9] *'"),
        0,
      );
    });
  });

  test('every customer has its primary, bill-to, ship-to and statement addresses in RM00102', () => {
    eachCompanyDb(base, (db) => {
      for (const column of ['ADRSCODE', 'PRBTADCD', 'PRSTADCD', 'STADDRCD']) {
        const missing = count(
          db,
          `SELECT count(*) FROM RM00101 c WHERE NOT EXISTS (SELECT 1 FROM RM00102 a WHERE a.CUSTNMBR = c.CUSTNMBR AND a.ADRSCODE = c.${column})`,
        );
        assert.equal(missing, 0, column);
      }
      assert.equal(count(db, 'SELECT count(*) FROM RM00102 a WHERE NOT EXISTS (SELECT 1 FROM RM00101 c WHERE c.CUSTNMBR = a.CUSTNMBR)'), 0);
      const perCustomer = db
        .prepare('SELECT min(n) AS min, max(n) AS max FROM (SELECT count(*) AS n FROM RM00102 GROUP BY CUSTNMBR)')
        .get();
      assert.deepEqual(perCustomer, { min: 1, max: 3 });
    });
  });

  test('sales-series GL lines name real customers; other series name none of them', () => {
    eachCompanyDb(base, (db) => {
      for (const table of ['GL20000', 'GL30000']) {
        const sales = count(db, `SELECT count(*) FROM ${table} WHERE SERIES = 3`);
        const orphans = count(
          db,
          `SELECT count(*) FROM ${table} g WHERE SERIES = 3 AND NOT EXISTS (SELECT 1 FROM RM00101 c WHERE rtrim(c.CUSTNMBR) = rtrim(g.ORMSTRID))`,
        );
        assert.ok(sales > 0, table);
        assert.equal(orphans, 0, table);
      }
      assert.deepEqual(db.prepare('SELECT DISTINCT SERIES FROM GL30000 ORDER BY 1').pluck().all(), [2, 3, 4, 5]);
    });
  });

  test("history has BBF and P/L rows; the open year starts with last year's close", () => {
    eachCompanyDb(base, (db) => {
      const closing = (table: string, year: string) =>
        db
          .prepare(
            `SELECT ${year} AS year, rtrim(SOURCDOC) AS source, count(*) AS n FROM ${table} WHERE SOURCDOC IN (?, ?) GROUP BY 1, 2 ORDER BY 1, 2`,
          )
          .all(padChar('BBF', 11), padChar('P/L', 11)) as { year: number; source: string; n: number }[];
      const history = closing('GL30000', 'HSTYEAR').map(({ year, source }) => `${year} ${source}`);
      assert.deepEqual(history, ['2024 BBF', '2025 BBF', '2025 P/L']);
      assert.deepEqual(
        closing('GL20000', 'OPENYEAR').map(({ year, source }) => `${year} ${source}`),
        ['2026 BBF', '2026 P/L'],
      );
      assert.equal(
        count(
          db,
          "SELECT count(*) FROM GL30000 WHERE SOURCDOC IN (?, ?) AND (PERIODID <> 0 OR substr(TRXDATE, 6, 5) <> '01-01')",
          padChar('BBF', 11),
          padChar('P/L', 11),
        ),
        0,
      );
      assert.deepEqual(db.prepare('SELECT DISTINCT OPENYEAR FROM GL20000').pluck().all(), [2026]);
      assert.deepEqual(db.prepare('SELECT DISTINCT HSTYEAR FROM GL30000 ORDER BY 1').pluck().all(), [2024, 2025]);
    });
  });

  test('transaction dates fall inside their year, and SY40101 marks the history years', () => {
    eachCompanyDb(base, (db) => {
      assert.equal(count(db, 'SELECT count(*) FROM GL30000 WHERE substr(TRXDATE, 1, 4) <> CAST(HSTYEAR AS TEXT)'), 0);
      assert.equal(count(db, 'SELECT count(*) FROM GL20000 WHERE substr(TRXDATE, 1, 4) <> CAST(OPENYEAR AS TEXT)'), 0);
      assert.deepEqual(db.prepare('SELECT YEAR1 AS year, HISTORYR AS history, NUMOFPER AS periods FROM SY40101 ORDER BY YEAR1').all(), [
        { year: 2024, history: 1, periods: 12 },
        { year: 2025, history: 1, periods: 12 },
        { year: 2026, history: 0, periods: 12 },
      ]);
    });
  });

  test('DEX_ROW_TS is in the past, roughly follows DEX_ROW_ID, and is not strictly increasing', () => {
    const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
    eachCompanyDb(base, (db) => {
      for (const table of gpTablesOf('company').filter((t) => t.hasRowTs)) {
        assert.ok(
          (db.prepare(`SELECT max(DEX_ROW_TS) FROM ${table.name}`).pluck().get() as string) <= '2026-10-31 23:59:59.999',
          table.name,
        );
      }
      for (const table of ['RM00101', 'RM00102', 'GL20000', 'GL30000']) {
        assert.ok((db.prepare(`SELECT max(DEX_ROW_TS) FROM ${table}`).pluck().get() as string) < now, table);
        const inversions = count(
          db,
          `SELECT count(*) FROM (SELECT DEX_ROW_TS < lag(DEX_ROW_TS) OVER (ORDER BY DEX_ROW_ID) AS inv FROM ${table}) WHERE inv`,
        );
        assert.ok(inversions > 0, `${table} has no out-of-order timestamps`);
      }
      const span = db.prepare('SELECT min(DEX_ROW_TS) AS first, max(DEX_ROW_TS) AS last FROM RM00101').get() as {
        first: string;
        last: string;
      };
      assert.ok(span.first < '2024-03' && span.last > '2026-08', JSON.stringify(span));
      const firstTenth = db
        .prepare('SELECT max(DEX_ROW_TS) FROM (SELECT DEX_ROW_TS FROM RM00101 ORDER BY DEX_ROW_ID LIMIT 50)')
        .pluck()
        .get() as string;
      const lastTenth = db
        .prepare('SELECT min(DEX_ROW_TS) FROM (SELECT DEX_ROW_TS FROM RM00101 ORDER BY DEX_ROW_ID DESC LIMIT 50)')
        .pluck()
        .get() as string;
      assert.ok(firstTenth < lastTenth, 'early rows are older than late rows');
      assert.equal(
        count(
          db,
          'SELECT count(*) FROM RM00101 c WHERE EXISTS (SELECT 1 FROM RM00102 a WHERE a.CUSTNMBR = c.CUSTNMBR AND a.DEX_ROW_TS > c.DEX_ROW_TS)',
        ),
        0,
        'a customer is never older than its addresses',
      );
    });
  });
});

describe('master data and documents', () => {
  const rows = <T>(db: Database.Database, sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .safeIntegers(true)
      .all(...params) as T[];
  const values = (db: Database.Database, sql: string) =>
    (db.prepare(sql).pluck().all() as (number | string)[]).map((v) => (typeof v === 'string' ? v.trimEnd() : v));
  const none = (db: Database.Database, what: string, sql: string, ...params: unknown[]) => assert.equal(count(db, sql, ...params), 0, what);
  const both = (open: string, history: string) => [open, history] as const;
  /** Every non-blank `column` of `table` is a `targetColumn` of `target`: a reference GP lets stay blank. */
  const blankOrKnown = (db: Database.Database, what: string, table: string, column: string, target: string, targetColumn = column) =>
    none(
      db,
      what,
      `SELECT count(*) FROM ${table} d WHERE rtrim(${column}) <> '' AND NOT EXISTS (SELECT 1 FROM ${target} t WHERE t.${targetColumn} = d.${column})`,
    );

  test('has the master data the catalogue reads, at the documented sizes', () => {
    eachCompanyDb(base, (db) => {
      assert.equal(count(db, 'SELECT count(*) FROM PM00200'), 150);
      assert.equal(count(db, 'SELECT count(*) FROM IV00101'), 300);
      const addresses = db.prepare('SELECT min(n) AS min, max(n) AS max FROM (SELECT count(*) AS n FROM PM00300 GROUP BY VENDORID)').get();
      assert.deepEqual(addresses, { min: 1, max: 2 });
      assert.deepEqual(values(db, 'SELECT DISTINCT VENDSTTS FROM PM00200 ORDER BY 1'), [1, 2, 3]);
      assert.deepEqual(values(db, 'SELECT DISTINCT TEN99TYPE FROM PM00200 ORDER BY 1'), [1, 2, 3, 4, 5]);
      assert.ok(count(db, 'SELECT count(*) FROM PM00200 WHERE HOLD = 1') > 0, 'vendors on hold');
      assert.deepEqual(values(db, 'SELECT DISTINCT ITEMTYPE FROM IV00101 ORDER BY 1'), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(values(db, 'SELECT DISTINCT ITMTRKOP FROM IV00101 ORDER BY 1'), [1, 2, 3]);
      const sites = count(db, 'SELECT count(*) FROM IV40700');
      assert.ok(sites >= 4 && sites <= 6, `${sites} sites`);
      assert.ok(count(db, 'SELECT count(*) FROM IV40700 WHERE LOCNCODE = ?', padChar('WAREHOUSE', 11)) === 1);
      assert.deepEqual(values(db, 'SELECT DISTINCT DUETYPE FROM SY03300 ORDER BY 1'), [1, 2, 3, 4, 5]);
      assert.equal(count(db, 'SELECT DSCPCTAM FROM SY03300 WHERE PYMTRMID = ?', padChar('2% 10/Net 30', 21)), 200);
      assert.ok(count(db, 'SELECT count(*) FROM RM00301') >= 8 && count(db, 'SELECT count(*) FROM RM00301 WHERE INACTIVE = 1') > 0);
      const checkbooks = count(db, 'SELECT count(*) FROM CM00100');
      assert.ok(checkbooks >= 3 && checkbooks <= 4, `${checkbooks} checkbooks`);
      none(
        db,
        'checkbook cash accounts',
        'SELECT count(*) FROM CM00100 c WHERE NOT EXISTS (SELECT 1 FROM GL00105 a WHERE a.ACTINDX = c.ACTINDX)',
      );
      assert.ok(count(db, 'SELECT count(*) FROM CM00100 WHERE CURRBLNC > 0') >= 3, 'checkbooks have balances');
      const sources = values(db, 'SELECT DISTINCT BCHSOURC FROM SY00500 ORDER BY 1');
      assert.deepEqual(sources, ['GL_Normal', 'PM_Payment', 'PM_Trxent', 'RM_Cash', 'RM_Sales', 'Sales Entry']);
      assert.deepEqual(values(db, 'SELECT DISTINCT SERIES FROM SY00500 ORDER BY 1'), [2, 3, 4]);
      assert.ok(count(db, 'SELECT count(*) FROM SY00500 WHERE MKDTOPST = 1') > 0, 'some batches are marked to post');
    });
  });

  test('every reference between master data resolves', () => {
    eachCompanyDb(base, (db) => {
      none(
        db,
        'vendor addresses',
        'SELECT count(*) FROM PM00300 a WHERE NOT EXISTS (SELECT 1 FROM PM00200 v WHERE v.VENDORID = a.VENDORID)',
      );
      for (const column of ['VADDCDPR', 'VADCDPAD', 'VADCDSFR', 'VADCDTRO']) {
        none(
          db,
          column,
          `SELECT count(*) FROM PM00200 v WHERE NOT EXISTS (SELECT 1 FROM PM00300 a WHERE a.VENDORID = v.VENDORID AND a.ADRSCODE = v.${column})`,
        );
      }
      for (const table of ['RM00101', 'PM00200']) {
        blankOrKnown(db, `${table} terms`, table, 'PYMTRMID', 'SY03300');
        blankOrKnown(db, `${table} checkbooks`, table, 'CHEKBKID', 'CM00100');
      }
      blankOrKnown(db, 'customer salespeople', 'RM00101', 'SLPRSNID', 'RM00301');
      blankOrKnown(db, 'address sites', 'RM00102', 'LOCNCODE', 'IV40700');
      none(db, 'quantity items', 'SELECT count(*) FROM IV00102 q WHERE NOT EXISTS (SELECT 1 FROM IV00101 i WHERE i.ITEMNMBR = q.ITEMNMBR)');
      none(
        db,
        'quantity sites',
        'SELECT count(*) FROM IV00102 q WHERE RCRDTYPE = 2 AND NOT EXISTS (SELECT 1 FROM IV40700 s WHERE s.LOCNCODE = q.LOCNCODE)',
      );
      none(db, 'overall rows have a blank site', "SELECT count(*) FROM IV00102 WHERE RCRDTYPE = 1 AND rtrim(LOCNCODE) <> ''");
      blankOrKnown(db, 'primary vendors', 'IV00102', 'PRIMVNDR', 'PM00200', 'VENDORID');
      none(
        db,
        'inventory items have both kinds of rows',
        'SELECT count(*) FROM IV00101 i WHERE ITEMTYPE IN (1, 2) AND (NOT EXISTS (SELECT 1 FROM IV00102 q WHERE q.ITEMNMBR = i.ITEMNMBR AND RCRDTYPE = 1) OR NOT EXISTS (SELECT 1 FROM IV00102 q WHERE q.ITEMNMBR = i.ITEMNMBR AND RCRDTYPE = 2))',
      );
      const columns = ['QTYONHND', 'ATYALLOC', 'QTYONORD', 'QTYBKORD', 'QTYSOLD', 'QTYRTRND', 'QTYDMGED'];
      const mismatched = count(
        db,
        `SELECT count(*) FROM IV00102 o JOIN (SELECT ITEMNMBR, ${columns.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM IV00102 WHERE RCRDTYPE = 2 GROUP BY ITEMNMBR) s ON s.ITEMNMBR = o.ITEMNMBR ` +
          `WHERE o.RCRDTYPE = 1 AND (${columns.map((c) => `o.${c} <> s.${c}`).join(' OR ')})`,
      );
      assert.equal(mismatched, 0, 'RCRDTYPE 1 rows are the sum of their site rows');
      none(db, 'allocated within on hand', 'SELECT count(*) FROM IV00102 WHERE ATYALLOC > QTYONHND');
    });
  });

  test('open and history tables are both in use, with voided and foreign-currency documents', () => {
    eachCompanyDb(base, (db) => {
      for (const [open, history] of [
        both('RM20101', 'RM30101'),
        both('PM20000', 'PM30200'),
        both('SOP10100', 'SOP30200'),
        both('POP10100', 'POP30100'),
      ]) {
        assert.ok(count(db, `SELECT count(*) FROM ${open}`) > 20, open);
        assert.ok(count(db, `SELECT count(*) FROM ${history}`) > 20, history);
        assert.ok(
          count(
            db,
            `SELECT (SELECT count(*) FROM ${open} WHERE CURNCYID <> 'Z-US$') + (SELECT count(*) FROM ${history} WHERE CURNCYID <> 'Z-US$')`,
          ) > 0,
          `${open}/${history} currencies`,
        );
      }
      assert.deepEqual(values(db, 'SELECT RMDTYPAL FROM RM20101 UNION SELECT RMDTYPAL FROM RM30101 ORDER BY 1'), [1, 3, 4, 5, 6, 7, 8, 9]);
      assert.deepEqual(values(db, 'SELECT DOCTYPE FROM PM20000 UNION SELECT DOCTYPE FROM PM30200 ORDER BY 1'), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(values(db, 'SELECT SOPTYPE FROM SOP10100 UNION SELECT SOPTYPE FROM SOP30200 ORDER BY 1'), [1, 2, 3, 4, 5]);
      for (const table of ['RM20101', 'RM30101'])
        for (const type of [1, 9])
          assert.ok(count(db, `SELECT count(*) FROM ${table} WHERE RMDTYPAL = ?`, type) > 0, `${table} type ${type}`);
      for (const table of ['PM20000', 'PM30200'])
        for (const type of [1, 6])
          assert.ok(count(db, `SELECT count(*) FROM ${table} WHERE DOCTYPE = ?`, type) > 0, `${table} type ${type}`);
      assert.ok(count(db, 'SELECT count(*) FROM RM30101 WHERE VOIDSTTS = 1') > 0, 'voided receivables');
      assert.ok(count(db, 'SELECT count(*) FROM PM30200 WHERE VOIDED = 1') > 0, 'voided payables');
      assert.ok(count(db, 'SELECT count(*) FROM SOP30200 WHERE VOIDSTTS = 1') > 0, 'voided sales documents');
      assert.deepEqual(values(db, 'SELECT DISTINCT POSTATUS FROM POP30100 ORDER BY 1'), [4, 5, 6]);
      for (const status of [1, 2])
        assert.ok(count(db, 'SELECT count(*) FROM POP10100 WHERE POSTATUS = ?', status) > 0, `open POs with status ${status}`);
      assert.ok(count(db, "SELECT count(*) FROM RM20101 WHERE RMDTYPAL = 9 AND rtrim(CHEKNMBR) <> ''") > 0, 'payments carry check numbers');
      assert.deepEqual(values(db, 'SELECT DISTINCT DOCID FROM SOP30200 WHERE SOPTYPE = 3'), ['STDINV']);
    });
    const statuses = new Set<number>();
    const types = new Set<number>();
    eachCompanyDb(base, (db) => {
      for (const table of ['POP10100', 'POP30100']) {
        for (const v of values(db, `SELECT DISTINCT POSTATUS FROM ${table}`)) statuses.add(Number(v));
        for (const v of values(db, `SELECT DISTINCT POTYPE FROM ${table}`)) types.add(Number(v));
      }
    });
    assert.deepEqual([...statuses].sort(), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual([...types].sort(), [1, 2, 3, 4]);
  });

  test('every document names a real customer, vendor, batch, terms and site; every line a real document', () => {
    eachCompanyDb(base, (db) => {
      for (const table of ['RM20101', 'RM30101', 'SOP10100', 'SOP30200']) {
        none(
          db,
          `${table} customers`,
          `SELECT count(*) FROM ${table} d WHERE NOT EXISTS (SELECT 1 FROM RM00101 c WHERE c.CUSTNMBR = d.CUSTNMBR)`,
        );
      }
      for (const table of ['PM20000', 'PM30200', 'POP10100', 'POP30100', 'POP10110', 'POP30110']) {
        none(
          db,
          `${table} vendors`,
          `SELECT count(*) FROM ${table} d WHERE NOT EXISTS (SELECT 1 FROM PM00200 v WHERE v.VENDORID = d.VENDORID)`,
        );
      }
      for (const table of ['RM20101', 'RM30101', 'PM20000', 'PM30200', 'SOP10100', 'SOP30200']) {
        none(
          db,
          `${table} batches`,
          `SELECT count(*) FROM ${table} d WHERE NOT EXISTS (SELECT 1 FROM SY00500 b WHERE b.BCHSOURC = d.BCHSOURC AND b.BACHNUMB = d.BACHNUMB)`,
        );
        none(db, `${table} blank batches`, `SELECT count(*) FROM ${table} WHERE BACHNUMB = ''`);
        blankOrKnown(db, `${table} terms`, table, 'PYMTRMID', 'SY03300');
      }
      for (const table of ['POP10100', 'POP30100']) {
        blankOrKnown(db, `${table} terms`, table, 'PYMTRMID', 'SY03300');
        blankOrKnown(db, `${table} drop-ship customers`, table, 'CUSTNMBR', 'RM00101');
      }
      for (const [headers, lines] of [both('SOP10100', 'SOP10200'), both('SOP30200', 'SOP30300')]) {
        none(
          db,
          `${lines} documents`,
          `SELECT count(*) FROM ${lines} l WHERE NOT EXISTS (SELECT 1 FROM ${headers} h WHERE h.SOPNUMBE = l.SOPNUMBE AND h.SOPTYPE = l.SOPTYPE)`,
        );
        none(
          db,
          `${headers} without lines`,
          `SELECT count(*) FROM ${headers} h WHERE NOT EXISTS (SELECT 1 FROM ${lines} l WHERE h.SOPNUMBE = l.SOPNUMBE AND h.SOPTYPE = l.SOPTYPE)`,
        );
        none(
          db,
          `${lines} items`,
          `SELECT count(*) FROM ${lines} l WHERE NOT EXISTS (SELECT 1 FROM IV00101 i WHERE i.ITEMNMBR = l.ITEMNMBR)`,
        );
        for (const table of [headers, lines]) blankOrKnown(db, `${table} sites`, table, 'LOCNCODE', 'IV40700');
        none(
          db,
          `${lines} top-level lines`,
          `SELECT count(*) FROM (SELECT SOPNUMBE, SOPTYPE, count(*) AS n FROM ${lines} WHERE CMPNTSEQ = 0 GROUP BY 1, 2) WHERE n > 5`,
        );
        none(
          db,
          `${lines} components belong to a kit line`,
          `SELECT count(*) FROM ${lines} c WHERE CMPNTSEQ > 0 AND NOT EXISTS (SELECT 1 FROM ${lines} k JOIN IV00101 i ON i.ITEMNMBR = k.ITEMNMBR AND i.ITEMTYPE = 3 WHERE k.SOPNUMBE = c.SOPNUMBE AND k.SOPTYPE = c.SOPTYPE AND k.LNITMSEQ = c.LNITMSEQ AND k.CMPNTSEQ = 0)`,
        );
      }
      assert.ok(count(db, 'SELECT count(*) FROM SOP30300 WHERE CMPNTSEQ > 0') > 0, 'kit components in history');
      none(
        db,
        'transferred orders are in history',
        "SELECT count(*) FROM SOP30200 i WHERE rtrim(ORIGNUMB) <> '' AND NOT EXISTS (SELECT 1 FROM SOP30200 o WHERE o.SOPNUMBE = i.ORIGNUMB AND o.SOPTYPE = i.ORIGTYPE)",
      );
      for (const [headers, lines] of [both('POP10100', 'POP10110'), both('POP30100', 'POP30110')]) {
        none(
          db,
          `${lines} documents`,
          `SELECT count(*) FROM ${lines} l WHERE NOT EXISTS (SELECT 1 FROM ${headers} h WHERE h.PONUMBER = l.PONUMBER)`,
        );
        none(
          db,
          `${headers} without lines`,
          `SELECT count(*) FROM ${headers} h WHERE NOT EXISTS (SELECT 1 FROM ${lines} l WHERE h.PONUMBER = l.PONUMBER)`,
        );
        none(
          db,
          `${lines} items`,
          `SELECT count(*) FROM ${lines} l WHERE NONINVEN = 0 AND NOT EXISTS (SELECT 1 FROM IV00101 i WHERE i.ITEMNMBR = l.ITEMNMBR)`,
        );
        blankOrKnown(db, `${lines} sites`, lines, 'LOCNCODE', 'IV40700');
      }
      none(db, 'a PO is open or history, not both', 'SELECT count(*) FROM POP10100 o JOIN POP30100 h ON h.PONUMBER = o.PONUMBER');
      none(
        db,
        'a sales document is work or history, not both',
        'SELECT count(*) FROM SOP10100 o JOIN SOP30200 h ON h.SOPNUMBE = o.SOPNUMBE AND h.SOPTYPE = o.SOPTYPE',
      );
      none(
        db,
        'a receivable is open or history, not both',
        'SELECT count(*) FROM RM20101 o JOIN RM30101 h ON h.RMDTYPAL = o.RMDTYPAL AND h.DOCNUMBR = o.DOCNUMBR',
      );
      none(
        db,
        'a payable is open or history, not both',
        'SELECT count(*) FROM PM20000 o JOIN PM30200 h ON h.DOCTYPE = o.DOCTYPE AND h.VCHRNMBR = o.VCHRNMBR',
      );
    });
  });

  test('amounts add up exactly: lines to subtotals, parts to totals, remaining within original', () => {
    eachCompanyDb(base, (db) => {
      for (const [headers, lines] of [both('SOP10100', 'SOP10200'), both('SOP30200', 'SOP30300')]) {
        none(
          db,
          `${lines} sum to SUBTOTAL`,
          `SELECT count(*) FROM ${headers} h JOIN (SELECT SOPNUMBE, SOPTYPE, sum(XTNDPRCE) AS total, sum(OXTNDPRC) AS ortotal FROM ${lines} GROUP BY 1, 2) l ON l.SOPNUMBE = h.SOPNUMBE AND l.SOPTYPE = h.SOPTYPE WHERE l.total <> h.SUBTOTAL OR l.ortotal <> h.ORSUBTOT`,
        );
        none(
          db,
          `${lines} taxes sum to TAXAMNT`,
          `SELECT count(*) FROM ${headers} h JOIN (SELECT SOPNUMBE, SOPTYPE, sum(TAXAMNT) AS total FROM ${lines} GROUP BY 1, 2) l ON l.SOPNUMBE = h.SOPNUMBE AND l.SOPTYPE = h.SOPTYPE WHERE l.total <> h.TAXAMNT`,
        );
        none(
          db,
          `${headers} DOCAMNT`,
          `SELECT count(*) FROM ${headers} WHERE DOCAMNT <> SUBTOTAL - TRDISAMT + FRTAMNT + MISCAMNT + TAXAMNT`,
        );
        none(
          db,
          `${lines} extended = quantity x price`,
          `SELECT count(*) FROM ${lines} WHERE abs(QUANTITY * UNITPRCE / 100000 - XTNDPRCE) > 500`,
        );
        none(db, `${lines} components carry no price`, `SELECT count(*) FROM ${lines} WHERE CMPNTSEQ > 0 AND XTNDPRCE <> 0`);
      }
      for (const [headers, lines] of [both('POP10100', 'POP10110'), both('POP30100', 'POP30110')]) {
        none(
          db,
          `${lines} sum to SUBTOTAL`,
          `SELECT count(*) FROM ${headers} h JOIN (SELECT PONUMBER, sum(EXTDCOST) AS total, sum(OREXTCST) AS ortotal FROM ${lines} GROUP BY 1) l ON l.PONUMBER = h.PONUMBER WHERE l.total <> h.SUBTOTAL OR l.ortotal <> h.ORSUBTOT`,
        );
        none(db, `${lines} quantities`, `SELECT count(*) FROM ${lines} WHERE QTYCANCE > QTYORDER OR QTYORDER <= 0`);
      }
      none(
        db,
        'canceled POs are fully canceled',
        'SELECT count(*) FROM POP30110 l JOIN POP30100 h ON h.PONUMBER = l.PONUMBER WHERE h.POSTATUS = 6 AND (l.QTYCANCE <> l.QTYORDER OR l.POLNESTA <> 6)',
      );
      for (const table of ['RM20101', 'RM30101']) {
        none(
          db,
          `${table} ORTRXAMT`,
          `SELECT count(*) FROM ${table} WHERE ORTRXAMT <> SLSAMNT - TRDISAMT + FRTAMNT + MISCAMNT + TAXAMNT AND RMDTYPAL <> 9`,
        );
        none(db, `${table} remaining`, `SELECT count(*) FROM ${table} WHERE CURTRXAM < 0 OR CURTRXAM > ORTRXAMT OR ORTRXAMT <= 0`);
      }
      for (const table of ['PM20000', 'PM30200']) {
        none(
          db,
          `${table} DOCAMNT`,
          `SELECT count(*) FROM ${table} WHERE DOCAMNT <> PRCHAMNT - TRDISAMT + FRTAMNT + MSCCHAMT + TAXAMNT AND DOCTYPE <> 6`,
        );
        none(db, `${table} remaining`, `SELECT count(*) FROM ${table} WHERE CURTRXAM < 0 OR CURTRXAM > DOCAMNT OR DOCAMNT <= 0`);
      }
      for (const table of ['RM30101', 'PM30200']) none(db, `${table} is settled`, `SELECT count(*) FROM ${table} WHERE CURTRXAM <> 0`);
      none(
        db,
        'voided documents have nothing left',
        'SELECT (SELECT count(*) FROM RM30101 WHERE VOIDSTTS = 1 AND CURTRXAM <> 0) + (SELECT count(*) FROM PM30200 WHERE VOIDED = 1 AND CURTRXAM <> 0)',
      );
      assert.ok(count(db, 'SELECT count(*) FROM RM20101 WHERE CURTRXAM > 0 AND CURTRXAM < ORTRXAMT') > 0, 'partly paid invoices');
      none(
        db,
        'batch totals',
        'SELECT count(*) FROM SY00500 b WHERE BCHSOURC IN (?, ?) AND (NUMOFTRX, BCHTOTAL) <> (SELECT count(*), sum(ORTRXAMT) FROM (SELECT BCHSOURC, BACHNUMB, ORTRXAMT FROM RM20101 UNION ALL SELECT BCHSOURC, BACHNUMB, ORTRXAMT FROM RM30101 UNION ALL SELECT BCHSOURC, BACHNUMB, DOCAMNT FROM RM10301) d WHERE d.BCHSOURC = b.BCHSOURC AND d.BACHNUMB = b.BACHNUMB)',
        padChar('RM_Sales', 15),
        padChar('RM_Cash', 15),
      );
    });
  });

  test("unposted receivables and payables carry eConnect's distributions: balanced, the document's amount, on active posting accounts", () => {
    eachCompanyDb(base, (db) => {
      assert.ok(count(db, 'SELECT count(*) FROM SY01100') > 0, 'the posting setup is filled');
      assert.equal(
        count(
          db,
          'SELECT count(*) FROM SY01100 s LEFT JOIN GL00100 a ON a.ACTINDX = s.ACTINDX WHERE a.ACTIVE IS NOT 1 OR a.ACCTTYPE IS NOT 1',
        ),
        0,
        'every posting setup slot names an active posting account',
      );
      for (const [documents, distributions, key, distKey] of [
        ['RM10301', 'RM10101', 'DOCNUMBR', 'DOCNUMBR'],
        ['PM10000', 'PM10100', 'VCHRNMBR', 'VCHRNMBR'],
      ] as const) {
        assert.ok(count(db, `SELECT count(*) FROM ${documents}`) > 0);
        assert.equal(
          count(
            db,
            `SELECT count(*) FROM ${documents} d WHERE (SELECT count(*) FROM ${distributions} x WHERE x.${distKey} = d.${key}) < 2 ` +
              `OR d.DOCAMNT <> (SELECT sum(DEBITAMT) FROM ${distributions} x WHERE x.${distKey} = d.${key}) ` +
              `OR d.DOCAMNT <> (SELECT sum(CRDTAMNT) FROM ${distributions} x WHERE x.${distKey} = d.${key})`,
          ),
          0,
          `${distributions}: debits = credits = the document's amount`,
        );
        assert.equal(
          count(
            db,
            `SELECT count(*) FROM ${distributions} x LEFT JOIN GL00100 a ON a.ACTINDX = x.DSTINDX WHERE a.ACTIVE IS NOT 1 OR a.ACCTTYPE IS NOT 1`,
          ),
          0,
          `${distributions}: every line on an active posting account`,
        );
      }
    });
  });

  test("the general ledger's subledger lines name the receivables and payables documents", () => {
    eachCompanyDb(base, (db) => {
      const rm = (type: number) =>
        `(SELECT CUSTNMBR, DOCNUMBR, ORTRXAMT FROM RM20101 WHERE RMDTYPAL = ${type} UNION ALL SELECT CUSTNMBR, DOCNUMBR, ORTRXAMT FROM RM30101 WHERE RMDTYPAL = ${type})`;
      const pm = (type: number) =>
        `(SELECT VENDORID, VCHRNMBR, DOCAMNT FROM PM20000 WHERE DOCTYPE = ${type} UNION ALL SELECT VENDORID, VCHRNMBR, DOCAMNT FROM PM30200 WHERE DOCTYPE = ${type})`;
      for (const table of ['GL20000', 'GL30000']) {
        const pad = (column: string, length: number) => `substr(${column} || '${' '.repeat(length)}', 1, ${length})`;
        none(
          db,
          `${table} SJ`,
          `SELECT count(*) FROM ${table} g WHERE SOURCDOC = 'SJ' AND NOT EXISTS (SELECT 1 FROM ${rm(1)} d WHERE d.DOCNUMBR = ${pad('rtrim(g.ORDOCNUM)', 21)} AND d.CUSTNMBR = ${pad('rtrim(g.ORMSTRID)', 15)})`.replace(
            "'SJ'",
            `'${'SJ'.padEnd(11)}'`,
          ),
        );
        none(
          db,
          `${table} CRJ`,
          `SELECT count(*) FROM ${table} g WHERE SOURCDOC = '${'CRJ'.padEnd(11)}' AND NOT EXISTS (SELECT 1 FROM ${rm(9)} d WHERE d.DOCNUMBR = ${pad('rtrim(g.ORDOCNUM)', 21)})`,
        );
        none(
          db,
          `${table} PJ`,
          `SELECT count(*) FROM ${table} g WHERE SOURCDOC = '${'PJ'.padEnd(11)}' AND NOT EXISTS (SELECT 1 FROM ${pm(1)} d WHERE d.VCHRNMBR = ${pad('rtrim(g.ORCTRNUM)', 21)} AND d.VENDORID = ${pad('rtrim(g.ORMSTRID)', 15)})`,
        );
        none(
          db,
          `${table} CDJ`,
          `SELECT count(*) FROM ${table} g WHERE SOURCDOC = '${'CDJ'.padEnd(11)}' AND NOT EXISTS (SELECT 1 FROM ${pm(6)} d WHERE d.VCHRNMBR = ${pad('rtrim(g.ORCTRNUM)', 21)})`,
        );
      }
      const invoices = rows<{ receivable: bigint; document: bigint }>(
        db,
        `SELECT (SELECT sum(DEBITAMT) FROM GL20000 WHERE SOURCDOC = ? AND ACTINDX = (SELECT ACTINDX FROM GL00100 WHERE ACTALIAS = ?)) AS receivable, (SELECT coalesce(sum(ORTRXAMT), 0) FROM RM20101 WHERE RMDTYPAL = 1 AND GLPOSTDT >= '2026') + (SELECT coalesce(sum(ORTRXAMT), 0) FROM RM30101 WHERE RMDTYPAL = 1 AND GLPOSTDT >= '2026') AS document`,
        padChar('SJ', 11),
        padChar('AR', 21),
      );
      assert.equal(invoices[0]?.document, invoices[0]?.receivable, 'invoices total what the GL debited to receivables in 2026');
    });
  });

  test('fiscal periods: the period-level rows the API reads, with per-series closing', () => {
    eachCompanyDb(base, (db) => {
      const periods = db
        .prepare(
          'SELECT YEAR1 AS year, count(*) AS n, min(PERIODID) AS first, max(PERIODID) AS last FROM SY40100 WHERE FORIGIN = 1 AND SERIES = 0 AND PERIODID > 0 GROUP BY 1 ORDER BY 1',
        )
        .all();
      assert.deepEqual(
        periods,
        [2024, 2025, 2026].map((year) => ({ year, n: 12, first: 1, last: 12 })),
      );
      assert.equal(
        count(db, 'SELECT count(*) FROM SY40100 WHERE PERIODID = 0 AND SERIES = 2'),
        3 * 2,
        'a period 0 row per year and origin',
      );
      none(
        db,
        'periods are months',
        "SELECT count(*) FROM SY40100 WHERE PERIODID > 0 AND (substr(PERIODDT, 6, 2) <> printf('%02d', PERIODID) OR substr(PERIODDT, 9) <> '01 00:00:00.000' OR substr(PERDENDT, 1, 7) <> substr(PERIODDT, 1, 7))",
      );
      none(
        db,
        '2024 is closed',
        'SELECT count(*) FROM SY40100 WHERE YEAR1 = 2024 AND FORIGIN = 1 AND SERIES = 0 AND PSERIES_1 + PSERIES_2 + PSERIES_3 + PSERIES_4 + PSERIES_5 + PSERIES_6 <> 6',
      );
      none(
        db,
        '2025 Financial is closed',
        'SELECT count(*) FROM SY40100 WHERE YEAR1 = 2025 AND FORIGIN = 1 AND SERIES = 0 AND PSERIES_1 <> 1',
      );
      const open2026 = count(
        db,
        'SELECT count(*) FROM SY40100 WHERE YEAR1 = 2026 AND FORIGIN = 1 AND SERIES = 0 AND PERIODID > 0 AND PSERIES_1 = 0',
      );
      assert.ok(open2026 > 0 && open2026 < 12, `${open2026} open Financial periods in 2026`);
      none(
        db,
        'origin rows agree with the period rows',
        'SELECT count(*) FROM SY40100 o JOIN SY40100 p ON p.YEAR1 = o.YEAR1 AND p.PERIODID = o.PERIODID AND p.FORIGIN = 1 AND p.SERIES = 0 WHERE o.FORIGIN = 0 AND o.CLOSED <> CASE o.SERIES WHEN 2 THEN p.PSERIES_1 WHEN 3 THEN p.PSERIES_2 WHEN 4 THEN p.PSERIES_3 WHEN 5 THEN p.PSERIES_4 WHEN 6 THEN p.PSERIES_5 ELSE p.PSERIES_6 END',
      );
    });
  });
});

describe('live use of a generated database', () => {
  let file: string;
  before(() => {
    file = path.join(root, 'live.sqlite');
    fs.copyFileSync(base.companyDatabases.TWO as string, file);
  });

  test('opens in WAL mode: a read-only reader sees rows a writer commits', () => {
    const reader = new Database(file, { readonly: true });
    const writer = open(file, false);
    assert.equal(reader.pragma('journal_mode', { simple: true }), 'wal');
    const before = count(reader, 'SELECT count(*) FROM RM00101');
    writer.prepare("INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, 'Inserted mid-walk')").run('ZZLIVE0001');
    assert.equal(count(reader, 'SELECT count(*) FROM RM00101'), before + 1);
    assert.equal(count(reader, 'SELECT count(*) FROM RM00101 WHERE CUSTNMBR = ?', padChar('zzlive0001', 15)), 1);
    reader.close();
    writer.close();
  });

  test('an UPDATE bumps DEX_ROW_TS to the current UTC time', () => {
    const db = open(file, false);
    const id = db.prepare('SELECT CUSTNMBR FROM RM00101 ORDER BY DEX_ROW_ID LIMIT 1').pluck().get() as string;
    const stamp = () => db.prepare('SELECT DEX_ROW_TS FROM RM00101 WHERE CUSTNMBR = ?').pluck().get(id) as string;
    const old = stamp();
    const started = new Date().toISOString().replace('T', ' ').slice(0, 23);
    db.prepare('UPDATE RM00101 SET HOLD = 1 - HOLD WHERE CUSTNMBR = ?').run(id);
    assert.ok(stamp() > old && stamp() >= started, `${old} -> ${stamp()}`);
    db.close();
  });

  test("GP's primary keys reject duplicates", () => {
    const db = open(file, false);
    const customer = db.prepare('SELECT CUSTNMBR, ADRSCODE FROM RM00102 LIMIT 1').get() as { CUSTNMBR: string; ADRSCODE: string };
    assert.throws(
      () => db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)').run(customer.CUSTNMBR),
      // The key, or one of GP's unique AK indexes that ends in it (AK4RM00101: USERDEF1, CUSTNMBR).
      /UNIQUE constraint failed: (RM00101\.\w+, )?RM00101\.CUSTNMBR$/,
    );
    assert.throws(
      () => db.prepare('INSERT INTO RM00102 (CUSTNMBR, ADRSCODE) VALUES (?, ?)').run(customer.CUSTNMBR.toLowerCase(), customer.ADRSCODE),
      /UNIQUE constraint failed: RM00102.CUSTNMBR, RM00102.ADRSCODE/,
    );
    assert.throws(
      () => db.prepare('INSERT INTO GL00100 (ACTINDX) VALUES (1)').run(),
      /UNIQUE constraint failed: (GL00100\.\w+, )?GL00100\.ACTINDX$/,
    );
    db.close();
  });
});

describe('generateDemo arguments and folders', () => {
  test('scale 2 has twice the customers and about twice the GL lines of scale 1', () => {
    const doubled = generateDemo({ dir: path.join(root, 'scale-2'), seed: 7, scale: 2 });
    for (const company of DEMO_COMPANIES) {
      const one = base.counts[company.id] ?? {};
      const two = doubled.counts[company.id] ?? {};
      assert.equal(two.RM00101, 2 * (one.RM00101 ?? 0));
      const ratio = ((two.GL20000 ?? 0) + (two.GL30000 ?? 0)) / ((one.GL20000 ?? 0) + (one.GL30000 ?? 0));
      assert.ok(ratio > 1.9 && ratio < 2.1, `GL ratio ${ratio}`);
      assert.equal(two.GL00100, one.GL00100, 'the chart of accounts does not scale');
      for (const table of ['PM00200', 'IV00101', 'RM20101', 'PM30200', 'SOP30200', 'POP30100']) {
        const tableRatio = (two[table] ?? 0) / (one[table] ?? 1);
        assert.ok(tableRatio > 1.6 && tableRatio < 2.4, `${table} ratio ${tableRatio}`);
      }
      for (const table of ['SY03300', 'RM00301', 'CM00100', 'IV40700', 'SY40100'])
        assert.equal(two[table], one[table], `${table} does not scale`);
    }
  });

  test('refuses to overwrite a complete demo', () => {
    assert.throws(() => generateDemo({ dir: path.join(root, 'base') }), DemoExistsError);
  });

  test('completes a folder holding an incomplete demo, discarding stale WAL files', () => {
    const dir = path.join(root, 'incomplete');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'TWO.sqlite'), 'half-written');
    fs.writeFileSync(path.join(dir, 'TWO.sqlite-wal'), 'stale');
    fs.writeFileSync(path.join(dir, 'agent.json'), '{}');
    generateDemo({ dir, seed: 7 });
    assert.deepEqual(fs.readdirSync(dir).sort(), ['DYNAMICS.sqlite', 'NWIND.sqlite', 'TWO.sqlite', 'agent.json']);
    assert.deepEqual(
      fs.readdirSync(root).filter((f) => f.includes('building')),
      [],
    );
    assert.deepEqual(digest({ ...demoDatabasePaths(dir), counts: {} }), digests.base);
  });

  test('rejects a scale that is not a whole number of at least 1', () => {
    for (const scale of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => generateDemo({ dir: path.join(root, 'bad'), scale }), RangeError, String(scale));
    }
    assert.equal(fs.existsSync(path.join(root, 'bad')), false);
  });
});

// Keeps the GP_TABLES import honest: every company table is in every company file.
test('company databases contain exactly the company tables of GP_TABLES', () => {
  eachCompanyDb(base, (db) => {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all();
    assert.deepEqual(
      tables,
      gpTablesOf('company')
        .map((t: GpTable) => t.name)
        .sort(),
    );
  });
  assert.ok(GP_TABLES.RM00101.hasRowTs);
});
