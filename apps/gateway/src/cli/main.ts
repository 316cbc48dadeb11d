import { Command } from 'commander';
import { registerStartCommand } from './commands/start.ts';

const program = new Command()
  .name('gp-gateway')
  .description('The cloud gateway: REST API in front of Dynamics GP agents, plus the built-in demo sandbox.');

registerStartCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`gp-gateway: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
