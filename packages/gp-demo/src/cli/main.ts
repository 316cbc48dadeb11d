#!/usr/bin/env -S node --initial-old-space-size=128 --import tsx
import { Command } from 'commander';
import { registerChurnCommand } from './churnCommand.ts';
import { registerGenerateCommand } from './generateCommand.ts';
import { registerMssqlCommand } from './mssqlCommand.ts';

const program = new Command()
  .name('gp-demo')
  .description(
    'Builds made-up, GP-shaped demo data for trying the gateway and for tests: SQLite files the agent can ' +
      'serve, and the same data on a throwaway SQL Server. Never point it at a real GP server.',
  )
  .addHelpText(
    'after',
    '\nExamples (from a checkout, `pnpm demo` runs gp-demo):\n' +
      '  gp-demo generate --dir ./demo\n' +
      '  gp-agent run --gateway https://gateway.example.com --token lb_agent_… --sqlite-dir ./demo\n' +
      '  gp-demo churn --dir ./demo --count 0    GP-shaped changes, one a second, for the change feed\n' +
      '  gp-demo mssql load-demo --connection "Server=localhost,1433;User Id=sa;Password=…;Encrypt=false" --demo-dir ./demo\n' +
      'Run `gp-demo help <command>` for the options of each.\n',
  );

registerGenerateCommand(program);
registerMssqlCommand(program);
registerChurnCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`gp-demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
