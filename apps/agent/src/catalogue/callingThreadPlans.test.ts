import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { renderSelect } from '../sql/render.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { CATALOGUE } from './index.ts';
import { PreparedResource } from './compile.ts';
import { renderJsonPage } from './sqlite/pageJson.ts';

/**
 * The embedded agent answers gets and short unfiltered pages on its event loop instead of a SQLite
 * thread (ThreadedReadService.answersOnCallingThread), because their work is bounded: a get is a
 * seek through an index, and such a page reads only its own rows: it walks its key's index from
 * the page's start, and no condition of the table's own makes it read rows it then skips. This holds that promise for every
 * object, on the demo's real schema, by SQLite's plan for each statement.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calling-thread-plans-'));
generateDemo({ dir: path.join(dir, 'demo'), seed: 5 });
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function planOf(company: string | null, { sql, params }: CompiledQuery): string[] {
  const db = new Database(path.join(dir, 'demo', `${company ?? 'DYNAMICS'}.sqlite`), { readonly: true });
  try {
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map((p) => p.value)) as Array<{ detail: string }>;
    return plan.map((step) => step.detail);
  } finally {
    db.close();
  }
}

for (const [object, def] of Object.entries(CATALOGUE)) {
  const resource = new PreparedResource(def, sqliteDialect);
  const company = def.database === 'system' ? null : 'TWO';

  if (def.idParts) {
    test(`get ${object} is an index seek`, () => {
      // Any value of the right kind: an enum part takes one of its API names, so the condition stays.
      const parts = def.idParts!.map((part) => (part.enum ? Object.values(part.enum)[0]! : 'X'));
      for (const query of resource.getQueries(company, parts)) {
        const { sql } = renderSelect(query, sqliteDialect);
        const details = planOf(company, renderSelect(query, sqliteDialect));
        assert.ok(details.length > 0);
        assert.ok(!details.some((d) => /^SCAN /.test(d)), `${object}: ${sql}\n${details.join('\n')}`);
      }
    });
  }

  if (resource.unfilteredListReadsOnlyItsRows) {
    test(`an unfiltered page of ${object} walks its tables' key indexes and joins through keys`, () => {
      const [first] = resource.listQueries(company, {}, 100, null);
      const deep = [first!.key, first!.source, ...first!.walk.map((c) => (c.type.kind === 'int' ? 1000 : 'M'))];
      for (const position of [null, deep]) {
        for (const { query } of resource.listQueries(company, {}, 100, position)) {
          const statements = [renderSelect(query, sqliteDialect), renderJsonPage(query, sqliteDialect, resource.jsonRow)];
          for (const statement of statements) {
            const details = planOf(company, statement);
            const where = `${object}: ${statement.sql}\n${details.join('\n')}`;
            // The main table is walked in its key's index order (a scan that stops at the page's end,
            // or a search from the position), and so is the page the SQLite JSON statement reads
            // from it; nothing is sorted, and every other table is searched through a key.
            const index = query.index === 'rowid' ? '' : ` USING INDEX ${query.index}`;
            const walks = [`SCAN ${query.from.alias}${index}`, /^SCAN \(subquery-\d+\)$/];
            assert.ok(!details.some((d) => /TEMP B-TREE/.test(d)), where);
            assert.ok(
              details.every((d) => !/^SCAN /.test(d) || walks.some((w) => (typeof w === 'string' ? d === w : w.test(d)))),
              where,
            );
          }
        }
      }
    });
  }
}

test('the demo catalogue has unfiltered lists that read only their rows, and lists that do not', () => {
  const flags = Object.values(CATALOGUE).map((def) => new PreparedResource(def, sqliteDialect).unfilteredListReadsOnlyItsRows);
  assert.ok(flags.includes(true) && flags.includes(false));
  assert.equal(new PreparedResource(CATALOGUE['customers']!, sqliteDialect).unfilteredListReadsOnlyItsRows, true);
  assert.equal(new PreparedResource(CATALOGUE['gl-entries']!, sqliteDialect).unfilteredListReadsOnlyItsRows, false);
});
