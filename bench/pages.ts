import { DEEP_PAGE_TARGET, deepPagesTable, measureDeepPages } from './deepPages.ts';
import { ensureDatabase } from './system.ts';

/** `pnpm bench:pages`: only the first-page/deep-page measurement of `pnpm bench` (bench/deepPages.ts). */
ensureDatabase();
const pages = await measureDeepPages();
console.log(deepPagesTable(pages));
const missed = pages.filter((p) => p.ratio > DEEP_PAGE_TARGET);
console.log(
  missed.length
    ? `NOT MET: ${missed.map((p) => p.list).join(', ')} over ${DEEP_PAGE_TARGET}x`
    : `met: every deep page within ${DEEP_PAGE_TARGET}x its first`,
);
