import path from 'node:path';
import Database from 'better-sqlite3';
import { ReadService, SqliteExecutor } from '@gp-gateway/agent';
import type { FilterValues, ListOperation, ObjectName, Position } from '@gp-gateway/protocol';
import { demoDir, log } from './system.ts';

/**
 * First page against a deep page (90% of the way through the list) for the lists an export walks
 * furthest, unfiltered and with their most common filter, on the demo with GP's own indexes: the
 * agent's ReadService over the embedded database, in this process, so that only the database's work
 * and the page's encoding are timed. Keyset paging on GP's indexes promises that a deep page costs
 * what the first does (docs/decisions.md#keyset-paging-on-gps-own-indexes); the target is at most 1.3×.
 */
export interface DeepPage {
  list: string;
  approxRows: number;
  firstMs: number;
  deepMs: number;
  ratio: number;
}

const LIMIT = 100;
const RUNS = 41;
export const DEEP_PAGE_TARGET = 1.3;

/** The value of `column` most rows of `table` have (a list's most common filter value). */
function mostCommon(db: Database.Database, table: string, column: string, where = '1 = 1'): string {
  return db
    .prepare(`SELECT rtrim(${column}) FROM ${table} WHERE ${where} GROUP BY ${column} ORDER BY count(*) DESC LIMIT 1`)
    .pluck()
    .get() as string;
}

export async function measureDeepPages(): Promise<DeepPage[]> {
  const company = new Database(path.join(demoDir, 'TWO.sqlite'), { readonly: true });
  const account = company
    .prepare('SELECT rtrim(a.ACTNUMST) FROM GL20000 g JOIN GL00105 a USING (ACTINDX) GROUP BY g.ACTINDX ORDER BY count(*) DESC LIMIT 1')
    .pluck()
    .get() as string;
  const cases: Array<[ObjectName, FilterValues]> = [
    ['customers', {}],
    ['customers', { classId: mostCommon(company, 'RM00101', 'CUSTCLAS') }],
    ['ar-invoices', { status: 'history' }],
    ['ar-invoices', { status: 'history', customerId: mostCommon(company, 'RM30101', 'CUSTNMBR', 'RMDTYPAL IN (1,3,4,5,6,7,8)') }],
    ['sales-orders', {}],
    ['sales-orders', { customerId: mostCommon(company, 'SOP30200', 'CUSTNMBR') }],
    ['gl-entries', {}],
    ['gl-entries', { accountNumber: account }],
  ];
  company.close();
  const executor = new SqliteExecutor({ dir: demoDir });
  const service = new ReadService(executor);
  const results: DeepPage[] = [];
  try {
    for (const [object, filters] of cases) {
      const op = (after: Position | null, limit = LIMIT): ListOperation => ({
        kind: 'list',
        object,
        company: 'TWO',
        filters,
        limit,
        after,
      });
      // Every page end of the list, from its keys alone; the deep page starts 90% of the way in.
      const ends: Position[] = [];
      for (let after: Position | null = null; ;) {
        after = await service.listEnd(op(after, 1000));
        if (!after) break;
        ends.push(after);
      }
      const deep = ends[Math.floor(ends.length * 0.9)] ?? null;
      const first: number[] = [];
      const deeper: number[] = [];
      // Turn by turn, so that both see the same machine; the first few runs warm the caches.
      for (let run = 0; run < RUNS + 3; run++) {
        for (const [after, times] of [
          [null, first],
          [deep, deeper],
        ] as const) {
          const started = performance.now();
          await service.handle(op(after));
          if (run >= 3) times.push(performance.now() - started);
        }
      }
      const median = (t: number[]) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!;
      const list = `${object}${Object.keys(filters).length ? `?${new URLSearchParams(filters as Record<string, string>)}` : ''}`;
      const result = {
        list,
        approxRows: (ends.length + 1) * 1000,
        firstMs: median(first),
        deepMs: median(deeper),
        ratio: median(deeper) / median(first),
      };
      results.push(result);
      log(
        `  ${list}: first ${result.firstMs.toFixed(3)} ms, deep ${result.deepMs.toFixed(3)} ms (×${result.ratio.toFixed(2)}, ~${result.approxRows} rows)`,
      );
    }
  } finally {
    await executor.close();
  }
  return results;
}

/** The measurements as a Markdown table, for the run's output and docs/performance.md. */
export function deepPagesTable(pages: readonly DeepPage[]): string {
  const lines = [`| list (limit ${LIMIT}) | rows | first page | deep page (90%) | deep / first |`, '|---|---:|---:|---:|---:|'];
  for (const p of pages) {
    lines.push(
      `| ${p.list} | ~${p.approxRows.toLocaleString('en')} | ${p.firstMs.toFixed(3)} ms | ${p.deepMs.toFixed(3)} ms | ${p.ratio.toFixed(2)}× |`,
    );
  }
  return lines.join('\n');
}
