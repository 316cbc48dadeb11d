import type { Command } from 'commander';
import { ReadService } from '../../service/readService.ts';
import { openExecutor } from '../common.ts';
import { loadAgentConfig } from '../runConfig.ts';

/** The company databases GP lists in its system database's SY01500 (DYNAMICS..SY01500 by default), as a table. */
async function listCompanies(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): Promise<string[]> {
  const config = loadAgentConfig(flags, env, 'database');
  const executor = openExecutor(config.database);
  try {
    const companies = await new ReadService(executor).companies();
    if (!companies.length) return [`${executor.systemDatabase}..SY01500 lists no company.`];
    const rows = companies.map((c) => [c.id, c.number === null ? '' : String(c.number), c.name ?? '']);
    const widths = [2, 6].map((w, i) => Math.max(w, ...rows.map((r) => r[i]!.length)));
    const line = (r: string[]) => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]}`.trimEnd();
    return [line(['ID', 'NUMBER', 'NAME']), ...rows.map(line)];
  } finally {
    await executor.close();
  }
}

export function registerCompaniesCommand(program: Command): void {
  program
    .command('companies')
    .description('List the GP company databases the agent sees (its database settings only; no gateway needed).')
    .option('--config <file>', 'configuration file (env GP_AGENT_CONFIG)')
    .option('--mssql <connection>', 'SQL Server connection string (env GP_MSSQL_CONNECTION)')
    .option('--sqlite-dir <dir>', 'folder of GP-shaped SQLite databases (env GP_SQLITE_DIR)')
    .addHelpText(
      'after',
      '\nExamples:\n  gp-agent companies --config /etc/gp-agent/gp-agent.conf\n  gp-agent companies --sqlite-dir ./data/demo\n',
    )
    .action(async (flags: Record<string, string | undefined>) => {
      for (const line of await listCompanies(flags, process.env)) console.log(line);
    });
}
