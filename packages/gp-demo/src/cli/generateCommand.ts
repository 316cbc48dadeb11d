import type { Command } from 'commander';
import { demoAccountFramework, generateDemo } from '../generator/generate.ts';

/** `gp-demo generate`: the SQLite demo, with its progress on stderr and its row counts on stdout. */
export function registerGenerateCommand(program: Command): void {
  program
    .command('generate')
    .description('Write a deterministic GP-shaped demo (DYNAMICS plus two company databases) into a folder.')
    .requiredOption('--dir <dir>', 'folder to write into; it must not hold a demo already')
    .option('--scale <n>', 'size multiplier: 1 ≈ 500 customers and 5,000 GL lines per company', '1')
    .option('--seed <n>', 'random seed; the same seed and scale give the same data', '1')
    .option('--account-segments <n>', "segments of GP's account framework, 3 to 10 (account numbers of 5 or more use every segment)", '4')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-demo generate --dir ./demo                 DYNAMICS.sqlite, TWO.sqlite and NWIND.sqlite in ./demo\n' +
        '  gp-demo generate --dir ./demo-10 --scale 10   ten times the customers, documents and GL lines\n' +
        '  gp-demo generate --dir ./demo-5 --account-segments 5   account numbers such as 100-6100-00-00-01\n' +
        'Serve it with `gp-agent run … --sqlite-dir ./demo`. To write a folder again, delete it first.\n',
    )
    .action((flags: { dir: string; scale: string; seed: string; accountSegments: string }) => {
      const scale = Number(flags.scale);
      const seed = Number(flags.seed);
      const segments = Number(flags.accountSegments);
      if (!Number.isInteger(segments) || segments < 3 || segments > 10)
        throw new Error('--account-segments must be a whole number from 3 to 10');
      if (!Number.isInteger(scale) || scale < 1) throw new Error('--scale must be a whole number of at least 1');
      if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
      const started = Date.now();
      let lastPhase = '';
      const result = generateDemo({
        dir: flags.dir,
        scale,
        seed,
        accountFramework: demoAccountFramework(segments),
        onProgress: ({ phase, done, total }) => {
          if (phase !== lastPhase) process.stderr.write(`\n${phase}`);
          lastPhase = phase;
          process.stderr.write(`\r${phase}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}   `);
        },
      });
      process.stderr.write('\n');
      for (const [database, tables] of Object.entries(result.counts)) {
        console.log(
          `${database}: ${Object.entries(tables)
            .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
            .join(', ')}`,
        );
      }
      console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${flags.dir}`);
    });
}
