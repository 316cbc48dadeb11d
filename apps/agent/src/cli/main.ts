#!/usr/bin/env -S node --initial-old-space-size=128 --import tsx
import { Command } from 'commander';
import { AGENT_VERSION_LINE } from '../version.ts';
import { registerRunCommand } from './commands/run.ts';
import { registerDiagnoseCommand } from './commands/diagnose.ts';
import { registerCompaniesCommand } from './commands/companies.ts';
import { registerQueryCommand } from './commands/query.ts';
import { registerMssqlCommand } from './commands/mssql.ts';
import { registerInstallCommands } from './commands/install.ts';
import { registerUpdateCommand } from './commands/update.ts';

const program = new Command()
  .name('gp-agent')
  .description(
    'The on-premises agent of the GP gateway. It dials out to the gateway over a WebSocket and answers\n' +
      'typed read requests from the Dynamics GP databases it can see. It never runs SQL it is sent.',
  )
  .version(AGENT_VERSION_LINE)
  .addHelpText(
    'after',
    '\nFor support: `gp-agent diagnose --config <file>` checks everything the agent needs and says how to fix\n' +
      'what fails; `gp-agent companies` and `gp-agent query` read GP locally, without the gateway;\n' +
      '`gp-agent update --check` says whether the gateway offers a newer agent, `gp-agent update` installs it.\n',
  );

registerRunCommand(program);
registerDiagnoseCommand(program);
registerCompaniesCommand(program);
registerQueryCommand(program);
registerMssqlCommand(program);
registerInstallCommands(program);
registerUpdateCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`gp-agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
