import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ListPage, OpenList } from '../../core/reads/recordReader.ts';
import { pageText, pageWithinBudget, recordsThatFit, type PageSource } from './budget.ts';

/** An agent over an array: positions are indexes, a cursor is the index after the last record sent. */
function fakeAgent(records: readonly unknown[]) {
  const asked: number[] = [];
  const source = (start: number): PageSource => ({
    async page(_list: OpenList, limit: number): Promise<ListPage> {
      asked.push(limit);
      const slice = records.slice(start, start + limit);
      const end = start + slice.length;
      return { payload: Buffer.from(JSON.stringify(slice)), nextCursor: end < records.length ? `cursor-${end}` : null };
    },
  });
  return { source, asked };
}

const list = {} as OpenList;
/** Records of uneven size (20 to ~420 bytes), some with multi-byte characters. */
const records = Array.from({ length: 250 }, (_, i) => ({ id: `R${i}`, note: (i % 3 ? 'x' : 'é').repeat((i * 37) % 400) }));

async function walk(budget: number, limit: number) {
  const agent = fakeAgent(records);
  const pages: { text: string; data: unknown[] }[] = [];
  let start = 0;
  for (;;) {
    const page = await pageWithinBudget(agent.source(start), list, limit, budget);
    assert.equal(page.text, pageText(JSON.stringify(page.data), page.nextCursor));
    pages.push(page);
    if (page.nextCursor === null) break;
    start = Number(page.nextCursor.slice('cursor-'.length));
  }
  return { pages, asked: agent.asked };
}

test('a walk under a byte budget returns every record once, in order, in pages within the budget', async () => {
  for (const budget of [1_000, 2_500, 9_000, 64 * 1024]) {
    const { pages } = await walk(budget, 100);
    assert.deepEqual(
      pages.flatMap((p) => p.data),
      records,
      `budget ${budget}`,
    );
    for (const page of pages) {
      assert.ok(Buffer.byteLength(page.text) <= budget, `a ${Buffer.byteLength(page.text)}-byte page over ${budget}`);
      assert.ok(page.data.length >= 1 && page.data.length <= 100);
    }
  }
});

test('a page within the budget costs one agent request; one over it, one more for the records that fit', async () => {
  const small = await walk(64 * 1024, 10);
  assert.ok(small.asked.every((limit) => limit === 10));
  const agent = fakeAgent(records);
  const page = await pageWithinBudget(agent.source(0), list, 100, 4_000);
  assert.equal(agent.asked.length, 2);
  assert.equal(agent.asked[1], page.data.length);
  assert.equal(page.data.length, recordsThatFit(records.slice(0, 100), 4_000, 128));
});

test('a record larger than the budget comes alone rather than never', async () => {
  const huge = [{ id: 'A', note: 'x'.repeat(5_000) }, { id: 'B' }];
  const agent = fakeAgent(huge);
  const page = await pageWithinBudget(agent.source(0), list, 100, 1_000);
  assert.deepEqual(page.data, [huge[0]]);
  assert.equal(page.nextCursor, 'cursor-1');
});

test('recordsThatFit counts bytes of the page text, cursor included', () => {
  const rows = [{ a: 'é' }, { a: 'b' }];
  const full = Buffer.byteLength(pageText(JSON.stringify(rows), 'c'.repeat(10)));
  const cursorBytes = JSON.stringify('c'.repeat(10)).length;
  assert.equal(recordsThatFit(rows, full, cursorBytes), 2);
  assert.equal(recordsThatFit(rows, full - 1, cursorBytes), 1);
  assert.equal(recordsThatFit(rows, 10, cursorBytes), 0);
});
