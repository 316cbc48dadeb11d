import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { renderSelect } from '../../sql/render.ts';
import { sqliteDialect } from '../../sql/sqliteDialect.ts';
import { jsonWriterFor } from '../codecs.ts';
import { PreparedResource } from '../compile.ts';
import { CATALOGUE } from '../index.ts';
import type { Codec } from '../types.ts';
import { renderJsonPage } from './pageJson.ts';
import { sqliteJsonObject, sqliteJsonValue } from './rowJson.ts';

/**
 * SQLite writes list pages on the embedded database (rowJson.ts, pageJson.ts); JavaScript writes
 * everything else (../codecs.ts). A client must not be able to tell which did: the same value gives the same JSON,
 * checked value by value at the edges, then over every row of every resource of the demo data.
 */

const memory = new Database(':memory:');
after(() => memory.close());

/** `raw` through the SQLite writer, as the value of a one-field JSON object. */
function viaSqlite(codec: Codec, raw: unknown): unknown {
  const { sql, params } = sqliteJsonObject([{ name: 'v', value: (bind) => sqliteJsonValue('"x"', codec, bind) }]);
  // Bound as an integer, as the embedded database stores GP's numbers (a JS number would bind as REAL).
  const value = typeof raw === 'number' ? BigInt(raw) : raw;
  const json = memory
    .prepare(`SELECT ${sql} FROM (SELECT ? AS "x")`)
    .pluck()
    .get(...params.map((p) => p.value), value) as string;
  return (JSON.parse(json) as { v: unknown }).v;
}

/** `raw` as the JavaScript writer gets it from a select (numerics arrive as their integer's text). */
function viaJavaScript(codec: Codec, raw: unknown): unknown {
  const numeric = codec === 'money' || codec === 'quantity';
  const selected =
    numeric && (typeof raw === 'number' || typeof raw === 'bigint') ? String(raw) : typeof raw === 'bigint' ? Number(raw) : raw;
  return JSON.parse(jsonWriterFor(codec, sqliteDialect)(selected));
}

function agree(codec: Codec, values: readonly unknown[]): void {
  for (const raw of values)
    assert.deepEqual(viaSqlite(codec, raw), viaJavaScript(codec, raw), `${JSON.stringify(codec)} of ${String(raw)}`);
}

const SCALED = [
  0,
  1,
  -1,
  5,
  10,
  50,
  -50,
  100,
  1000,
  10000,
  99999,
  100000,
  100001,
  1250000000,
  123456789,
  -123456789,
  12345678912345,
  9223372036854775807n,
];

test('money and quantities: the same decimals, signs and trailing zeros', () => {
  agree('money', SCALED);
  agree('quantity', SCALED);
  assert.equal(viaSqlite('money', 1250000000), '12500.00');
  assert.equal(viaSqlite('money', -50), '-0.0005');
  assert.equal(viaSqlite('quantity', 250000), '2.5');
});

test('percents in hundredths, and a missing one as zero', () => {
  agree('percent', [0, 250, 200, 5, -5, 12345, -1, 10000, null]);
  assert.equal(viaSqlite('percent', 250), '2.5');
});

test('text: padding trimmed, other trailing white space kept, blank is null, escaping survives', () => {
  assert.equal(viaSqlite('string', 'tab\t  '), 'tab\t');
  agree('string', [
    'ACME      ',
    '          ',
    '',
    null,
    'tab\t',
    'nbsp\u00a0 ',
    'tab\t  ',
    'ideographic\u3000',
    'say "hi" \\ back',
    'line\nbreak',
    '\u0001ctl',
    'café ☕ 𝄞',
    'inner  spaces  ',
  ]);
});

test('dates, timestamps, flags, integers and enums', () => {
  agree('date', ['1900-01-01 00:00:00.000', '2026-02-28 00:00:00.000', '2026-12-31 23:59:59.997']);
  agree('timestamp', ['1900-01-01 00:00:00.000', '2026-02-28 13:45:12.345', '2024-01-01 00:00:00.000']);
  agree('flag', [0, 1, 2, null]);
  agree('int', [0, 5, -3, 2147483647, null]);
  const codes = { enum: { 1: 'invoice', 7: 'credit memo', 3: 'it\'s "quoted"' } };
  agree(codes, [1, 7, 3, 9, 0, null]);
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-json-'));
generateDemo({ dir: path.join(dir, 'demo'), seed: 5 });
after(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const [object, def] of Object.entries(CATALOGUE)) {
  const resource = new PreparedResource(def, sqliteDialect);
  if (!resource.jsonRow) continue;
  test(`${object}: every demo row, written by SQLite, is the row JavaScript writes`, () => {
    const company = def.database === 'system' ? null : 'TWO';
    const db = new Database(path.join(dir, 'demo', `${company ?? 'DYNAMICS'}.sqlite`), { readonly: true });
    try {
      let rows = 0;
      for (const { query } of resource.listQueries(company, {}, 1_000_000, null)) {
        const plain = renderSelect(query, sqliteDialect);
        const expected = (
          db
            .prepare(plain.sql)
            .raw(true)
            .all(...plain.params.map((p) => p.value)) as unknown[][]
        ).map((row) => JSON.parse(resource.encode(row)) as unknown);
        const page = renderJsonPage(query, sqliteDialect, resource.jsonRow!);
        const [bytes, count] = db
          .prepare(page.sql)
          .raw(true)
          .get(...page.params.map((p) => p.value)) as [Buffer | null, number, number];
        assert.equal(count, expected.length);
        assert.deepEqual(bytes === null ? [] : JSON.parse(`[${bytes.toString('utf8')}]`), expected);
        rows += count;
      }
      assert.ok(rows > 0, `the demo has ${object}`);
    } finally {
      db.close();
    }
  });
}
