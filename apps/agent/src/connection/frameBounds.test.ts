import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FRAME_BYTES, MAX_LIMIT } from '@gp-gateway/protocol';
import { CATALOGUE } from '../catalogue/index.ts';
import { sqlTypeOf } from '../catalogue/compile.ts';
import type { ResourceDef } from '../catalogue/types.ts';

/** Room a value of a non-text column takes at most as JSON: money with 19 digits and a sign, a timestamp, an enum name. */
const OTHER_VALUE_BYTES = 40;
/** Every character of a text column escaped as \u00XX, between quotes. */
const textBytes = (length: number) => length * 6 + 2;

/** The largest JSON a row of the resource can be: every field at its column's full width, every character escaped. */
function widestRow(def: ResourceDef): number {
  const tableOf = new Map((def.joins ?? []).map((j) => [j.alias, j.table]));
  let bytes = 2;
  for (const [name, field] of Object.entries(def.fields)) {
    const columns = 'columns' in field ? field.columns : [field];
    const widest = Math.max(
      ...columns.map((c) => {
        const type = sqlTypeOf(c.join ? tableOf.get(c.join)! : def.sources[0]!.table, c.column);
        return type.kind === 'char' ? textBytes(type.length) : OTHER_VALUE_BYTES;
      }),
    );
    bytes += name.length + 4 + widest;
  }
  return bytes;
}

test('the largest legal page of every object fits in a frame with a quarter to spare', () => {
  const pages = Object.values(CATALOGUE).map((def) => ({ object: def.object, bytes: widestRow(def) * MAX_LIMIT + 1024 }));
  const largest = pages.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  assert.ok(
    largest.bytes * 1.25 <= MAX_FRAME_BYTES,
    `a page of ${largest.object} may be ${largest.bytes} bytes; MAX_FRAME_BYTES (${MAX_FRAME_BYTES}) must stay a quarter above the largest`,
  );
});
