import type { Command } from 'commander';
import { checkDatabase } from '../../diagnostics/database.ts';
import type { Finding } from '../../diagnostics/findings.ts';
import { checkGateway } from '../../diagnostics/gateway.ts';
import { formatReport, reportOf, type DiagnoseReport } from '../../diagnostics/report.ts';
import { checkWrites } from '../../diagnostics/writeGrants.ts';
import { checkWritesEndToEnd } from '../../diagnostics/writeCheck.ts';
import { ReadService } from '../../service/readService.ts';
import { WriteService } from '../../writes/writeService.ts';
import { openExecutor, openWriter } from '../common.ts';
import { ConfigError, loadAgentConfig, settingsHelp, type AgentConfig, type DatabaseConfig } from '../runConfig.ts';

/** `gp-agent install` prints the same report after it installs. */
export { formatReport };

/**
 * Every check support needs, in the order a problem would show: configuration, database, gateway.
 * A check that depends on an earlier one that failed is skipped and says so.
 */
export async function diagnose(
  flags: Record<string, string | undefined>,
  env: NodeJS.ProcessEnv,
  options: { writes?: boolean; company?: string } = {},
): Promise<DiagnoseReport> {
  const findings: Finding[] = [];
  let config: AgentConfig | null = null;
  let database: DatabaseConfig | null = null;
  let configIssues: string[] = [];
  try {
    config = loadAgentConfig(flags, env, 'all');
    database = config.database;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    configIssues = error.issues;
    try {
      database = loadAgentConfig(flags, env, 'database').database;
    } catch {
      database = null;
    }
  }
  const file = flags.config ?? env.GP_AGENT_CONFIG;
  if (configIssues.length) {
    findings.push({
      check: 'Configuration',
      status: 'fail',
      summary: `${configIssues.length === 1 ? 'one setting is' : `${configIssues.length} settings are`} missing or wrong`,
      details: configIssues,
      fix: file
        ? `correct ${file} (or the environment variable, which wins over the file)`
        : 'give the settings as flags, environment variables, or in a file named by --config',
    });
  } else {
    const where = config!.database.kind === 'mssql' ? 'SQL Server' : `SQLite folder ${config!.database.dir}`;
    const warnings = config!.warnings;
    findings.push({
      check: 'Configuration',
      status: warnings.length ? 'warn' : 'ok',
      summary: `gateway ${config!.gatewayUrl}, ${where}${file ? `, from ${file}` : ''}`,
      ...(warnings.length
        ? { details: warnings, fix: 'give the token through the configuration file, GP_AGENT_TOKEN or --token-file' }
        : {}),
    });
  }

  if (database) {
    const executor = openExecutor(database);
    try {
      const checked = await checkDatabase(database, executor);
      findings.push(...checked.findings);
      const readable = !checked.findings.some((f) => f.status === 'fail');
      if (config && readable) findings.push(await checkWrites(database, executor, checked.companies, config.allowWrites));
      if (options.writes) findings.push(...(await writeCheck(database, executor, readable ? checked.companies : null, options.company)));
    } finally {
      await executor.close().catch(() => {});
    }
  } else {
    findings.push({ check: 'Database', status: 'skip', summary: 'no usable database setting' });
  }

  if (config) findings.push(...(await checkGateway(config)).findings);
  else findings.push({ check: 'Gateway', status: 'skip', summary: 'needs a valid gateway URL and token' });

  return reportOf(findings);
}

/**
 * `--writes`: the write check (writes/writeCheck.ts) in `--company`, or in the first companies,
 * whether or not writes are on (it writes nothing), after the database checks passed.
 */
async function writeCheck(
  database: DatabaseConfig,
  executor: ReturnType<typeof openExecutor>,
  companies: string[] | null,
  company: string | undefined,
): Promise<Finding[]> {
  if (companies === null) return [{ check: 'Write check', status: 'skip', summary: 'needs the database checks to pass first' }];
  const wanted = company?.toUpperCase();
  if (wanted !== undefined && !companies.includes(wanted))
    return [
      {
        check: 'Write check',
        status: 'fail',
        summary: `there is no company ${company}`,
        fix: `name one of ${companies.join(', ')} with --company`,
      },
    ];
  const writes = new WriteService(openWriter(database), { allowWrites: false, validateOnlyWhenOff: true });
  try {
    return (await checkWritesEndToEnd(writes, new ReadService(executor), wanted ? [wanted] : companies)).findings;
  } finally {
    await writes.close();
  }
}

export function registerDiagnoseCommand(program: Command): void {
  program
    .command('diagnose')
    .description('Check everything the agent needs, in plain language, with a fix for each failure; exits 1 when a check fails.')
    .option('--config <file>', 'configuration file (env GP_AGENT_CONFIG), the same as `run` uses')
    .option('--gateway <url>', 'gateway base URL (env GP_GATEWAY_URL)')
    .option('--token-file <file>', 'a file holding the agent token (env GP_AGENT_TOKEN_FILE)')
    .option('--token <token>', 'agent token, lb_agent_… (env GP_AGENT_TOKEN); shows in the process list, so prefer the file')
    .option('--mssql <connection>', 'SQL Server connection string (env GP_MSSQL_CONNECTION)')
    .option('--sqlite-dir <dir>', 'folder of GP-shaped SQLite databases (env GP_SQLITE_DIR)')
    .option('--allow-writes', 'check as an agent with writes on (env GP_AGENT_ALLOW_WRITES)')
    .option('--writes', 'also run a validate-only write of every writable object through GP (nothing is written, no number taken)')
    .option('--company <db>', 'the company (its database) --writes checks; else the first five SY01500 lists')
    .option('--json', 'print the findings as JSON')
    .addHelpText(
      'after',
      '\nChecks: configuration; SQL Server login (or the SQLite folder); GP version; companies; the system\n' +
        'database the companies name (SY00100); snapshot isolation allowed where GP_MSSQL_ISOLATION is snapshot;\n' +
        'read permission on every table the API reads, in every company; writes (off, or on and permitted: every\n' +
        'grant of `gp-agent mssql grant-write`, in the system database and every company, each missing one named);\n' +
        'gateway reachable over HTTPS; WebSocket upgrade and\n' +
        "token accepted; clock skew against the gateway; round-trip time; this agent's version against the oldest\n" +
        'the gateway supports and the newest it offers (`gp-agent update` installs it). With --writes, a validate-only write of\n' +
        'every writable object through GP (eConnect on SQL Server), references taken from the company, rolled back\n' +
        "and taking no number: per object, works, or GP's error codes and words, or the grant the login lacks.\n" +
        'Run it where the service runs, as\n' +
        "the service's account, with the service's configuration file.\n" +
        settingsHelp() +
        '\nExamples:\n' +
        '  gp-agent diagnose --config /etc/gp-agent/gp-agent.conf\n' +
        '  gp-agent diagnose --config "C:\\ProgramData\\gp-agent\\gp-agent.conf"\n' +
        '  gp-agent diagnose --config /etc/gp-agent/gp-agent.conf --writes --company TWO\n' +
        '  gp-agent diagnose --gateway https://gateway.example.com --token-file agent.token --sqlite-dir ./demo --json\n',
    )
    .action(async (flags: Record<string, string | undefined> & { json?: boolean; writes?: boolean }) => {
      const report = await diagnose(flags, process.env, {
        writes: flags.writes === true,
        ...(flags.company && { company: flags.company }),
      });
      if (flags.json) console.log(JSON.stringify(report, null, 2));
      else console.log(formatReport(report).join('\n'));
      process.exitCode = report.failed ? 1 : 0;
    });
}
