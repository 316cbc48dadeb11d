import { Command } from 'commander';
import { registerConnectionCommand } from './commands/connection.ts';
import { registerKeyCommand } from './commands/key.ts';
import { registerOrgCommand } from './commands/org.ts';
import { registerStartCommand } from './commands/start.ts';
import { registerUserCommand } from './commands/user.ts';
import { printableMessage } from './output.ts';
import { registerWebhookCommand } from './commands/webhook.ts';

const program = new Command()
  .name('gp-gateway')
  .description(
    'The cloud gateway: REST API in front of Dynamics GP agents, plus the built-in demo sandbox. ' +
      'The org, key and connection commands work on the data folder in DATA_DIR (default ./data), ' +
      'the same one `start` uses, also while the gateway is running.',
  )
  .addHelpText(
    'after',
    '\nA new customer, step by step:\n' +
      '  gp-gateway org create "Acme Ltd"\n' +
      '  gp-gateway connection create --org "Acme Ltd" --name "Head office" --default-company TWO\n' +
      '  gp-gateway key create --org "Acme Ltd" --name "Production" --mode live --scopes read\n' +
      '  gp-gateway connection list --org "Acme Ltd"     # is their agent connected?\n' +
      '  gp-gateway user create --org "Acme Ltd" --email ops@acme.example --role admin   # their dashboard\n',
  );

registerStartCommand(program);
registerOrgCommand(program);
registerKeyCommand(program);
registerConnectionCommand(program);
registerUserCommand(program);
registerWebhookCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(`gp-gateway: ${printableMessage(error instanceof Error ? error.message : String(error))}`);
  process.exitCode = 1;
});
