import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { OBJECTS, type FilterSpec, type ObjectSpec, type Position } from '@gp-gateway/protocol';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { renderSelect } from '../sql/render.ts';
import type { CompiledQuery } from '../sql/model.ts';
import { WORK_READS } from './resources/work.ts';
import type { ResourceDef } from './types.ts';
import { CATALOGUE } from './index.ts';
import { PreparedResource, type ListQuery } from './compile.ts';
import { renderJsonPage } from './sqlite/pageJson.ts';
import { keyFor } from './pagingKeys.ts';

/**
 * Every list, with no filter and with each filter, first and deep pages, planned by SQLite on the
 * demo database, which has exactly GP's indexes (gp-schema's gpIndexes.ts): a plan here is one SQL
 * Server can have on a real GP company. No statement may sort for its ORDER BY (each walks a GP
 * index in its order), and each reads its table through the index of its key: by a seek, except
 * where a filter no GP index serves leaves nothing to seek on. Those filters are listed below, and
 * in docs/decisions.md#keyset-paging-on-gps-own-indexes; the test fails when one of them becomes
 * served or another one stops being served, so the list stays true.
 */
const UNSERVED: Readonly<Record<string, readonly string[]>> = {
  customers: ['q', 'inactive', 'hold', 'paymentTermsId', 'currencyId', 'taxScheduleId', 'updatedSince'],
  'customer-addresses': ['shippingMethodId', 'taxScheduleId'],
  vendors: ['q', 'status', 'ten99Type', 'hold', 'paymentTermsId', 'currencyId', 'updatedSince'],
  items: ['q', 'type', 'tracking', 'inactive', 'updatedSince'],
  accounts: ['q', 'active', 'postingType', 'updatedSince'],
  'gl-entries': ['series', 'originatingMasterId', 'dateFrom', 'dateTo'],
  'ar-invoices': ['batchId', 'currencyId', 'dueBefore', 'dateFrom@RM20101', 'dateTo@RM20101'],
  'ar-payments': ['batchId', 'currencyId', 'dueBefore', 'dateFrom@RM20101', 'dateTo@RM20101'],
  'ap-invoices': ['batchId', 'currencyId', 'dueBefore', 'dateFrom@PM20000', 'dateTo@PM20000'],
  'ap-payments': ['batchId', 'currencyId', 'dueBefore', 'dateFrom@PM20000', 'dateTo@PM20000'],
  'sales-orders': ['docTypeId', 'batchId', 'siteId'],
  'purchase-orders': ['status', 'type', 'currencyId'],
  sites: ['q', 'inactive'],
  checkbooks: ['q', 'inactive', 'currencyId'],
  'payment-terms': ['q'],
  salespeople: ['q', 'inactive', 'employeeId'],
  batches: ['markedToPost'],
  'ar-invoices status=work': ['currencyId', 'dueBefore'],
  'ap-invoices status=work': ['type', 'currencyId', 'dateFrom', 'dateTo', 'dueBefore'],
  'gl-entries year=unposted': ['originatingMasterId'],
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'list-plans-'));
generateDemo({ dir: path.join(dir, 'demo'), seed: 5 });
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const databases = new Map<string, Database.Database>();
after(() => databases.forEach((db) => db.close()));

function planOf(company: string | null, { sql, params }: CompiledQuery): string[] {
  const file = `${company ?? 'DYNAMICS'}.sqlite`;
  let db = databases.get(file);
  if (!db) databases.set(file, (db = new Database(path.join(dir, 'demo', file), { readonly: true })));
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map((p) => p.value)) as Array<{ detail: string }>;
  return plan.map((step) => step.detail);
}

/** A value for a filter that the demo could hold (the plan is what matters, not the rows). */
function valueFor(name: string, spec: FilterSpec, object: ObjectSpec): unknown {
  switch (spec.kind) {
    case 'string':
      if (name === 'documentId') return object.parent === 'sales-orders' ? 'invoice:STDINV2261' : 'PO2001';
      return 'VALUE1';
    case 'search':
      return 'abc';
    case 'boolean':
      return false;
    case 'integer':
      return 2025;
    case 'enum':
      return spec.values[0];
    case 'timestamp':
      return '2026-03-01T14:05:09.123Z';
    case 'date':
      return '2025-02-28';
    case 'ids':
      return ['A1', 'B2'];
  }
}

/** A position deep in a source table of the list, of the shape its key gives. */
function deepPosition(query: ListQuery): Position {
  // Integers 1: a document type every receivables and payables list holds.
  const values = query.walk.map((column) =>
    column.type.kind === 'int' ? 1 : column.type.kind === 'datetime' ? '2025-06-30 00:00:00.000' : 'M',
  );
  return [query.key, query.source, ...values];
}

