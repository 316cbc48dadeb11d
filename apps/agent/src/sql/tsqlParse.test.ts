import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OBJECTS, WRITABLE_OBJECT_NAMES, type FilterSpec, type ObjectSpec } from '@gp-gateway/protocol';
import { batchesOf } from '@gp-gateway/gp-demo/mssql';
import { CATALOGUE } from '../catalogue/index.ts';
import { WORK_READS } from '../catalogue/resources/work.ts';
import type { ResourceDef } from '../catalogue/types.ts';
import { PreparedResource } from '../catalogue/compile.ts';
import { mssqlDialect } from './mssqlDialect.ts';
import { renderSelect } from './render.ts';
import type { ColumnRef, SelectQuery } from './model.ts';
import { goldenBody } from '../writes/mssql/goldenBodies.ts';
import { STAND_IN_SCRIPT } from '../writes/mssql/stand-in/standIn.ts';
import { changedSinceQuery, rangeAggregateQuery, rangeRowsQuery, type KeyRange } from '../changes/statements.ts';
import { TRACKED_OBJECTS } from '../changes/trackedObjects.ts';
import { VALUE_TRACKED_OBJECTS } from '../changes/valueTracked.ts';
import { parentStampedQuery, valueRowsQuery } from '../changes/valueStatements.ts';
import { changeTrackingStatements } from '../changes/changeTracking.ts';
import { checksOf } from '../writes/references/describe.ts';
import { referenceBatch } from '../writes/references/mssql.ts';

/**
 * Every statement shape the compiler can produce for SQL Server, the writes' reference checks, and
 * the stand-in eConnect script, parsed by a real T-SQL grammar (sqlfluff's tsql dialect, Debian
 * package `sqlfluff`; .ci/run installs it), in one sqlfluff run per core; statements parsed before
 * are skipped (PARSED_FILE).
 */
const sqlfluff = spawnSync('sqlfluff', ['--version'], { encoding: 'utf8' });
const available = sqlfluff.status === 0;
if (!available) {
  console.warn('\n*** SKIPPED: T-SQL parse check needs sqlfluff (apt-get install sqlfluff); .ci/run installs it. ***\n');
}

/** A value for each filter; `oversized` ones cannot fit their column and compile to `1 = 0`. */
function valueFor(name: string, spec: FilterSpec, object: ObjectSpec, oversized: boolean): unknown {
  switch (spec.kind) {
    case 'string':
      if (name === 'documentId') return oversized ? 'nocolon' : object.parent === 'sales-orders' ? 'invoice:STDINV2261' : 'PO2001';
      return oversized ? 'X'.repeat(spec.maxLength) : 'VALUE1';
    case 'search':
      return "it's 50%_[x]";
    case 'boolean':
      return true;
    case 'integer':
      return 2026;
    case 'enum':
      return spec.values[0];
    case 'timestamp':
      return '2026-03-01T14:05:09.123Z';
    case 'date':
      return '2026-02-28';
    case 'ids':
      return oversized ? ['X'.repeat(129)] : ['A1', 'B2', 'C3'];
  }
}

/**
 * The statements of one object: a statement is a fixed select list plus one independent AND term
 * per filter, so all filters together cover every term. Varied: no filters; all filters on every
 * source table (each value of a filter that picks tables) with a keyset position; all filters with
 * values that cannot match (`1 = 0` terms); get-by-id.
 */
function statementsOf(object: ObjectSpec, def: ResourceDef = CATALOGUE[object.name as keyof typeof CATALOGUE]): string[] {
  const resource = new PreparedResource(def, mssqlDialect);
  const company = object.companyScoped ? 'TWO' : null;
  const filtersWith = (oversized: boolean) =>
    Object.fromEntries(
      Object.entries(object.filters)
        .filter(([name]) => name in def.filters)
        .map(([name, spec]) => [name, valueFor(name, spec, object, oversized)]),
    );
  const base = object.parent ? { documentId: filtersWith(false).documentId } : {};
  const sourceFilter = Object.entries(def.filters).find(([, f]) => f.kind === 'sources');
  const sourceChoices = sourceFilter && sourceFilter[1].kind === 'sources' ? Object.keys(sourceFilter[1].sources) : [undefined];
  const queries: SelectQuery[] = resource.listQueries(company, base as never, 101, null).map((q) => q.query);
  for (const choice of sourceChoices) {
    const all = { ...filtersWith(false), ...(sourceFilter && choice ? { [sourceFilter[0]]: choice } : {}) };
    for (const { source, key, walk } of resource.listQueries(company, all as never, 1, null)) {
      // A position inside the table: its key's walked columns, split into seeks (and OPTION (RECOMPILE)).
      queries.push(...resource.listQueries(company, all as never, 1001, [key, source, ...walk.map(sampleKeyValue)]).map((q) => q.query));
    }
    // Each filter alone: it may choose its own key (customerId pages on PKRM20101, accountNumber on AK2GL20000).
    for (const name of Object.keys(object.filters).filter((f) => f in def.filters)) {
      const one = { ...base, [name]: filtersWith(false)[name] };
      for (const { source, key, walk } of resource.listQueries(company, one as never, 1, null)) {
        queries.push(...resource.listQueries(company, one as never, 11, [key, source, ...walk.map(sampleKeyValue)]).map((q) => q.query));
      }
    }
  }
  // A filter that picks tables takes one of the resource's own tables (the enum's first value may be another resource's: work).
  const oversized = { ...filtersWith(true), ...(sourceFilter ? { [sourceFilter[0]]: sourceChoices[0] } : {}) };
  queries.push(...resource.listQueries(company, oversized as never, 11, null).map((q) => q.query));
  if (def.idParts)
    queries.push(
      ...resource.getQueries(
        company,
        def.idParts.map((p) => (p.enum ? 'invoice' : 'ID1')),
      ),
    );
  return distinctShapes(queries.map((q) => renderSelect(q, mssqlDialect).sql));
}

