import type { Executor } from '../db/executor.ts';
import { catalogueTables } from '../catalogue/catalogueTables.ts';
import { ReadService } from '../service/readService.ts';
import type { Finding } from './findings.ts';
import {
  changeTrackingFinding,
  changeTrackingStatusOf,
  changeTrackingStatusQuery,
  type ChangeTrackingStatus,
} from '../changes/changeTracking.ts';
import { checkSnapshotIsolation, checkSystemDatabase } from './gpDatabaseChecks.ts';
import type { DiagnosedDatabase } from './target.ts';

/**
 * The database checks of `gp-agent diagnose`: the login (or the SQLite folder), GP's version, the
 * companies, the system database they name, snapshot isolation where it is asked for, and read
 * permission on every table the API reads. Plain language, a fix for every failure; the SQL Server
 * wording is chosen from the driver's error numbers and codes, so tests run them against SQLite.
 */
export async function checkDatabase(
  database: DiagnosedDatabase,
  executor: Executor,
): Promise<{ findings: Finding[]; companies: string[] }> {
  const label = database.kind === 'mssql' ? 'SQL Server login' : 'Database folder';
  const SYSTEM_DATABASE = executor.systemDatabase;
  const findings: Finding[] = [];
  const service = new ReadService(executor);
  let companies: { id: string; name: string | null }[];
  try {
    await executor.checkReadable(null, 'SY01500');
    companies = await service.companies();
  } catch (error) {
    findings.push({ check: label, status: 'fail', summary: (error as Error).message, fix: databaseFix(database, SYSTEM_DATABASE, error) });
    const mssqlChecks =
      database.kind === 'mssql' ? ['System database', ...(database.isolation === 'snapshot' ? ['Snapshot isolation'] : [])] : [];
    for (const check of ['GP version', 'Companies', ...mssqlChecks, 'Read permission'])
      findings.push({ check, status: 'skip', summary: `needs the "${label}" check to pass first` });
    return { findings, companies: [] };
  }
  findings.push({
    check: label,
    status: 'ok',
    summary: database.kind === 'mssql' ? `logged in; ${SYSTEM_DATABASE} can be read` : `${database.dir} holds ${SYSTEM_DATABASE}.sqlite`,
  });

  const version = await executor.gpVersion().catch((error: unknown) => error as Error);
  if (version instanceof Error || version === null) {
    findings.push({
      check: 'GP version',
      status: 'warn',
      summary: `${SYSTEM_DATABASE}..DU000020 does not say: ${version instanceof Error ? version.message : 'no row for product 0'}`,
      fix: `let the agent's login read ${SYSTEM_DATABASE}..DU000020 (the script \`gp-agent mssql grant-read\` prints grants it); requests work without it`,
    });
  } else {
    findings.push({
      check: 'GP version',
      status: 'ok',
      summary: version === 'demo' ? 'demo database (no DU000020)' : `Dynamics GP ${version}`,
    });
  }

  if (!companies.length) {
    findings.push({
      check: 'Companies',
      status: 'fail',
      summary: `${SYSTEM_DATABASE}..SY01500 lists no company`,
      fix: 'point the agent at the SQL Server instance that holds GP (the one GP Utilities created); SY01500 has a row per company',
    });
  } else {
    findings.push({ check: 'Companies', status: 'ok', summary: companies.map((c) => (c.name ? `${c.id} (${c.name})` : c.id)).join(', ') });
  }
  const ids = companies.map((c) => c.id);
  const systemDatabase = await checkSystemDatabase(executor, ids);
  if (systemDatabase) findings.push(systemDatabase);
  if (database.kind === 'mssql' && database.isolation === 'snapshot') {
    const snapshot = await checkSnapshotIsolation(executor, ids).catch((error: unknown): Finding => ({
      check: 'Snapshot isolation',
      status: 'warn',
      summary: `sys.databases cannot be read: ${(error as Error).message}`,
      fix: 'check as an administrator that every GP database allows snapshot isolation (SELECT name, snapshot_isolation_state_desc FROM sys.databases)',
    }));
    if (snapshot) findings.push(snapshot);
  }

  const tables = catalogueTables();
  const denied: string[] = [];
  const missingDatabases = new Set<string>();
  for (const table of tables.system) {
    await executor
      .checkReadable(null, table)
      .catch((error: unknown) => denied.push(`${SYSTEM_DATABASE}..${table}: ${(error as Error).message}`));
  }
  for (const company of companies) {
    for (const table of tables.company) {
      await executor.checkReadable(company.id, table).catch((error: unknown) => {
        const message = (error as Error).message;
        if (/not found|cannot open|4060/.test(message)) missingDatabases.add(company.id);
        denied.push(`${company.id}..${table}: ${message}`);
      });
    }
  }
  const checked = tables.system.length + companies.length * tables.company.length;
  if (denied.length) {
    findings.push({
      check: 'Read permission',
      status: 'fail',
      summary: `${denied.length} of ${checked} tables the API reads cannot be read`,
      details: denied.slice(0, 20).concat(denied.length > 20 ? [`… and ${denied.length - 20} more`] : []),
      fix:
        database.kind === 'mssql'
          ? `give the agent's login read access to exactly these tables: run the script \`gp-agent mssql grant-read\` prints, as a SQL Server administrator${missingDatabases.size ? ` (it cannot open ${[...missingDatabases].join(', ')} at all)` : ''}`
          : `the folder lacks tables the API reads: regenerate it with gp-demo generate --dir <folder>`,
    });
  } else {
    findings.push({
      check: 'Read permission',
      status: 'ok',
      summary: `all ${checked} tables the API reads can be read (${tables.system.length} in ${SYSTEM_DATABASE}, ${tables.company.length} in each company)`,
    });
  }
  if (database.kind === 'mssql')
    findings.push(
      await checkChangeTracking(
        executor,
        companies.map((c) => c.id),
      ),
    );
  return { findings, companies: companies.map((c) => c.id) };
}

