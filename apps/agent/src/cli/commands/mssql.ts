import type { Command } from 'commander';
import { parseCompaniesOption } from '@gp-gateway/gp-schema';
import { readOnlyRoleScript } from '../../mssql/readOnlyRole.ts';
import { writeRoleScript } from '../../mssql/writeRole.ts';

/** SQL Server scripts a DBA runs. */
export function registerMssqlCommand(program: Command): void {
  const mssql = program
    .command('mssql')
    .description('SQL Server scripts: least-privilege read access, and write access for --allow-writes.');

  mssql
    .command('grant-read')
    .description(
      "Print a T-SQL script that gives a login SELECT on exactly the GP tables the agent reads, in GP's system database and\n" +
        'each company database, through the role gp_gateway_read. Nothing else is granted; DYNGRP is not used.',
    )
    .requiredOption('--login <name>', 'SQL or Windows login the agent connects with, e.g. gp_api_read or DOMAIN\\svc-gp-agent')
    .requiredOption('--companies <ids>', 'company database ids, comma separated, e.g. TWO,NWIND (see gp-agent companies)')
    .option('--password-env <variable>', 'create a SQL login with the password in this environment variable (omit for an existing login)')
    .option('--system-database <name>', "GP's system database, if GP was installed with a named one (GP_SYSTEM_DATABASE)", 'DYNAMICS')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-agent mssql grant-read --login "CONTOSO\\svc-gp-agent" --companies TWO > grant.sql\n' +
        '  GP_API_PASSWORD=… gp-agent mssql grant-read --login gp_api_read --password-env GP_API_PASSWORD --companies TWO,NWIND > grant.sql\n' +
        'Review grant.sql, then run it as a sysadmin (e.g. sqlcmd -S gp01 -E -i grant.sql).\n',
    )
    .action((flags: { login: string; companies: string; passwordEnv?: string; systemDatabase: string }) => {
      const password = flags.passwordEnv ? process.env[flags.passwordEnv] : undefined;
      if (flags.passwordEnv && !password) throw new Error(`the environment variable ${flags.passwordEnv} is empty or not set`);
      process.stdout.write(
        readOnlyRoleScript({
          login: flags.login,
          companies: parseCompaniesOption(flags.companies),
          systemDatabase: flags.systemDatabase,
          ...(password ? { password } : {}),
        }),
      );
    });

  mssql
    .command('grant-write')
    .description(
      'Print a T-SQL script for an agent run with --allow-writes, on top of grant-read: in each company database the\n' +
        'write journal table GPGW_WRITE_JOURNAL, and for the role gp_gateway_write EXECUTE on exactly the eConnect\n' +
        'procedures the writes call, SELECT and INSERT on the journal, SELECT on the numbering and work tables; in the\n' +
        'system database what those procedures read and execute there (tasmGetNextNoteIndex, smGetConstantInt, SY05501, …)\n' +
        "and SELECT on taErrorCode. No table is written but through GP's procedures. DYNGRP is not used.",
    )
    .requiredOption('--login <name>', 'the login the agent connects with (the one grant-read was run for)')
    .requiredOption('--companies <ids>', 'company database ids, comma separated, e.g. TWO,NWIND')
    .option('--system-database <name>', "GP's system database, if GP was installed with a named one (GP_SYSTEM_DATABASE)", 'DYNAMICS')
    .addHelpText(
      'after',
      '\nExample:\n' +
        '  gp-agent mssql grant-write --login "CONTOSO\\svc-gp-agent" --companies TWO > grant-write.sql\n' +
        'Review grant-write.sql, then run it as a sysadmin after grant.sql.\n',
    )
    .action((flags: { login: string; companies: string; systemDatabase: string }) => {
      process.stdout.write(
        writeRoleScript({ login: flags.login, companies: parseCompaniesOption(flags.companies), systemDatabase: flags.systemDatabase }),
      );
    });
}
