import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FilterValues, ListOperation, ObjectName, Position } from '@gp-gateway/protocol';
import { CATALOGUE } from '../catalogue/index.ts';
import { PreparedResource } from '../catalogue/compile.ts';
import { generateDemo } from '@gp-gateway/gp-demo';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { renderSelect } from '../sql/render.ts';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { payloadText, ReadService, type ReadResult } from './readService.ts';

/**
 * Paging on the embedded database, where SQLite writes each page (ReadService.sqliteWrittenPage):
 * whatever the page size, a walk returns every row exactly once and in order, across the source
 * tables (GL's open and history years), and its last page says there is no next one.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-service-'));
generateDemo({ dir: path.join(dir, 'demo'), seed: 5 });
const executor = new SqliteExecutor({ dir: path.join(dir, 'demo') });
const service = new ReadService(executor);
after(async () => {
  await executor.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every row of a list, written by JavaScript straight from the tables: what a walk must give. */
function everyRow(object: ObjectName, filters: FilterValues): { rows: unknown[]; perSource: number[] } {
  const resource = new PreparedResource(CATALOGUE[object], sqliteDialect);
  const db = new Database(path.join(dir, 'demo', 'TWO.sqlite'), { readonly: true });
  try {
    const rows: unknown[] = [];
    const perSource = resource.def.sources.map(() => 0);
    for (const { source, query } of resource.listQueries('TWO', filters, 1_000_000, null)) {
      const { sql, params } = renderSelect(query, sqliteDialect);
      for (const row of db
        .prepare(sql)
        .raw(true)
        .all(...params.map((p) => p.value)) as unknown[][]) {
        rows.push(JSON.parse(resource.encode(row)));
        perSource[source]!++;
      }
    }
    return { rows, perSource };
  } finally {
    db.close();
  }
}

async function walk(object: ObjectName, filters: FilterValues, limit: number): Promise<{ rows: unknown[]; pages: number }> {
  const rows: unknown[] = [];
  let after: Position | null = null;
  let pages = 0;
  do {
    const page = await service.handle({ kind: 'list', object, company: 'TWO', filters, limit, after });
    const data = JSON.parse(payloadText(page.payload)) as unknown[];
    assert.ok(data.length <= limit);
    if (page.next) assert.equal(data.length, limit, 'only the last page may be short');
    rows.push(...data);
    after = page.next;
    pages++;
  } while (after);
  return { rows, pages };
}

test('the list is written by SQLite on the embedded database', () => {
  assert.ok(new PreparedResource(CATALOGUE['gl-entries'], sqliteDialect).jsonRow, 'gl-entries has no computed field');
});

test('GL lines: every page size walks every row once, in order, across open and history years', async () => {
  const { rows, perSource } = everyRow('gl-entries', {});
  const [open = 0, history = 0] = perSource;
  assert.ok(open > 0 && history > 0, 'the demo has both open and history years');
  // Sizes that end a page inside a table, exactly at the end of the open year, one row past it, at
  // the very last row, and beyond it.
  for (const limit of [97, open, open + 1, rows.length, rows.length + 3]) {
    const walked = await walk('gl-entries', {}, limit);
    assert.equal(walked.rows.length, rows.length, `limit ${limit}`);
    assert.deepEqual(walked.rows, rows, `limit ${limit}`);
    assert.equal(walked.pages, Math.max(1, Math.ceil(rows.length / limit)), `limit ${limit}: no empty last page`);
  }
});

test('filtered walks: one year, one account, and a filter nothing matches', async () => {
  const account = (everyRow('gl-entries', {}).rows[0] as { accountNumber: string }).accountNumber;
  for (const filters of [{ year: 'history' }, { accountNumber: account }, { journalEntryNumber: -1 }] as FilterValues[]) {
    const { rows } = everyRow('gl-entries', filters);
    const walked = await walk('gl-entries', filters, 50);
    assert.deepEqual(walked.rows, rows, JSON.stringify(filters));
  }
});

test('where a page ends, read from its keys alone, is the next position the page itself gives', async () => {
  const { perSource } = everyRow('gl-entries', {});
  for (const [object, filters, limit] of [
    ['gl-entries', {}, 97],
    ['gl-entries', {}, perSource[0]!],
    ['gl-entries', { year: 'history' }, 250],
    ['customers', {}, 40],
  ] as Array<[ObjectName, FilterValues, number]>) {
    let after: Position | null = null;
    do {
      const op: ListOperation = { kind: 'list', object, company: 'TWO', filters, limit, after };
      const [page, end]: [ReadResult, Position | null] = await Promise.all([service.handle(op), service.listEnd(op)]);
      assert.deepEqual(end, page.next, `${object} ${JSON.stringify(filters)} limit ${limit} after ${JSON.stringify(after)}`);
      after = page.next;
    } while (after);
  }
});

test('every list walks each row once, in its key order, on multi-column keys and on the keys filters choose', async () => {
  /** The value of `field` that most rows of the list have. */
  const first = <T>(object: ObjectName, field: string): T => {
    const counts = new Map<T, number>();
    for (const row of everyRow(object, {}).rows as Array<Record<string, T>>) counts.set(row[field]!, (counts.get(row[field]!) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  };
  const cases: Array<[ObjectName, FilterValues]> = [
    ['customers', {}],
    ['customer-addresses', { customerId: first<string>('customers', 'id') }],
    ['item-quantities', {}],
    ['ar-invoices', {}],
    ['ar-invoices', { customerId: first<string>('ar-invoices', 'customerId') }],
    ['ar-invoices', { dateFrom: '2025-01-01' }],
    ['ap-invoices', { vendorId: first<string>('ap-invoices', 'vendorId') }],
    ['sales-orders', {}],
    ['sales-orders', { type: 'invoice' }],
    ['purchase-orders', { dateFrom: '2025-01-01' }],
    ['fiscal-periods', {}],
    ['gl-entries', { journalEntryNumber: first<number>('gl-entries', 'journalEntryNumber') }],
  ];
  for (const [object, filters] of cases) {
    const { rows } = everyRow(object, filters);
    assert.ok(rows.length > 1, `${object} ${JSON.stringify(filters)} has rows to walk`);
    for (const limit of [1, 7, rows.length]) {
      const walked = await walk(object, filters, limit);
      assert.deepEqual(walked.rows, rows, `${object} ${JSON.stringify(filters)} limit ${limit}`);
    }
  }
});

test('a cursor of the earlier [source, DEX_ROW_ID] walk, or of another key, is refused with a clear message', async () => {
  const list = (filters: FilterValues, after: Position) =>
    service.handle({ kind: 'list', object: 'ar-invoices', company: 'TWO', filters, limit: 5, after });
  await assert.rejects(
    list({}, [0, 250]),
    (e: Error & { code?: string }) => e.code === 'VALIDATION_ERROR' && /earlier version/.test(e.message),
  );
  const page = await service.handle({ kind: 'list', object: 'ar-invoices', company: 'TWO', filters: {}, limit: 5, after: null });
  assert.equal(page.next?.[0], 'document');
  // The same position with a filter that pages on another key (customer) is not a position of that list.
  await assert.rejects(
    list({ customerId: 'X' }, page.next!),
    (e: Error & { code?: string }) => e.code === 'VALIDATION_ERROR' && e.message === 'invalid cursor',
  );
  await assert.rejects(list({}, ['document', 0, 'not a type', 'X']), /invalid cursor/);
  await assert.rejects(list({}, ['document', 7, 1, 'X']), /invalid cursor/);
});
