import type { ListPage, OpenList } from '../../core/reads/recordReader.ts';

/**
 * Largest result a tool returns, in UTF-8 bytes of its text (a result is its text alone):
 * about 20,000 tokens, under the 25,000 tokens at which common clients refuse a tool result. A page
 * that would be larger holds fewer records, and its cursor continues after the last one it holds.
 */
export const RESULT_BUDGET_BYTES = 64 * 1024;

/** Room kept for a next cursor that a shortened page will carry (cursors are about 60 bytes). */
const CURSOR_ALLOWANCE_BYTES = 128;

/** The text of a page: the REST list body, with the agent's JSON spliced in. */
export function pageText(payload: string, nextCursor: string | null): string {
  return `{"data":${payload},"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/** How many leading records fit in `budget` bytes of page text with a cursor of `cursorBytes`; may be 0. */
export function recordsThatFit(records: readonly unknown[], budget: number, cursorBytes: number): number {
  let bytes = pageText('[]', null).length - 'null'.length + cursorBytes;
  let count = 0;
  for (const record of records) {
    bytes += Buffer.byteLength(JSON.stringify(record)) + (count > 0 ? 1 : 0);
    if (bytes > budget) break;
    count += 1;
  }
  return count;
}

export interface BudgetedPage {
  text: string;
  data: unknown[];
  nextCursor: string | null;
}

/** Where pages come from: the record reader, or a fake in tests. */
export interface PageSource {
  page(list: OpenList, limit: number): Promise<ListPage>;
}

/**
 * One page of at most `limit` records whose text fits in `budget` bytes. Positions belong to the
 * agent, so a page that is too large is asked for again from the same position with as many records
 * as fit: each page returned is a whole agent page with its own cursor, so a walk skips and repeats
 * nothing. A single record larger than the budget is returned alone rather than never (no record of
 * the v1 objects comes near 64 KiB).
 */
export async function pageWithinBudget(
  source: PageSource,
  list: OpenList,
  limit: number,
  budget: number,
  /** Changes each record (MCP adds an id to those without); the budget applies to the changed text. */
  decorate: ((record: Record<string, unknown>) => Record<string, unknown>) | null = null,
): Promise<BudgetedPage> {
  let ask = limit;
  for (;;) {
    const page = await source.page(list, ask);
    // MCP results are text: the one place the agent's bytes become a string.
    const raw = page.payload.toString();
    const parsed = JSON.parse(raw) as Record<string, unknown>[];
    const data = decorate ? parsed.map(decorate) : parsed;
    const text = pageText(decorate ? JSON.stringify(data) : raw, page.nextCursor);
    if (Buffer.byteLength(text) <= budget || data.length <= 1) return { text, data, nextCursor: page.nextCursor };
    const cursorBytes = Math.max(CURSOR_ALLOWANCE_BYTES, JSON.stringify(page.nextCursor).length);
    // Strictly fewer than this page held, so the loop ends; at least one, so a walk always advances.
    ask = Math.max(1, Math.min(recordsThatFit(data, budget, cursorBytes), data.length - 1));
  }
}
