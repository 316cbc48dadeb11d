import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import {
  catalogueRecords,
  ChangeDetector,
  changedSinceQuery,
  rangeAggregateQuery,
  ReadService,
  SqliteExecutor,
  rangeRowsQuery,
  TRACKED_OBJECTS,
  VALUE_TRACKED_OBJECTS,
  parentStampedQuery,
  valueRowsQuery,
} from '@gp-gateway/agent';
import { demoDir, ensureDatabase, SCALE } from './system.ts';

/**
 * `pnpm bench:changes`, in two parts (CHANGE_BENCH_PART = customers, tables, or both by default):
 * - customers: what change detection costs per poll on a GP-shaped table of ROWS customers
 *   (CHANGE_BENCH_ROWS, default 200,000) in the embedded database, with GP's indexes (and none on
 *   DEX_ROW_TS, as in GP): the first reading, a quiet poll (the watermark's scan and 8 range
 *   aggregates), a poll that finds 10 changes, and each statement's plan;
 * - tables: every tracked object's tables on the BENCH_SCALE demo (default 200, cached in
 *   bench/.data like `pnpm bench`'s): per table its rows, the watermark's scan and one range
 *   aggregate (median of 3) with their plans; for the tables without DEX_ROW_TS (item quantities,
 *   batches) the whole-table read and, for item quantities, the read through their items' stamps;
 *   per object its first reading and a quiet poll of all its tables (history included).
 *
 * The issue's figure is the scale-200 demo: `CHANGE_BENCH_PART=tables pnpm bench:changes` generates
 * it once (about half an hour and 4.6 GB in bench/.data, reused afterwards); `BENCH_SCALE=10` gives a
 * smaller one in a minute or two (docs/performance.md#change-detection-per-table).
 */
const ROWS = Number(process.env.CHANGE_BENCH_ROWS ?? 200_000);
const PART = process.env.CHANGE_BENCH_PART ?? 'both';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'change-bench-'));
const log = (line: string) => process.stderr.write(`${line}\n`);

async function customersPart(): Promise<void> {
  generateDemo({ dir, scale: 1 });
  const gp = new Database(path.join(dir, 'TWO.sqlite'));
  const insert = gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME, DEX_ROW_TS) VALUES (?, ?, ?)');
  const start = Date.parse('2020-01-01T00:00:00Z');
  gp.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const stamp = new Date(start + i * 60_000).toISOString().replace('T', ' ').replace('Z', '');
      insert.run(`BENCH${String(i).padStart(9, '0')}`, `Bench customer ${i}`, stamp);
    }
  })();
  const rows = gp.prepare('SELECT count(*) FROM RM00101').pluck().get() as number;
  log(`RM00101 holds ${rows.toLocaleString('en')} rows`);

  const executor = new SqliteExecutor({ dir });
  const detector = new ChangeDetector(executor, catalogueRecords(new ReadService(executor)));
  const customers = TRACKED_OBJECTS.find((t) => t.object === 'customers')!;
  const time = async (label: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    const result = await run();
    const ms = performance.now() - started;
    console.log(`${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms`);
    return result;
  };
  const poll = async () => {
    const found = await detector.poll('TWO', customers);
    found.commit();
    return found.changes.length;
  };

  await time('first reading (every key, stamp, row id)', poll);
  const quiet: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await poll();
    quiet.push(performance.now() - started);
  }
  quiet.sort((a, b) => a - b);
  console.log(`${'quiet poll (median of 5)'.padEnd(44)} ${quiet[2]!.toFixed(1).padStart(8)} ms`);
  for (let i = 0; i < 10; i++)
    gp.prepare(`UPDATE RM00101 SET CUSTNAME = 'changed' WHERE rtrim(CUSTNMBR) = ?`).run(`BENCH${String(i * 997).padStart(9, '0')}`);
  const changes = await time('poll finding 10 updates (records read too)', poll);
  console.log(`  changes found: ${String(changes)}`);

  const source = customers.sources[0]!;
  const since = changedSinceQuery(executor.dialect, 'TWO', source, new Date(Date.now() - 900_000).toISOString());
  const aggregate = rangeAggregateQuery(executor.dialect, 'TWO', source, { lo: ['BENCH000100000'], hi: ['BENCH000100500'] });
  await time('watermark read alone (full scan)', () => executor.query('TWO', since));
  await time('one range aggregate (500 keys)', () => executor.query('TWO', aggregate));
  const plan = (q: { sql: string; params: { value: unknown }[] }) =>
    (gp.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params.map((p) => p.value)) as { detail: string }[])
      .map((r) => r.detail)
      .join('; ');
  console.log(`plan of the watermark read: ${plan(since)}`);
  console.log(`plan of a range aggregate:  ${plan(aggregate)}`);
  gp.close();
  await executor.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}
