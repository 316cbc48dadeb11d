import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FilterValues, Position } from '@gp-gateway/protocol';
import { gpTablesFor } from '@gp-gateway/gp-schema';
import { demoAccountFramework, generateDemo } from '@gp-gateway/gp-demo';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { readAccountFramework } from '../service/accountFramework.ts';
import { AgentError } from '../service/agentError.ts';
import { payloadText, ReadService } from '../service/readService.ts';
import { mssqlDialectFor } from '../sql/mssqlDialect.ts';
import { renderSelect } from '../sql/render.ts';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { ACCOUNT_FRAMEWORK_QUERIES } from './accountFramework.ts';
import { PreparedResource } from './compile.ts';
import { CATALOGUE } from './index.ts';

/**
 * The chart of accounts of GP installs whose account framework is not the sample's four segments
 * (docs/decisions.md#the-chart-of-accounts): with 3 segments there is no ACTNUMBR_4 to read, and
 * with 5 accounts can share their first four segments, so a key on four would skip rows. The agent
 * reads the framework from the system database and pages on GP's keys as that install has them.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'account-framework-'));
const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers) await close();
  fs.rmSync(root, { recursive: true, force: true });
});

interface Account {
  id: string;
  index: number;
  type: string;
  categoryId: number;
}

function demo(segments: number, name = `segments-${segments}`) {
  const dir = path.join(root, name);
  generateDemo({ dir, seed: 11, accountFramework: demoAccountFramework(segments) });
  const executor = new SqliteExecutor({ dir });
  closers.push(() => executor.close());
  const service = new ReadService(executor);
  /** Every account's number straight from GL00105, with the filters' columns: what walks must give. */
  const accounts = (where = ''): string[] => {
    const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
    try {
      return db
        .prepare(`SELECT rtrim(n.ACTNUMST) FROM GL00100 a JOIN GL00105 n ON n.ACTINDX = a.ACTINDX ${where} ORDER BY a.ACTINDX`)
        .pluck()
        .all() as string[];
    } finally {
      db.close();
    }
  };
  const walk = async (filters: FilterValues, limit: number): Promise<Account[]> => {
    const rows: Account[] = [];
    let position: Position | null = null;
    do {
      const page = await service.handle({ kind: 'list', object: 'accounts', company: 'TWO', filters, limit, after: position });
      rows.push(...(JSON.parse(payloadText(page.payload)) as Account[]));
      position = page.next;
    } while (position);
    return rows;
  };
  return { dir, executor, service, accounts, walk };
}

/** The same accounts, each once: a walk in key order lists them in another order than ACTINDX. */
const sameAccounts = (walked: readonly Account[], expected: readonly string[], message: string) => {
  const ids = walked.map((a) => a.id);
  assert.equal(new Set(ids).size, ids.length, `${message}: an account came twice`);
  assert.deepEqual([...ids].sort(), [...expected].sort(), message);
};

for (const segments of [3, 5]) {
  describe(`a ${segments}-segment chart of accounts`, () => {
    const { dir, executor, accounts, walk, service } = demo(segments);

    test('the framework is read from the system database', async () => {
      assert.deepEqual(await readAccountFramework(executor), demoAccountFramework(segments));
    });

    test('every page size walks every account once, unfiltered and on the type and category keys', async () => {
      for (const limit of [1, 3, 7, 500]) {
        sameAccounts(await walk({}, limit), accounts(), `unfiltered, limit ${limit}`);
        sameAccounts(await walk({ type: 'posting' }, limit), accounts('WHERE a.ACCTTYPE = 1'), `type, limit ${limit}`);
        sameAccounts(await walk({ categoryId: 36 }, limit), accounts('WHERE a.ACCATNUM = 36'), `category, limit ${limit}`);
      }
      assert.ok(accounts('WHERE a.ACCATNUM = 36').length > 3, 'the category spans several pages');
    });

    test("the type and category keys read GP's index in its order, first and deep pages: no sort", () => {
      const resource = new PreparedResource(CATALOGUE.accounts, sqliteDialect, gpTablesFor(demoAccountFramework(segments)));
      const db = new Database(path.join(dir, 'TWO.sqlite'), { readonly: true });
      try {
        for (const [filters, index] of [
          [{ type: 'posting' }, 'AK4GL00100'],
          [{ categoryId: 36 }, 'AK5GL00100'],
        ] as Array<[FilterValues, string]>) {
          const [first] = resource.listQueries('TWO', filters, 10, null);
          const position: Position = [first!.key, 0, ...first!.walk.map(() => 'X')];
          for (const { query } of [first!, ...resource.listQueries('TWO', filters, 10, position)]) {
            const { sql, params } = renderSelect(query, sqliteDialect);
            const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map((p) => p.value)) as Array<{ detail: string }>).map(
              (step) => step.detail,
            );
            assert.ok(plan[0]!.startsWith(`SEARCH t USING INDEX ${index} (`), `${index}: ${plan.join(' / ')}`);
            assert.ok(!plan.some((step) => step.includes('TEMP B-TREE')), `${index}: ${plan.join(' / ')}`);
          }
        }
      } finally {
        db.close();
      }
    });

    test('an account is found by its number, and a list by numbers', async () => {
      const id = segments === 3 ? '200-6100-00' : '200-6100-00-00-02';
      const page = await service.handle({ kind: 'get', object: 'accounts', company: 'TWO', id });
      assert.equal((JSON.parse(payloadText(page.payload)) as Account).id, id);
      const listed = await walk({ id: [id, '000-1100-00'] }, 10);
      assert.deepEqual(
        listed.map((a) => a.id),
        segments === 3 ? ['000-1100-00', id] : [id],
      );
    });
  });
}

