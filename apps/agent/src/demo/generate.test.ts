import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { GP_TABLES, gpTablesOf } from '../gp/tables.ts';
import type { GpTable } from '../gp/tables.ts';
import { GP_EMPTY_DATE, padChar } from '../gp/sqliteValues.ts';
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

const count = (db: Database.Database, sql: string, ...params: unknown[]): number => db.prepare(sql).pluck().get(...params) as number;

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
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes('building')), [], 'no staging folder left behind');
  });

  test('SY01500 lists exactly the two demo companies', () => {
    const db = open(base.systemDatabase);
    const rows = db.prepare('SELECT rtrim(INTERID) AS id, CMPANYID AS number, rtrim(CMPNYNAM) AS name FROM SY01500 ORDER BY CMPANYID').all();
    db.close();
    assert.deepEqual(rows, [
      { id: 'TWO', number: 1, name: 'Fabrikam, Inc.' },
      { id: 'NWIND', number: 2, name: 'Northwind Traders' },
    ]);
    assert.deepEqual(DEMO_COMPANIES.map((c) => c.id), ['TWO', 'NWIND']);
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
    assert.deepEqual(base.counts.DYNAMICS, { SY01500: 2 });
  });

  test('is deterministic: the same seed gives identical contents, another seed different ones', () => {
    assert.deepEqual(digests.sameSeed, digests.base);
    for (const company of DEMO_COMPANIES) assert.notEqual(digests.otherSeed?.[company.id], digests.base?.[company.id]);
    assert.notEqual(digests.base?.TWO, digests.base?.NWIND, 'the two companies differ');
  });

  test('reports progress per phase, ending with done = total', () => {
    const phases = [...new Set(progress.map((p) => p.phase))];
    assert.deepEqual(phases, ['TWO customers', 'TWO general ledger', 'TWO indexes', 'NWIND customers', 'NWIND general ledger', 'NWIND indexes', 'DYNAMICS companies']);
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
          assert.equal(count(db, `SELECT count(*) FROM ${table.name} WHERE typeof(${column.name}) <> 'integer'`), 0, `${table.name}.${column.name}`);
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
          const wrong = count(db, `SELECT count(*) FROM ${table.name} WHERE typeof(${column.name}) <> 'text' OR length(${column.name}) <> ?`, column.length);
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
      for (const [table, year] of [['GL20000', 'OPENYEAR'], ['GL30000', 'HSTYEAR']]) {
        const entries = db
          .prepare(`SELECT ${year} AS year, JRNENTRY, sum(DEBITAMT) AS debit, sum(CRDTAMNT) AS credit, count(*) AS lines FROM ${table} GROUP BY ${year}, JRNENTRY`)
          .safeIntegers(true)
          .all() as { debit: bigint; credit: bigint; lines: bigint }[];
        assert.ok(entries.length > 300, `${table} has ${entries.length} entries`);
        for (const entry of entries) {
          assert.equal(typeof entry.debit, 'bigint');
          assert.equal(entry.debit, entry.credit, JSON.stringify(entry, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
        }
      }
      const sizes = db.prepare(`SELECT min(n) AS min, max(n) AS max FROM (SELECT count(*) AS n FROM GL30000 WHERE SOURCDOC NOT IN (?, ?) GROUP BY HSTYEAR, JRNENTRY)`).get(padChar('BBF', 11), padChar('P/L', 11));
      assert.deepEqual(sizes, { min: 2, max: 6 });
    });
  });

  test('every GL line points at an account in GL00105, and GL00100/GL00105 agree', () => {
    eachCompanyDb(base, (db) => {
      for (const table of ['GL20000', 'GL30000']) {
        assert.equal(count(db, `SELECT count(*) FROM ${table} g WHERE NOT EXISTS (SELECT 1 FROM GL00105 a WHERE a.ACTINDX = g.ACTINDX)`), 0, table);
      }
      assert.equal(count(db, 'SELECT count(*) FROM GL00100 a FULL JOIN GL00105 b ON a.ACTINDX = b.ACTINDX WHERE a.ACTINDX IS NULL OR b.ACTINDX IS NULL'), 0);
      assert.equal(count(db, "SELECT count(*) FROM GL00105 WHERE ACTNUMST NOT GLOB '[0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]-[0-9][0-9] *'"), 0);
    });
  });

  test('every customer has its primary, bill-to, ship-to and statement addresses in RM00102', () => {
    eachCompanyDb(base, (db) => {
      for (const column of ['ADRSCODE', 'PRBTADCD', 'PRSTADCD', 'STADDRCD']) {
        const missing = count(db, `SELECT count(*) FROM RM00101 c WHERE NOT EXISTS (SELECT 1 FROM RM00102 a WHERE a.CUSTNMBR = c.CUSTNMBR AND a.ADRSCODE = c.${column})`);
        assert.equal(missing, 0, column);
      }
      assert.equal(count(db, 'SELECT count(*) FROM RM00102 a WHERE NOT EXISTS (SELECT 1 FROM RM00101 c WHERE c.CUSTNMBR = a.CUSTNMBR)'), 0);
      const perCustomer = db.prepare('SELECT min(n) AS min, max(n) AS max FROM (SELECT count(*) AS n FROM RM00102 GROUP BY CUSTNMBR)').get();
      assert.deepEqual(perCustomer, { min: 1, max: 3 });
    });
  });

  test('sales-series GL lines name real customers; other series name none of them', () => {
    eachCompanyDb(base, (db) => {
      for (const table of ['GL20000', 'GL30000']) {
        const sales = count(db, `SELECT count(*) FROM ${table} WHERE SERIES = 3`);
        const orphans = count(db, `SELECT count(*) FROM ${table} g WHERE SERIES = 3 AND NOT EXISTS (SELECT 1 FROM RM00101 c WHERE rtrim(c.CUSTNMBR) = rtrim(g.ORMSTRID))`);
        assert.ok(sales > 0, table);
        assert.equal(orphans, 0, table);
      }
      assert.deepEqual(db.prepare('SELECT DISTINCT SERIES FROM GL30000 ORDER BY 1').pluck().all(), [2, 3, 4, 5]);
    });
  });

  test('history has BBF and P/L rows; the open year starts with last year\'s close', () => {
    eachCompanyDb(base, (db) => {
      const closing = (table: string, year: string) =>
        db.prepare(`SELECT ${year} AS year, rtrim(SOURCDOC) AS source, count(*) AS n FROM ${table} WHERE SOURCDOC IN (?, ?) GROUP BY 1, 2 ORDER BY 1, 2`)
          .all(padChar('BBF', 11), padChar('P/L', 11)) as { year: number; source: string; n: number }[];
      const history = closing('GL30000', 'HSTYEAR').map(({ year, source }) => `${year} ${source}`);
      assert.deepEqual(history, ['2024 BBF', '2025 BBF', '2025 P/L']);
      assert.deepEqual(closing('GL20000', 'OPENYEAR').map(({ year, source }) => `${year} ${source}`), ['2026 BBF', '2026 P/L']);
      assert.equal(count(db, "SELECT count(*) FROM GL30000 WHERE SOURCDOC IN (?, ?) AND (PERIODID <> 0 OR substr(TRXDATE, 6, 5) <> '01-01')", padChar('BBF', 11), padChar('P/L', 11)), 0);
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
      for (const table of ['RM00101', 'RM00102', 'GL20000', 'GL30000']) {
        assert.ok((db.prepare(`SELECT max(DEX_ROW_TS) FROM ${table}`).pluck().get() as string) < now, table);
        const inversions = count(db, `SELECT count(*) FROM (SELECT DEX_ROW_TS < lag(DEX_ROW_TS) OVER (ORDER BY DEX_ROW_ID) AS inv FROM ${table}) WHERE inv`);
        assert.ok(inversions > 0, `${table} has no out-of-order timestamps`);
      }
      const span = db.prepare('SELECT min(DEX_ROW_TS) AS first, max(DEX_ROW_TS) AS last FROM RM00101').get() as { first: string; last: string };
      assert.ok(span.first < '2024-03' && span.last > '2026-08', JSON.stringify(span));
      const firstTenth = db.prepare('SELECT max(DEX_ROW_TS) FROM (SELECT DEX_ROW_TS FROM RM00101 ORDER BY DEX_ROW_ID LIMIT 50)').pluck().get() as string;
      const lastTenth = db.prepare('SELECT min(DEX_ROW_TS) FROM (SELECT DEX_ROW_TS FROM RM00101 ORDER BY DEX_ROW_ID DESC LIMIT 50)').pluck().get() as string;
      assert.ok(firstTenth < lastTenth, 'early rows are older than late rows');
      assert.equal(count(db, "SELECT count(*) FROM RM00101 c WHERE EXISTS (SELECT 1 FROM RM00102 a WHERE a.CUSTNMBR = c.CUSTNMBR AND a.DEX_ROW_TS > c.DEX_ROW_TS)"), 0, 'a customer is never older than its addresses');
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
    assert.throws(() => db.prepare('INSERT INTO RM00101 (CUSTNMBR) VALUES (?)').run(customer.CUSTNMBR), /UNIQUE constraint failed: RM00101.CUSTNMBR/);
    assert.throws(
      () => db.prepare('INSERT INTO RM00102 (CUSTNMBR, ADRSCODE) VALUES (?, ?)').run(customer.CUSTNMBR.toLowerCase(), customer.ADRSCODE),
      /UNIQUE constraint failed: RM00102.CUSTNMBR, RM00102.ADRSCODE/,
    );
    assert.throws(() => db.prepare('INSERT INTO GL00100 (ACTINDX) VALUES (1)').run(), /UNIQUE constraint failed: GL00100.ACTINDX/);
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
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes('building')), []);
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
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
    assert.deepEqual(tables, gpTablesOf('company').map((t: GpTable) => t.name).sort());
  });
  assert.ok(GP_TABLES.RM00101.hasRowTs);
});
