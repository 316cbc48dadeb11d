import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sea from 'node:sea';
import type { Command } from 'commander';
import { applyPlan, describeStep, StepFailed } from '../install/applyPlan.ts';
import { hiddenByUnit } from '../install/serviceFiles.ts';
import { lacksPassword, passwordFromFile, promptPassword, withPassword } from '../install/sqlPassword.ts';
import { installPlan, uninstallPlan, type Plan } from '../install/servicePlan.ts';
import { loadAgentConfig } from '../runConfig.ts';
import { diagnose, formatReport } from './diagnose.ts';

type Platform = 'linux' | 'win32';

interface ServiceFlags {
  root?: string;
  dryRun?: boolean;
  purge?: boolean;
}

interface InstallFlags extends ServiceFlags {
  gateway?: string;
  tokenFile?: string;
  mssql?: string;
  sqliteDir?: string;
  serviceAccount?: string;
  winsw?: string;
  mssqlPasswordFile?: string;
  inPlace?: boolean;
}

function platform(): Platform {
  if (process.platform === 'linux' || process.platform === 'win32') return process.platform;
  throw new Error(`install works on Linux (systemd) and Windows; this is ${process.platform}`);
}

/** The program to install: the running single file. From a checkout there is no such file. */
function runningProgram(): string {
  if (!sea.isSea())
    throw new Error(
      'install copies the single-file program it runs as (gp-agent-linux-x64 or gp-agent-win-x64.exe, from `pnpm build:agent`); ' +
        'run from a checkout, install the service by hand from deploy/ (docs/operations.md, "Running the agent in production")',
    );
  return process.execPath;
}

/** Service registration needs an administrator: root on Linux, an elevated prompt on Windows. */
function checkAdministrator(p: Platform, flags: ServiceFlags): void {
  if (flags.root !== undefined || flags.dryRun) return;
  if (p === 'linux' && process.getuid?.() !== 0)
    throw new Error('run it as root (sudo gp-agent …), or pass --root <dir> to write the files under a folder');
  if (p === 'win32' && spawnSync('net', ['session'], { stdio: 'ignore' }).status !== 0)
    throw new Error('run it from an elevated prompt (Run as administrator)');
}

/** Whether systemd runs this machine (its own test, sd_booted(3)); a --root install is for a machine that does. */
function systemdRuns(flags: ServiceFlags): boolean {
  return flags.root !== undefined || flags.dryRun === true || fs.existsSync('/run/systemd/system');
}

/**
 * A demo folder the unit's sandbox hides works for install's own check (run as root, outside the
 * sandbox) and fails in the service: refused, or only warned about with --root (packaging, tests).
 */
function checkSandbox(p: Platform, dir: string, flags: ServiceFlags): void {
  const hidden = p === 'linux' ? hiddenByUnit(dir) : null;
  if (!hidden) return;
  const problem = `the SQLite folder ${dir} is hidden from the service by its unit's ${hidden}: move it, e.g. under /srv or /var/lib`;
  if (flags.root === undefined && !flags.dryRun) throw new Error(problem);
  console.log(`warning: ${problem}`);
}

/** WinSW, looked for beside the program under the names docs/operations.md gives. */
function findWinsw(program: string, given: string | undefined): string | undefined {
  if (given) return path.resolve(given);
  const dir = path.dirname(program);
  return ['gp-agent-service.exe', 'WinSW-x64.exe', 'WinSW.exe'].map((name) => path.join(dir, name)).find((file) => fs.existsSync(file));
}

async function carryOut(plan: Plan, flags: ServiceFlags, done: string): Promise<number> {
  for (const note of flags.dryRun ? plan.notes : []) console.log(note);
  if (flags.dryRun) {
    for (const step of plan.steps) console.log(`  ${describeStep(step)}`);
    return 0;
  }
  try {
    const passed = await applyPlan(plan, {
      ...(flags.root !== undefined ? { root: path.resolve(flags.root) } : {}),
      say: (line) => console.log(line),
      diagnose: async (config) => {
        // The service reads only its file: the environment of whoever installs must not count.
        const report = await diagnose({ config }, {});
        console.log(formatReport(report).join('\n'));
        return !report.failed;
      },
    });
    if (!passed) {
      console.log(`\nInstalled but NOT started: fix what diagnose reported in ${plan.config}, then run the install again.`);
      for (const note of plan.notes) console.log(note);
      return 1;
    }
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    console.error(`gp-agent: ${error.message}`);
    return 1;
  }
  console.log(`\n${done}`);
  for (const note of plan.notes) console.log(note);
  return 0;
}