/** A value of a key column for a position (the statement's shape does not depend on it). */
function sampleKeyValue(column: ColumnRef): string | number {
  return column.type.kind === 'int' ? 1 : column.type.kind === 'datetime' ? '2026-01-31 00:00:00.000' : 'K';
}

/**
 * Statements that differ only in parameter numbering or the length of an IN list are the same
 * grammar; parsing one of each keeps the check to a few dozen seconds (sqlfluff is thorough, not fast).
 */
function distinctShapes(statements: string[]): string[] {
  const seen = new Map<string, string>();
  for (const sql of statements) {
    const shape = sql.replace(/@p\d+/g, '@p').replace(/IN \((?:@p, )*@p\)/g, 'IN (@p)');
    if (!seen.has(shape)) seen.set(shape, sql);
  }
  return [...seen.values()];
}

/** sqlfluff 1.4 parses on one core; run one process per core over a share of the files. */
async function parseAll(dirs: string[]): Promise<{ filepath: string; segments: unknown }[]> {
  const run = promisify(execFile);
  const outputs = await Promise.all(
    dirs.map((dir) => run('sqlfluff', ['parse', '--dialect', 'tsql', '--format', 'json', dir], { encoding: 'utf8', maxBuffer: 1 << 30 })),
  );
  return outputs.flatMap(({ stdout }) => JSON.parse(stdout) as { filepath: string; segments: unknown }[]);
}

/**
 * Statements sqlfluff has parsed before, by a key of the parser's version and the statement's text,
 * one a line (committed beside this file). The grammar gives an identical text the same answer every
 * time, so a statement whose key is here is not parsed again: the check costs only what changed,
 * rather than three minutes of sqlfluff on every run. A new or changed statement is parsed, and the
 * test fails if it does not parse; `TSQL_PARSED_UPDATE=1` then writes the file anew with every
 * current statement's key (only when all of them parse). Another sqlfluff version matches no key.
 */
const PARSED_FILE = fileURLToPath(new URL('./tsqlParsed.txt', import.meta.url));
const parserVersion = available ? sqlfluff.stdout.trim() : '';
const keyOf = (text: string) => createHash('sha256').update(`${parserVersion}\ntsql\n${text}`).digest('hex');

