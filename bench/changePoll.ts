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
  TRACKED_OBJECTS,
} from '@gp-gateway/agent';

/**
 * `pnpm bench:changes`: what change detection costs per poll on a GP-shaped table of ROWS customers
 * (CHANGE_BENCH_ROWS, default 200,000) in the embedded database, with GP's indexes (and none on
 * DEX_ROW_TS, as in GP): the first reading, a quiet poll (the watermark's scan and 8 range
 * aggregates), a poll that finds 10 changes, and each statement's plan.
 */
const ROWS = Number(process.env.CHANGE_BENCH_ROWS ?? 200_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'change-bench-'));
const log = (line: string) => process.stderr.write(`${line}\n`);

try {
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
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