export function registerInstallCommands(program: Command): void {
  program
    .command('install')
    .description('Install this program as a service (systemd on Linux, WinSW on Windows), write its configuration, check it, start it.')
    .requiredOption('--gateway <url>', 'gateway base URL, e.g. https://gateway.example.com (env GP_GATEWAY_URL)')
    .option('--token-file <file>', 'a file holding the agent token (env GP_AGENT_TOKEN_FILE, or GP_AGENT_TOKEN itself)')
    .option('--mssql <connection>', 'SQL Server connection string (env GP_MSSQL_CONNECTION, which keeps the password off the command line)')
    .option(
      '--mssql-password-file <file>',
      "the SQL login's password, first line of this file, when --mssql names a login without it (else install asks)",
    )
    .option('--sqlite-dir <dir>', 'serve a folder of GP-shaped SQLite databases instead (the demo)')
    .option('--service-account <account>', 'Windows: the account the service runs as (default NT AUTHORITY\\LocalService)')
    .option('--winsw <file>', 'Windows: WinSW (default: gp-agent-service.exe, shipped with the release, beside this program)')
    .option('--root <dir>', 'write the files under this folder instead of / and run no system command (packaging, tests)')
    .option('--in-place', 'Windows: the MSI installed the program and the service; write the configuration, check it, start')
    .option('--dry-run', 'print the steps without taking them')
    .addHelpText(
      'after',
      '\nLinux (as root): copies the program to /opt/gp-agent, writes /etc/gp-agent/gp-agent.conf (root and the\n' +
        'gp-agent account only) and the systemd unit, runs `gp-agent diagnose`, and starts the service when it\n' +
        'passes. Logs: journalctl -u gp-agent. Windows (elevated): copies the program and WinSW to\n' +
        'C:\\Program Files\\gp-agent, writes C:\\ProgramData\\gp-agent\\gp-agent.conf (administrators and the\n' +
        'service account only), registers the service, runs diagnose and starts it; logs roll in\n' +
        'C:\\ProgramData\\gp-agent\\logs. An existing configuration file is kept as it is. A step that fails\n' +
        'undoes what the earlier ones did. Without systemd, install sets up the account, program and\n' +
        'configuration, starts nothing, and prints the command that runs the agent by hand.\n' +
        '\nExamples:\n' +
        '  sudo ./gp-agent-linux-x64 install --gateway https://gateway.example.com --token-file agent.token \\\n' +
        '       --mssql "Server=gp01;Database=DYNAMICS;User Id=gp_api_read;Encrypt=true"     (asks for the password)\n' +
        '  .\\gp-agent-win-x64.exe install --gateway https://gateway.example.com --token-file agent.token --mssql "Server=gp01;User Id=gp_api_read" --mssql-password-file sql.pw\n',
    )
    .action(async (flags: InstallFlags) => {
      const p = platform();
      checkAdministrator(p, flags);
      const { gateway, tokenFile, mssql, sqliteDir } = flags;
      const config = loadAgentConfig({ gateway, tokenFile, mssql, sqliteDir }, { ...process.env, GP_AGENT_CONFIG: undefined }, 'all');
      if (config.database.kind === 'sqlite') checkSandbox(p, path.resolve(config.database.dir), flags);
      let connection = config.database.kind === 'mssql' ? config.database.connection : '';
      // The password is asked for (or read from its file), never typed into a command or an environment variable.
      if (connection && lacksPassword(connection))
        connection = withPassword(
          connection,
          flags.mssqlPasswordFile ? passwordFromFile(flags.mssqlPasswordFile) : await promptPassword("SQL login's password (not shown): "),
        );
      const database =
        config.database.kind === 'mssql'
          ? { kind: 'mssql' as const, connection }
          : { kind: 'sqlite' as const, dir: path.resolve(config.database.dir) };
      const program = flags.dryRun && !sea.isSea() ? process.execPath : runningProgram();
      const winsw = p === 'win32' && !flags.inPlace ? findWinsw(program, flags.winsw) : undefined;
      const plan = installPlan({
        platform: p,
        program,
        settings: { gatewayUrl: config.gatewayUrl, token: config.token, database },
        ...(flags.serviceAccount ? { serviceAccount: flags.serviceAccount } : {}),
        ...(winsw ? { winsw } : {}),
        systemd: p === 'linux' && systemdRuns(flags),
        inPlace: p === 'win32' && flags.inPlace === true,
      });
      // Said only of what happened: --root runs no command, and a plan may end before the start.
      const done =
        flags.root !== undefined
          ? `Installed under ${path.resolve(flags.root)}; nothing was registered or started (--root runs no system command).`
          : plan.starts
            ? `Installed and started. Configuration: ${plan.config}. Logs: ${plan.logs}.`
            : `Installed, NOT started. Configuration: ${plan.config}.`;
      process.exitCode = await carryOut(plan, flags, done);
    });

  program
    .command('uninstall')
    .description(
      'Stop the service (it drains first) and remove it and the program; the configuration (with the token) and the account stay unless --purge.',
    )
    .option('--purge', 'also remove the configuration file (it holds the token), the logs and, on Linux, the gp-agent account')
    .option('--root <dir>', 'remove the files under this folder instead of / and run no system command')
    .option('--dry-run', 'print the steps without taking them')
    .addHelpText(
      'after',
      '\nA service that is not there (never installed, or removed by hand) is no error: the rest is removed.\n' +
        "Afterwards, revoke the connection's agent token at the gateway unless another agent uses it.\n",
    )
    .action(async (flags: ServiceFlags) => {
      const p = platform();
      checkAdministrator(p, flags);
      const plan = uninstallPlan({ platform: p, purge: flags.purge === true, systemd: p === 'linux' && systemdRuns(flags) });
      const done = flags.root !== undefined ? `Removed under ${path.resolve(flags.root)}.` : 'The gp-agent service is removed.';
      process.exitCode = await carryOut(plan, flags, done);
    });
}