test('with 5 segments the type key walks all five: accounts that share four segments are not skipped', () => {
  const resource = new PreparedResource(CATALOGUE.accounts, sqliteDialect, gpTablesFor(demoAccountFramework(5)));
  const position: Position = ['type', 0, '100', '6100', '00', '00', '01'];
  const queries = resource.listQueries('TWO', { type: 'posting' }, 10, position);
  assert.deepEqual(
    queries[0]!.walk.map((c) => c.column),
    ['ACTNUMBR_1', 'ACTNUMBR_2', 'ACTNUMBR_3', 'ACTNUMBR_4', 'ACTNUMBR_5'],
  );
  // The first part of the page continues inside the group of accounts sharing the first four segments.
  assert.deepEqual(
    queries[0]!.query.where.filter((c) => 'position' in c && c.position).map((c) => [c.op, 'column' in c ? c.column.column : '']),
    [
      ['eq', 'ACTNUMBR_1'],
      ['eq', 'ACTNUMBR_2'],
      ['eq', 'ACTNUMBR_3'],
      ['eq', 'ACTNUMBR_4'],
      ['gt', 'ACTNUMBR_5'],
    ],
  );
  assert.equal(queries.length, 5);
  assert.equal(resource.isPosition({ type: 'posting' }, position), true);
  // A position of the four-segment key is not one of this install's.
  assert.equal(resource.isPosition({ type: 'posting' }, ['type', 0, '100', '6100', '00', '00']), false);
});

test('a framework the system database contradicts fails the accounts only, with what is wrong, until it is mended', async () => {
  const { dir, service, accounts } = demo(3, 'contradicted');
  const system = new Database(path.join(dir, 'DYNAMICS.sqlite'));
  try {
    system.prepare('UPDATE SY003001 SET MXNUMSEG = 4').run();
    await assert.rejects(
      service.handle({ kind: 'list', object: 'accounts', company: 'TWO', filters: {}, limit: 5, after: null }),
      (error: unknown) =>
        error instanceof AgentError &&
        error.code === 'INTERNAL_ERROR' &&
        /SY003001 says 4 segments, but SY00302 has segments 1, 2, 3/.test(error.message),
    );
    const customers = await service.handle({ kind: 'list', object: 'customers', company: 'TWO', filters: {}, limit: 5, after: null });
    assert.equal((JSON.parse(payloadText(customers.payload)) as unknown[]).length, 5);
    system.prepare('UPDATE SY003001 SET MXNUMSEG = 3').run();
    const page = await service.handle({ kind: 'list', object: 'accounts', company: 'TWO', filters: {}, limit: 500, after: null });
    assert.equal((JSON.parse(payloadText(page.payload)) as unknown[]).length, accounts().length);
  } finally {
    system.close();
  }
});

test('the framework is read with two fixed, parameterised statements, from the named system database on SQL Server', () => {
  const { size, segments } = ACCOUNT_FRAMEWORK_QUERIES;
  assert.deepEqual(renderSelect(size, mssqlDialectFor('GPSYS')), {
    sql: 'SELECT TOP (@p0) [t].[MXNUMSEG] FROM [GPSYS].[dbo].[SY003001] AS [t] ORDER BY [t].[MXLACNUM]',
    params: [{ value: 2, type: { kind: 'int' } }],
  });
  assert.deepEqual(renderSelect(segments, mssqlDialectFor('GPSYS')), {
    sql: 'SELECT TOP (@p0) [t].[SGMTNUMB], [t].[SGMNTLTH] FROM [GPSYS].[dbo].[SY00302] AS [t] ORDER BY [t].[SGMTNUMB]',
    params: [{ value: 11, type: { kind: 'int' } }],
  });
});