for (const object of Object.values(OBJECTS) as ObjectSpec[]) planTest(object, CATALOGUE[object.name as keyof typeof CATALOGUE]);
// Unposted documents, from their work tables (catalogue/resources/work.ts): the same rule.
for (const [name, work] of Object.entries(WORK_READS))
  planTest((OBJECTS as Record<string, ObjectSpec>)[name]!, work.def, { filter: work.filter, value: work.value });

function planTest(object: ObjectSpec, def: ResourceDef, work?: { filter: string; value: string }): void {
  const resource = new PreparedResource(def, sqliteDialect);
  const company = def.database === 'system' ? null : 'TWO';
  const base: Record<string, unknown> = work
    ? { [work.filter]: work.value }
    : object.parent
      ? { documentId: valueFor('documentId', object.filters.documentId!, object) }
      : {};
  const label = work ? `${object.name} ${work.filter}=${work.value}` : object.name;
  const cases: Array<[string | null, Record<string, unknown>]> = [[null, base]];
  for (const [name, spec] of Object.entries(object.filters)) {
    if (name === 'documentId' || name === work?.filter || !(name in def.filters)) continue;
    // Source filters pick the posted tables (work ones are tested on their own, above).
    const value =
      def.filters[name]?.kind === 'sources'
        ? Object.keys((def.filters[name] as { sources: object }).sources)[0]
        : valueFor(name, spec, object);
    cases.push([name, { ...base, [name]: value }]);
  }

  test(`every list of ${label} walks a GP index in order: unfiltered, per filter, first and deep pages`, () => {
    // Per filter, the tables where it changes nothing about how the table is read: a residual predicate.
    const residualIn = new Map<string, string[]>();
    const unfiltered = resource.listQueries(company, base as never, 100, null);
    for (const [filter, filters] of cases) {
      for (const first of resource.listQueries(company, filters as never, 100, null)) {
        const table = first.query.from.table;
        const index = keyFor(def, table, Object.keys(filters)).index;
        // Residual: the same key, walk and access to the table as without the filter.
        const plain = unfiltered.find((q) => q.source === first.source)!;
        const access = (q: ListQuery) => planOf(company, renderSelect(q.query, sqliteDialect)).find((d) => /^(SCAN|SEARCH) t\b/.test(d));
        const same = plain.key === first.key && plain.walk.length === first.walk.length && access(plain) === access(first);
        if (filter !== null && def.filters[filter]?.kind !== 'sources' && same)
          residualIn.set(filter, [...(residualIn.get(filter) ?? []), table]);
        const deep = resource.listQueries(company, filters as never, 100, deepPosition(first)).filter((q) => q.source === first.source);
        for (const [page, query] of [['first', first] as const, ...deep.map((q) => ['deep', q] as const)]) {
          for (const statement of [
            renderSelect(query.query, sqliteDialect),
            renderJsonPage(query.query, sqliteDialect, resource.jsonRow),
          ]) {
            const details = planOf(company, statement);
            const where = `${object.name} ${filter ?? '(no filter)'} ${page} page of ${table}:\n${statement.sql}\n${details.join('\n')}`;
            assert.ok(!details.some((d) => /TEMP B-TREE/.test(d)), `sorts: ${where}`);
            const main = details.find((d) => /^(SCAN|SEARCH) t\b/.test(d));
            assert.ok(main, `does not read ${table}: ${where}`);
            // GL20000/GL30000's key is their rowid (DEX_ROW_ID, PKGL20000): SQLite names no index for it.
            if (query.query.index === 'rowid') assert.match(main, /^(SCAN t|SEARCH t USING INTEGER PRIMARY KEY)/, where);
            else assert.match(main, new RegExp(`^(SCAN|SEARCH) t USING (COVERING )?INDEX ${index}\\b`), where);
            // A deep page seeks to its position, whatever the filters: the index is searched on the
            // part of the position this statement reads after (its last condition), or on each value
            // of an IN list of that column (ids, or a table's own types past the position's).
            if (page === 'deep') {
              const inList = query.query.where.some(
                (c) =>
                  (c.op === 'in' || c.op === 'inLookup') && c.column.alias === 't' && new RegExp(`[( ]${c.column.column}=\\?`).test(main),
              );
              const after = query.query.where.at(-1)!;
              if (!inList) {
                assert.ok(after.op === 'gt', where);
                const column = query.query.index === 'rowid' ? 'rowid' : after.column.column;
                assert.match(main, new RegExp(`^SEARCH .*\\b${column}>\\?`), where);
              }
            }
          }
        }
      }
    }
    const residual = [...residualIn]
      .map(([filter, tables]) => (tables.length === unfiltered.length ? filter : tables.map((t) => `${filter}@${t}`)))
      .flat();
    assert.deepEqual(residual.sort(), [...(UNSERVED[label] ?? [])].sort(), `${label}: the filters no GP index serves`);
  });
}
