import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './system.ts';
import { measureWrites, writesCpuLines, writesTable, writeTargets } from './writes.ts';

/**
 * `pnpm bench:writes`: only the writes of `pnpm bench` (bench/writes.ts), for working on the write
 * path; BENCH_SECONDS (default 8) per scenario. Writes bench/results/writes.json.
 */
const results = await measureWrites(Number(process.env.BENCH_SECONDS ?? 8));
const targets = writeTargets(results);
fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench', 'results', 'writes.json'),
  `${JSON.stringify({ ranAt: new Date().toISOString(), ...results, targets }, null, 2)}\n`,
);
console.log(['| measure | gateway + agent | floor | ratio |', '|---|---:|---:|---:|', ...writesTable(results)].join('\n'));
console.log(`\n${writesCpuLines(results).join('\n')}`);
console.log(`\n${targets.map(({ name, met, value }) => `- ${met ? 'met' : 'NOT MET'}: ${name} (${value})`).join('\n')}`);
process.exit(0);
