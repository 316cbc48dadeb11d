import type { Command } from 'commander';
import { schemaScript } from '../../mssql/schemaScript.ts';
import { readOnlyRoleScript } from '../../mssql/readOnlyRole.ts';
import { loadDemoIntoSqlServer } from '../../mssql/loadDemo.ts';

const COMPANY_LIST = /^[A-Z0-9_]{1,5}(,[A-Z0-9_]{1,5})*$/;

function companiesOf(list: string): string[] {
  const upper = list.toUpperCase();
  if (!COMPANY_LIST.test(upper)) throw new Error('--companies takes GP company ids separated by commas, e.g. TWO,NWIND');
  return upper.split(',');
}

/** SQL Server helpers: scripts a DBA runs, and a loader for test servers. */
export function registerMssqlCommand(program: Command): void {
  const mssql = program.command('mssql').description('SQL Server scripts: least-privilege read access, and a GP-shaped test schema.');

  mssql
    .command('grant-read')
    .description(
      'Print a T-SQL script that gives a login SELECT on exactly the GP tables the agent reads, in DYNAMICS and\n' +
        'each company database, through the role gp_gateway_read. Nothing else is granted; DYNGRP is not used.',
    )
    .requiredOption('--login <name>', 'SQL or Windows login the agent connects with, e.g. gp_api_read or DOMAIN\\svc-gp-agent')
    .requiredOption('--companies <ids>', 'company database ids, comma separated, e.g. TWO,NWIND (see gp-agent companies)')
    .option('--password-env <variable>', 'create a SQL login with the password in this environment variable (omit for an existing login)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  gp-agent mssql grant-read --login "CONTOSO\\svc-gp-agent" --companies TWO > grant.sql\n' +
        '  GP_API_PASSWORD=… gp-agent mssql grant-read --login gp_api_read --password-env GP_API_PASSWORD --companies TWO,NWIND > grant.sql\n' +
        'Review grant.sql, then run it as a sysadmin (e.g. sqlcmd -S gp01 -E -i grant.sql).\n',
    )
    .action((flags: { login: string; companies: string; passwordEnv?: string }) => {
      const password = flags.passwordEnv ? process.env[flags.passwordEnv] : undefined;
      if (flags.passwordEnv && !password) throw new Error(`the environment variable ${flags.passwordEnv} is empty or not set`);
      process.stdout.write(readOnlyRoleScript({ login: flags.login, companies: companiesOf(flags.companies), ...(password ? { password } : {}) }));
    });

  mssql
    .command('schema')
    .description('Print a T-SQL script that creates GP-shaped DYNAMICS and company databases (for a test server, never a real GP one).')
    .requiredOption('--companies <ids>', 'company database ids, comma separated, e.g. TWO,NWIND')
    .action((flags: { companies: string }) => {
      process.stdout.write(schemaScript(companiesOf(flags.companies)));
    });

  mssql
    .command('load-demo')
    .description(
      'Create the GP-shaped schema on a THROWAWAY SQL Server and copy a generated demo into it. It drops and\n' +
        'recreates DYNAMICS and the demo companies: never point it at a real GP server.',
    )
    .requiredOption('--connection <string>', 'SQL Server connection string, e.g. "Server=localhost,1433;User Id=sa;Password=…;Encrypt=false"')
    .requiredOption('--demo-dir <dir>', 'a demo written by gp-agent demo generate')
    .action(async (flags: { connection: string; demoDir: string }) => {
      await loadDemoIntoSqlServer(flags.connection, flags.demoDir, ({ database, table, rows }) =>
        process.stderr.write(`${database}.${table}: ${rows.toLocaleString('en')} rows\n`),
      );
      console.log('loaded');
    });
}