/** Every statement to check, labelled for a failure message: the reads, the reference checks, the stand-in's batches. */
function allStatements(): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  const lists: Array<[string, string[]]> = (Object.values(OBJECTS) as ObjectSpec[]).map((object) => [object.name, statementsOf(object)]);
  // Unposted documents, from their work tables (catalogue/resources/work.ts).
  for (const [name, work] of Object.entries(WORK_READS))
    lists.push([`${name}.${work.value}`, statementsOf((OBJECTS as Record<string, ObjectSpec>)[name]!, work.def)]);
  for (const [name, statements] of lists) statements.forEach((sql, i) => out.push({ label: `${name}-${i}: ${sql}`, text: `${sql}\n` }));
  // The writes' reference checks (writes/references/mssql.ts), as they run: parameters declared by sp_executesql.
  for (const object of WRITABLE_OBJECT_NAMES) {
    const batch = referenceBatch('TWO', checksOf(object, goldenBody(object)));
    const declare = `DECLARE ${batch.params.map((p) => `@${p.name} ${p.type}`).join(', ')};\n`;
    out.push({ label: `${object} reference checks`, text: `${declare}${batch.sql}\n` });
  }
  // Change detection (changes/statements.ts): the watermark's read, and each range's aggregate and rows, bounded or open on either side.
  for (const { object, sources } of TRACKED_OBJECTS) {
    for (const source of sources) {
      const sample = (tag: string) => source.key.map((c) => (c.type.kind === 'int' ? 1 : `${tag}1`));
      const ranges: KeyRange[] = [
        { lo: null, hi: null },
        { lo: sample('A'), hi: null },
        { lo: null, hi: sample('B') },
        { lo: sample('A'), hi: sample('B') },
      ];
      const queries = [
        changedSinceQuery(mssqlDialect, 'TWO', source, '2026-03-01T14:05:09.123Z'),
        ...ranges.flatMap((range) => [
          rangeAggregateQuery(mssqlDialect, 'TWO', source, range),
          rangeRowsQuery(mssqlDialect, 'TWO', source, range),
        ]),
      ];
      queries.forEach((q, i) => out.push({ label: `${object} ${source.table} change detection ${i}: ${q.sql}`, text: `${q.sql}\n` }));
    }
  }
  // Tables without DEX_ROW_TS (changes/valueStatements.ts): the whole table, and the rows of the parents stamped since a time.
  for (const tracked of VALUE_TRACKED_OBJECTS) {
    const queries = [valueRowsQuery(mssqlDialect, 'TWO', tracked)];
    if (tracked.parent) queries.push(parentStampedQuery(mssqlDialect, 'TWO', tracked, '2026-03-01T14:05:09.123Z'));
    queries.forEach((q, i) =>
      out.push({
        label: `${tracked.object} ${tracked.table} value detection ${i}: ${q.sql}`,
        text: `${q.sql}
`,
      }),
    );
  }
  // Change Tracking (changes/changeTracking.ts): its status, the current version, each table's changes.
  // What a DBA runs to turn it on (ALTER DATABASE … SET CHANGE_TRACKING, ALTER TABLE … ENABLE
  // CHANGE_TRACKING, GRANT VIEW CHANGE TRACKING) is beyond sqlfluff 1.4's T-SQL grammar (one of them
  // crashes it): the golden file and the gated SQL Server suite (e2e/mssql.test.ts runs them) check those.
  for (const { label, sql, runBy } of changeTrackingStatements())
    if (runBy === 'agent') out.push({ label: `change tracking ${label}: ${sql}`, text: `${sql}\n` });
  // The stand-in eConnect script of the gated SQL Server write suite, one file per batch (sqlfluff is
  // much faster on small files than on one large one).
  batchesOf(fs.readFileSync(STAND_IN_SCRIPT, 'utf8')).forEach((batch, i) =>
    out.push({ label: `stand-in batch ${i}: ${batch.slice(0, 80)}`, text: `${batch}\n` }),
  );
  return out;
}

test('every T-SQL statement the compiler produces parses as T-SQL', { skip: !available && 'sqlfluff is not installed' }, async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsql-'));
  try {
    const statements = allStatements();
    const known = new Set(fs.existsSync(PARSED_FILE) ? fs.readFileSync(PARSED_FILE, 'utf8').split('\n').filter(Boolean) : []);
    const unparsed = statements.filter((s) => !known.has(keyOf(s.text)));
    const dirs = Array.from({ length: Math.max(1, Math.min(os.availableParallelism(), unparsed.length)) }, (_, i) =>
      path.join(root, String(i)),
    );
    for (const dir of dirs) fs.mkdirSync(dir);
    const files = new Map<string, string>();
    unparsed.forEach(({ label, text }, i) => {
      const file = path.join(dirs[i % dirs.length]!, `s-${i}.sql`);
      fs.writeFileSync(file, text);
      files.set(file, label);
    });
    // One statement that must not parse proves the check can fail; it is never in the file of parsed keys.
    const broken = path.join(dirs[0]!, 'zz-broken.sql');
    fs.writeFileSync(broken, 'SELECT TOP (@p0) FROM [TWO].[dbo].[RM00101] AS [t] WHERE\n');
    const results = await parseAll(dirs);
    assert.equal(results.length, files.size + 1);
    const unparsable = results.filter((r) => JSON.stringify(r.segments).includes('"unparsable"')).map((r) => r.filepath);
    assert.deepEqual(
      unparsable.map((f) => files.get(f) ?? path.basename(f)),
      ['zz-broken.sql'],
    );
    if (process.env.TSQL_PARSED_UPDATE === '1')
      fs.writeFileSync(PARSED_FILE, `${[...new Set(statements.map((s) => keyOf(s.text)))].sort().join('\n')}\n`);
    console.log(
      `${statements.length} distinct T-SQL statements: ${unparsed.length} parsed now, ${statements.length - unparsed.length} known to parse` +
        (unparsed.length && process.env.TSQL_PARSED_UPDATE !== '1' ? ' (TSQL_PARSED_UPDATE=1 records the new ones)' : ''),
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
