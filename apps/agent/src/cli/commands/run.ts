import type { Command } from 'commander';
import pino from 'pino';
import { SqliteExecutor } from '../../db/sqliteExecutor.ts';
import { MssqlExecutor } from '../../db/mssqlExecutor.ts';
import { ReadService } from '../../service/readService.ts';
import { dialGateway, FatalConnectionError } from '../../connection/dialGateway.ts';
import { loadRunConfig } from '../runConfig.ts';

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Connect to the gateway and serve requests until stopped (Ctrl+C or SIGTERM).')
    .option('--gateway <url>', 'gateway base URL (env GP_GATEWAY_URL), e.g. https://gateway.example.com')
    .option('--token <token>', 'agent token of this connection, lb_agent_… (env GP_AGENT_TOKEN)')
    .option('--mssql <connection>', 'SQL Server connection string, e.g. "Server=gp01;User Id=api_read;Password=…;Encrypt=true" (env GP_MSSQL_CONNECTION)')
    .option('--sqlite-dir <dir>', 'serve the embedded GP-shaped SQLite databases in this folder instead (env GP_SQLITE_DIR)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug (env LOG_LEVEL)', undefined)
    .addHelpText(
      'after',
      '\nExample:\n  gp-agent run --gateway https://gateway.example.com --token lb_agent_… --sqlite-dir ./data/demo\n',
    )
    .action(async (flags: Record<string, string | undefined>) => {
      const config = loadRunConfig(flags, process.env);
      const log = pino({ level: config.logLevel, base: { component: 'agent' } });
      const executor =
        config.database.kind === 'mssql'
          ? new MssqlExecutor(config.database.connection)
          : new SqliteExecutor({ dir: config.database.dir, readonly: true });
      const service = new ReadService(executor);
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          log.info({ signal }, 'stopping');
          stop.abort();
        });
      }
      try {
        await dialGateway({ gatewayUrl: config.gatewayUrl, token: config.token, service, log, dialect: executor.dialect.name }, stop.signal);
      } catch (error) {
        if (error instanceof FatalConnectionError) {
          log.fatal(error.message);
          process.exitCode = 2;
          return;
        }
        throw error;
      } finally {
        await executor.close();
      }
    });
}
