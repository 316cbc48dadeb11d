import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OBJECTS, type FilterSpec, type ObjectSpec, type Position } from '@gp-gateway/protocol';
import { CATALOGUE } from './index.ts';
import { WORK_READS } from './resources/work.ts';
import type { ResourceDef } from './types.ts';
import { PreparedResource } from './compile.ts';
import { renderSelect } from '../sql/render.ts';
import { sqliteDialect } from '../sql/sqliteDialect.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';

/**
 * Golden `{ sql, params }` for every object in both dialects: the first page, a deep page (its
 * position split into seeks), a page with every filter set after a position, and get-by-id. The files under golden/ are the reviewed statements;
 * run with UPDATE_GOLDEN=1 to rewrite them after an intended change, then read the diff.
 */
const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden');

/** A representative value for each filter kind (exercising escaping and padding). */
function sampleValue(name: string, spec: FilterSpec, object: ObjectSpec): unknown {
  switch (spec.kind) {
    case 'string':
      return name === 'documentId'
        ? object.parent === 'sales-orders'
          ? 'invoice:STDINV2261'
          : 'PO2001'
        : `${name.toUpperCase().slice(0, 8)}1`;
    case 'search':
      return "50%_o'b";
    case 'boolean':
      return true;
    case 'integer':
      return 2026;
    case 'enum':
      return spec.values[spec.values.length - 1];
    case 'timestamp':
      return '2026-03-01T14:05:09.123Z';
    case 'date':
      return '2026-02-28';
    case 'ids':
      return ['A1', 'B2'];
  }
}

/** A position in the first table a list with these filters reads, of the shape of its key. */
function positionIn(resource: PreparedResource, company: string | null, filters: object): Position {
  const [first] = resource.listQueries(company, filters as never, 1, null);
  const values = first!.walk.map((c, i) => (c.type.kind === 'int' ? 1 : c.type.kind === 'datetime' ? '2026-01-31 00:00:00.000' : `K${i}`));
  return [first!.key, first!.source, ...values];
}

function statements(object: ObjectSpec, work?: { filter: string; value: string; def: ResourceDef }) {
  const def = work?.def ?? CATALOGUE[object.name as keyof typeof CATALOGUE];
  const company = object.companyScoped ? 'TWO' : null;
  const all = Object.fromEntries(Object.entries(object.filters).map(([name, spec]) => [name, sampleValue(name, spec, object)]));
  if (work) {
    all[work.filter] = work.value;
    for (const name of Object.keys(all)) if (!(name in def.filters)) delete all[name];
  }
  const base = work ? { [work.filter]: work.value } : object.parent ? { documentId: all.documentId as string } : {};
  const out: Record<string, unknown> = {};
  for (const dialect of [sqliteDialect, mssqlDialect]) {
    const resource = new PreparedResource(def, dialect);
    const render = (queries: { query: Parameters<typeof renderSelect>[0] }[]) =>
      queries.map(({ query }) => {
        const { sql, params } = renderSelect(query, dialect);
        return { sql, params: params.map((p) => (typeof p.value === 'bigint' ? `${p.value}n` : p.value)) };
      });
    out[dialect.name] = {
      firstPage: render(resource.listQueries(company, base as never, 101, null)),
      // A deep page splits its position into parts that each seek (PreparedResource.listQueries).
      deepPage: render(resource.listQueries(company, base as never, 101, positionIn(resource, company, base))),
      allFilters: render(resource.listQueries(company, all as never, 11, positionIn(resource, company, all))),
      ...(def.idParts
        ? {
            get: render(
              resource
                .getQueries(
                  company,
                  def.idParts.map((p, i) => (p.enum ? 'invoice' : `ID${i}`)),
                )
                .map((query) => ({ query })),
            ),
          }
        : {}),
    };
  }
  return out;
}

for (const object of Object.values(OBJECTS) as ObjectSpec[]) {
  test(`golden SQL: ${object.name}`, () => {
    const file = path.join(GOLDEN_DIR, `${object.name}.json`);
    const actual = statements(object);
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    assert.ok(fs.existsSync(file), `missing ${file}; run with UPDATE_GOLDEN=1 and review it`);
    assert.deepEqual(actual, JSON.parse(fs.readFileSync(file, 'utf8')));
  });
}

// Unposted documents, read from the work tables eConnect writes (catalogue/resources/work.ts).
for (const [name, work] of Object.entries(WORK_READS)) {
  test(`golden SQL: ${name} ${work.filter}=${work.value}`, () => {
    const file = path.join(GOLDEN_DIR, `${name}.${work.value}.json`);
    const actual = statements((OBJECTS as Record<string, ObjectSpec>)[name]!, work);
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    assert.ok(fs.existsSync(file), `missing ${file}; run with UPDATE_GOLDEN=1 and review it`);
    assert.deepEqual(actual, JSON.parse(fs.readFileSync(file, 'utf8')));
  });
}

test('an unposted document reads with the fields and filters of its posted resource', () => {
  for (const [name, work] of Object.entries(WORK_READS)) {
    const object = (OBJECTS as Record<string, ObjectSpec>)[name]!;
    assert.deepEqual(Object.keys(work.def.fields), Object.keys(object.resource.shape), `${name} fields`);
    // Every filter but those docs/api.md says do not combine with unposted gl-entries.
    const refused = name === 'gl-entries' ? ['dateFrom', 'dateTo', 'series'] : [];
    assert.deepEqual(
      Object.keys(work.def.filters).sort(),
      Object.keys(object.filters)
        .filter((f) => !refused.includes(f))
        .sort(),
      `${name} filters`,
    );
    assert.equal(Boolean(work.def.idParts), object.idForm !== null, `${name} get by id`);
  }
});

test('every object of the protocol has a catalogue entry covering exactly its fields and filters', () => {
  for (const object of Object.values(OBJECTS) as ObjectSpec[]) {
    const def = CATALOGUE[object.name as keyof typeof CATALOGUE];
    assert.deepEqual(Object.keys(def.fields), Object.keys(object.resource.shape), `${object.name} fields`);
    assert.deepEqual(Object.keys(def.filters).sort(), Object.keys(object.filters).sort(), `${object.name} filters`);
    assert.equal(Boolean(def.idParts), object.idForm !== null, `${object.name} get by id`);
    if (object.idForm?.kind === 'composite') assert.equal(def.idParts?.length, 2, `${object.name} composite id`);
  }
});
