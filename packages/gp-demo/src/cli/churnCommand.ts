import fs from 'node:fs';
import type { Command } from 'commander';
import { churn } from '../churn/churn.ts';
import { demoDatabasePaths } from '../generator/generate.ts';

/** `gp-demo churn`: a trickle of GP-shaped changes in a demo company, each printed with the events it makes. */
export function registerChurnCommand(program: Command): void {
  program
    .command('churn')
    .description(
      'Make a trickle of GP-shaped changes (new customers and addresses, updates, deletes, invoices entered and posted, ' +
        'sales documents moved to history with their lines, units received, batches re-dated) in a demo company, so that the change feed (GET /v1/events) has something to report.',
    )
    .requiredOption('--dir <dir>', 'the demo folder (written by gp-demo generate)')
    .option('--company <id>', 'the company database to change', 'TWO')
    .option('--count <n>', 'how many changes; 0: until stopped (Ctrl+C)', '10')
    .option('--every <ms>', 'milliseconds between two changes', '1000')
    .option('--seed <n>', 'random seed: the same seed on the same demo makes the same changes', '1')
    .addHelpText(
      'after',
      '\nEach change is one line: what was done, then the events the feed will carry for it\n' +
        '(an address change also stamps its customer, units received their item, as GP does).\n' +
        '\nExamples:\n' +
        '  gp-demo churn --dir ./demo                          ten changes in TWO, one a second\n' +
        '  gp-demo churn --dir ./demo --count 0 --every 5000   one every 5 s until Ctrl+C\n' +
        'Run it beside an agent serving the folder: gp-agent run … --sqlite-dir ./demo\n',
    )
    .action(async (flags: { dir: string; company: string; count: string; every: string; seed: string }) => {
      const count = Number(flags.count);
      const everyMs = Number(flags.every);
      const seed = Number(flags.seed);
      if (!Number.isInteger(count) || count < 0) throw new Error('--count must be a whole number (0: until stopped)');
      if (!Number.isInteger(everyMs) || everyMs < 0) throw new Error('--every must be a whole number of milliseconds');
      if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
      const file = demoDatabasePaths(flags.dir).companyDatabases[flags.company.toUpperCase()];
      if (!file || !fs.existsSync(file))
        throw new Error(`${flags.dir} holds no demo company ${flags.company} (write one with gp-demo generate --dir ${flags.dir})`);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      const made = await churn(file, {
        count,
        everyMs,
        seed,
        signal: stop.signal,
        onChange: (change) => console.log(`${change.what}: ${change.events.join(', ')}`),
      });
      console.log(`${made.length} changes in ${flags.company.toUpperCase()}`);
    });
}