/** Whether change detection can read SQL Server Change Tracking, per company and table, and what turns it on. */
async function checkChangeTracking(executor: Executor, companies: readonly string[]): Promise<Finding> {
  const statuses: ChangeTrackingStatus[] = [];
  for (const company of companies) {
    try {
      statuses.push(changeTrackingStatusOf(company, await executor.query(company, changeTrackingStatusQuery(executor.dialect, company))));
    } catch (error) {
      return {
        check: 'Change Tracking',
        status: 'warn',
        summary: `whether Change Tracking is on in ${company} cannot be read: ${(error as Error).message}; changes are detected by DEX_ROW_TS`,
        fix: "optional: let the agent's login read the company's catalog views (sys.tables, sys.change_tracking_tables)",
      };
    }
  }
  return changeTrackingFinding(statuses);
}

function databaseFix(database: DiagnosedDatabase, SYSTEM_DATABASE: string, error: unknown): string {
  if (database.kind === 'sqlite')
    return `check GP_SQLITE_DIR: it must be a folder holding ${SYSTEM_DATABASE}.sqlite and one <company>.sqlite per company (gp-demo generate writes one)`;
  const message = (error as Error).message;
  if (/18456|Login failed/i.test(message))
    return 'SQL Server refused the user or password: check "User Id" and "Password" in GP_MSSQL_CONNECTION, and that SQL Server authentication is enabled';
  if (/ETIMEOUT|ESOCKET|ENOTFOUND|ECONNREFUSED|getaddrinfo|Failed to connect/i.test(message)) {
    return 'SQL Server cannot be reached: check "Server" in GP_MSSQL_CONNECTION (host,port or host\\instance), that TCP/IP is enabled for the instance, and that the firewall allows the port (1433 by default; SQL Browser UDP 1434 for named instances)';
  }
  if (/4060|Cannot open database/i.test(message))
    return (
      `the login cannot open ${SYSTEM_DATABASE}: map it to a user in ${SYSTEM_DATABASE} with read access ` +
      `(the script \`gp-agent mssql grant-read\` prints does); if GP was installed with a named system database, set GP_SYSTEM_DATABASE to its name`
    );
  if (/certificate|self.signed|TLS|SSL/i.test(message))
    return (
      "this machine does not trust SQL Server's certificate: give SQL Server a certificate from a trusted CA, or trust its certificate here " +
      'with NODE_EXTRA_CA_CERTS=<PEM file> in the service\'s environment (docs/operations.md, "SQL Server"); "TrustServerCertificate=true" in ' +
      'GP_MSSQL_CONNECTION accepts any certificate, so only on a network you trust'
    );
  return "check GP_MSSQL_CONNECTION; the message above is SQL Server's own";
}