/** The median of three runs, one after the other. */
async function median3(run: () => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) runs.push(await timed(run));
  return median(runs);
}
const planOf = (gp: Database.Database, q: { sql: string; params: { value: unknown }[] }) =>
  (gp.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params.map((p) => p.value)) as { detail: string }[]).map((r) => r.detail).join('; ');

async function tablesPart(): Promise<void> {
  ensureDatabase();
  log(`per table, on the scale-${SCALE} demo in ${demoDir}`);
  const executor = new SqliteExecutor({ dir: demoDir });
  const gp = new Database(path.join(demoDir, 'TWO.sqlite'), { readonly: true });
  const detector = new ChangeDetector(executor, catalogueRecords(new ReadService(executor)), { historyEvery: 1 });
  const since = new Date(Date.now() - 900_000).toISOString();
  console.log(`${'object/table'.padEnd(26)} ${'rows'.padStart(9)} ${'watermark scan'.padStart(15)} ${'range aggregate'.padStart(16)}`);
  const plans = new Map<string, string>();
  for (const tracked of TRACKED_OBJECTS) {
    for (const source of tracked.sources) {
      const rows = gp.prepare(`SELECT count(*) FROM "${source.table}"`).pluck().get() as number;
      const scan = changedSinceQuery(executor.dialect, 'TWO', source, since);
      // The second range of 500 keys, as detection cuts them.
      const keys = (await executor.query('TWO', rangeRowsQuery(executor.dialect, 'TWO', source, { lo: null, hi: null }))).map((r) =>
        r.slice(0, source.key.length).map((v, i) => (source.key[i]!.type.kind === 'int' ? Number(v) : String(v))),
      );
      const aggregate = rangeAggregateQuery(executor.dialect, 'TWO', source, { lo: keys[500] ?? keys[0] ?? null, hi: keys[1000] ?? null });
      const scanMs = await median3(() => executor.query('TWO', scan));
      const rangeMs = await median3(() => executor.query('TWO', aggregate));
      console.log(
        `${`${tracked.object}/${source.table}`.padEnd(26)} ${rows.toLocaleString('en').padStart(9)} ${`${scanMs.toFixed(1)} ms`.padStart(15)} ${`${rangeMs.toFixed(2)} ms`.padStart(16)}`,
      );
      plans.set(`${tracked.object}/${source.table}`, `scan: ${planOf(gp, scan)} | range: ${planOf(gp, aggregate)}`);
    }
  }
  // Tables without DEX_ROW_TS (changes/valueStatements.ts): the whole table, and, through their parents' stamps, the rows of those stamped since.
  for (const tracked of VALUE_TRACKED_OBJECTS) {
    const rows = gp.prepare(`SELECT count(*) FROM "${tracked.table}"`).pluck().get() as number;
    const whole = valueRowsQuery(executor.dialect, 'TWO', tracked);
    const stamped = tracked.parent ? parentStampedQuery(executor.dialect, 'TWO', tracked, since) : null;
    const wholeMs = await median3(() => executor.query('TWO', whole));
    const stampedMs = stamped ? await median3(() => executor.query('TWO', stamped)) : null;
    console.log(
      `${`${tracked.object}/${tracked.table}`.padEnd(26)} ${rows.toLocaleString('en').padStart(9)} ${`${(stampedMs ?? wholeMs).toFixed(1)} ms`.padStart(15)} ${`whole ${wholeMs.toFixed(1)} ms`.padStart(16)}`,
    );
    plans.set(
      `${tracked.object}/${tracked.table}`,
      `whole: ${planOf(gp, whole)}${stamped ? ` | through the parent: ${planOf(gp, stamped)}` : ''}`,
    );
  }
  console.log(`\n${'object'.padEnd(20)} ${'first reading'.padStart(14)} ${'quiet poll'.padStart(11)}`);
  for (const tracked of [...TRACKED_OBJECTS, ...VALUE_TRACKED_OBJECTS]) {
    const learn = await timed(async () => (await detector.poll('TWO', tracked)).commit());
    const quiet: number[] = [];
    for (let i = 0; i < 3; i++) quiet.push(await timed(async () => (await detector.poll('TWO', tracked)).commit()));
    console.log(`${tracked.object.padEnd(20)} ${`${learn.toFixed(0)} ms`.padStart(14)} ${`${median(quiet).toFixed(1)} ms`.padStart(11)}`);
  }
  console.log('\nplans:');
  for (const [table, text] of plans) console.log(`  ${table}: ${text}`);
  gp.close();
  await executor.close();
}

try {
  if (PART !== 'tables') await customersPart();
  if (PART !== 'customers') await tablesPart();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
