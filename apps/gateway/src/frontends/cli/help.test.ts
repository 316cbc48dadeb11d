import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { registerConnectionCommand } from './commands/connection.ts';
import { registerKeyCommand } from './commands/key.ts';
import { registerOrgCommand } from './commands/org.ts';
import { registerUserCommand } from './commands/user.ts';

/** The full `--help` text of a command, including the examples added after it. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s) });
  command.outputHelp();
  return text;
}

test('every operator command has help with an example a support engineer can copy', () => {
  const program = new Command('gp-gateway');
  registerOrgCommand(program);
  registerKeyCommand(program);
  registerConnectionCommand(program);
  registerUserCommand(program);
  const commands = program.commands.flatMap((group) => [group, ...group.commands]);
  assert.deepEqual(
    commands.map((c) => c.name()),
    [
      'org',
      'create',
      'list',
      'set-limits',
      'key',
      'create',
      'list',
      'rotate',
      'revoke',
      'connection',
      'create',
      'list',
      'set-default-company',
      'set-write-whitelist',
      'rotate-token',
      'revoke-token',
      'user',
      'create',
      'list',
      'link',
    ],
  );
  for (const command of commands) {
    const help = helpOf(command);
    assert.ok(command.description().length > 0, `${command.name()} has a description`);
    const listing = command.name() === 'list';
    assert.ok(
      listing || /Examples?:\n {2}gp-gateway /.test(help),
      `${command.parent?.name()} ${command.name()} --help shows an example:\n${help}`,
    );
  }
});
