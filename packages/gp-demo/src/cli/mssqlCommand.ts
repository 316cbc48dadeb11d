import type { Command } from 'commander';
import { parseCompaniesOption } from '@gp-gateway/gp-schema';
import { loadDemoIntoSqlServer } from '../mssql/loadDemo.ts';
import { schemaScript } from '../mssql/schemaScript.ts';

/** `gp-demo mssql …`: the demo on a throwaway SQL Server, for tests that run against both dialects. */
export function registerMssqlCommand(program: Command): void {
  const mssql = program.command('mssql').description('The demo on a throwaway SQL Server: a GP-shaped test schema, and a loader.');

  mssql
    .command('schema')
    .description('Print a T-SQL script that creates GP-shaped DYNAMICS and company databases (for a test server, never a real GP one).')
    .requiredOption('--companies <ids>', 'company database ids, comma separated, e.g. TWO,NWIND')
    .option('--system-database <name>', 'name the system database otherwise, as GP 2013 and later allow', 'DYNAMICS')
    .addHelpText(
      'after',
      '\nExample:\n' +
        '  gp-demo mssql schema --companies TWO,NWIND > schema.sql\n' +
        '  sqlcmd -S localhost,1433 -U sa -i schema.sql\n' +
        'It creates the databases that are missing and fails on tables that exist; load-demo starts afresh instead.\n',
    )
    .action((flags: { companies: string; systemDatabase: string }) => {
      process.stdout.write(schemaScript(parseCompaniesOption(flags.companies), flags.systemDatabase));
    });

  mssql
    .command('load-demo')
    .description(
      'Create the GP-shaped schema on a THROWAWAY SQL Server and copy a generated demo into it. It drops and\n' +
        'recreates DYNAMICS and the demo companies: never point it at a real GP server.',
    )
    .requiredOption(
      '--connection <string>',
      'SQL Server connection string, e.g. "Server=localhost,1433;User Id=sa;Password=…;Encrypt=false"',
    )
    .requiredOption('--demo-dir <dir>', 'a demo written by gp-demo generate')
    .option(
      '--system-database <name>',
      'name the system database otherwise, as GP 2013 and later allow (the agent then needs GP_SYSTEM_DATABASE)',
      'DYNAMICS',
    )
    .addHelpText(
      'after',
      '\nExample, with the test container of deploy/mssql/docker-compose.yml:\n' +
        '  docker compose -f deploy/mssql/docker-compose.yml up -d\n' +
        '  gp-demo generate --dir ./demo\n' +
        '  gp-demo mssql load-demo --connection "Server=localhost,1433;User Id=sa;Password=Gateway-Test-1;Encrypt=false" --demo-dir ./demo\n' +
        'It prints each table as it is copied, then "loaded".\n',
    )
    .action(async (flags: { connection: string; demoDir: string; systemDatabase: string }) => {
      await loadDemoIntoSqlServer(
        flags.connection,
        flags.demoDir,
        ({ database, table, rows }) => process.stderr.write(`${database}.${table}: ${rows.toLocaleString('en')} rows\n`),
        flags.systemDatabase,
      );
      console.log('loaded');
    });
}
