import type { Command } from 'commander';
import { checkDatabase } from '../../diagnostics/database.ts';
import type { Finding } from '../../diagnostics/findings.ts';
import { checkGateway } from '../../diagnostics/gateway.ts';
import { formatReport, reportOf, type DiagnoseReport } from '../../diagnostics/report.ts';
import { checkWrites } from '../../diagnostics/writeGrants.ts';
import { openExecutor } from '../common.ts';

/** `gp-agent install` prints the same report after it installs. */
export { formatReport };
import { ConfigError, loadAgentConfig, settingsHelp, type AgentConfig, type DatabaseConfig } from '../runConfig.ts';

/**
 * Every check support needs, in the order a problem would show: configuration, database, gateway.
 * A check that depends on an earlier one that failed is skipped and says so.
 */
export async function diagnose(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv): Promise<DiagnoseReport> {
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
      if (config && !checked.findings.some((f) => f.status === 'fail'))
        findings.push(await checkWrites(database, executor, checked.companies, config.allowWrites));
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
    .option('--json', 'print the findings as JSON')
    .addHelpText(
      'after',
      '\nChecks: configuration; SQL Server login (or the SQLite folder); GP version; companies; the system\n' +
        'database the companies name (SY00100); snapshot isolation allowed where GP_MSSQL_ISOLATION is snapshot;\n' +
        'read permission on every table the API reads, in every company; writes (off, or on and permitted: every\n' +
        'grant of `gp-agent mssql grant-write`, in the system database and every company, each missing one named);\n' +
        'gateway reachable over HTTPS; WebSocket upgrade and\n' +
        'token accepted; clock skew against the gateway; round-trip time. Run it where the service runs, as\n' +
        "the service's account, with the service's configuration file.\n" +
        settingsHelp() +
        '\nExamples:\n' +
        '  gp-agent diagnose --config /etc/gp-agent/gp-agent.conf\n' +
        '  gp-agent diagnose --config "C:\\ProgramData\\gp-agent\\gp-agent.conf"\n' +
        '  gp-agent diagnose --gateway https://gateway.example.com --token-file agent.token --sqlite-dir ./demo --json\n',
    )
    .action(async (flags: Record<string, string | undefined> & { json?: boolean }) => {
      const report = await diagnose(flags, process.env);
      if (flags.json) console.log(JSON.stringify(report, null, 2));
      else console.log(formatReport(report).join('\n'));
      process.exitCode = report.failed ? 1 : 0;
    });
}
