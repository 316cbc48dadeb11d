import { measureWrites, writesCpuLines, writesTable, writeTargets } from './writes.ts';

/**
 * `pnpm bench:writes`: only the writes of `pnpm bench` (bench/writes.ts), for working on the write
 * path; BENCH_SECONDS (default 8) per scenario. Prints its table and targets; the recorded run, in
 * bench/results/latest.json, is `pnpm bench`'s.
 */
const results = await measureWrites(Number(process.env.BENCH_SECONDS ?? 8));
console.log(['| measure | gateway + agent | floor | ratio |', '|---|---:|---:|---:|', ...writesTable(results)].join('\n'));
console.log(`\n${writesCpuLines(results).join('\n')}`);
console.log(
  `\n${writeTargets(results)
    .map(({ name, met, value }) => `- ${met ? 'met' : 'NOT MET'}: ${name} (${value})`)
    .join('\n')}`,
);
process.exit(0);
