import type { Command } from 'commander';

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('Start the gateway with the built-in demo sandbox, and print a new test key to try it with.')
    .addHelpText(
      'after',
      '\nEnvironment:\n' +
        '  PORT                port to listen on (default 3000)\n' +
        '  DATA_DIR            folder for the store, the cursor key and the demo databases (default ./data)\n' +
        '  LOG_LEVEL           fatal, error, warn, info, debug, trace or silent (default info)\n' +
        '  REQUEST_TIMEOUT_MS  how long an agent gets to answer (default 30000)\n' +
        '  DEMO_SCALE          size of the demo database generated on first start (default 1)\n' +
        '  AGENT_HEARTBEAT_INTERVAL_MS  how often agents are pinged (default 10000)\n' +
        '  AGENT_HEARTBEAT_TIMEOUT_MS   an agent silent this long is dropped (default 30000)\n' +
        '  CURSOR_SECRET       key that signs cursors, 32+ bytes as hex or base64; shared by every instance\n' +
        '                      (default: one made once and kept in DATA_DIR/cursor.key)\n',
    )
    // The server, its dependencies and the demo generator load only for `start`, so operator
    // commands (org, key, connection) start in about half the time.
    .action(async () => (await import('../runStart.ts')).runStart());
}
