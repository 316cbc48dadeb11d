import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '../demo/generate.ts';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { renderSelect } from '../sql/render.ts';
import { CATALOGUE } from './index.ts';
import { PreparedResource } from './compile.ts';

/**
 * The embedded agent answers a get on its event loop instead of a SQLite thread, because a get is
 * a seek through an index: microseconds, nothing to cancel. This holds that promise for every
 * object with a get, on the demo's real schema: SQLite's plan for each statement searches (an index
 * or the rowid) and never scans a table.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'get-plans-'));
generateDemo({ dir: path.join(dir, 'demo'), seed: 5 });
after(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const [object, def] of Object.entries(CATALOGUE)) {
  if (!def.idParts) continue;
  test(`get ${object} is an index seek`, () => {
    const resource = new PreparedResource(def, sqliteDialect);
    // Any value of the right kind: an enum part takes one of its API names, so the condition stays.
    const parts = def.idParts!.map((part) => (part.enum ? Object.values(part.enum)[0]! : 'X'));
    const company = def.database === 'system' ? null : 'TWO';
    const db = new Database(path.join(dir, 'demo', `${company ?? 'DYNAMICS'}.sqlite`), { readonly: true });
    try {
      for (const query of resource.getQueries(company, parts)) {
        const { sql, params } = renderSelect(query, sqliteDialect);
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map((p) => p.value)) as Array<{ detail: string }>;
        const details = plan.map((step) => step.detail);
        assert.ok(details.length > 0);
        assert.ok(!details.some((d) => /^SCAN /.test(d)), `${object}: ${sql}\n${details.join('\n')}`);
      }
    } finally {
      db.close();
    }
  });
}
