import { isGpCompanyId } from '@gp-gateway/gp-schema';
import { WRITES } from '@gp-gateway/protocol';
import { DEFAULT_SYSTEM_DATABASE, SYSTEM_DATABASE_NAME } from '../db/executor.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import { JOURNAL_TABLE, MSSQL_JOURNAL_DDL } from '../writes/journal.ts';
import { ECONNECT_SYSTEM_OBJECTS, WRITER_SYSTEM_READS, type SystemObject } from './econnectSystemObjects.ts';

/**
 * The write variant of the least-privilege role (docs/decisions.md#writes), for an agent run with
 * `--allow-writes`, on top of the read role (readOnlyRole.ts), which it does not replace: in each
 * company database, EXECUTE on exactly the eConnect procedures the writes call, the agent's write
 * journal (created here) with SELECT and INSERT, and SELECT on GP's numbering and work tables a write
 * checks and reads back; in the system database (GP_SYSTEM_DATABASE), what those procedures read
 * and execute there (econnectSystemObjects.ts: ownership chaining does not cross databases), SELECT
 * on taErrorCode, which turns GP's error codes into words, and on MC40200, the currencies a write's
 * currency id is checked against. No table is written but through GP's procedures: every number is
 * taken by GP's own numbering procedure. The procedures are owned by dbo, so the tables they write
 * in their own database need no grant (ownership chaining). DYNGRP is never used.
 */
export const WRITE_ROLE = 'gp_gateway_write';
const q = (name: string) => mssqlDialect.quote(name);
const literal = (text: string) => `N'${text.replaceAll("'", "''")}'`;

/** The eConnect procedures the agent's writes call, sorted: what the role may EXECUTE and diagnose checks. */
export function writeProcedures(): string[] {
  return [...new Set(Object.values(WRITES).flatMap((spec) => [...spec.procedures]))].sort();
}

/**
 * Tables a write reads besides those the read role covers: numbering (read WITH (NOLOCK) by a
 * validate-only write), setup and the work tables it reads back.
 */
export const WRITE_READ_TABLES = [
  'GL10000',
  'GL10001',
  'GL40000',
  'PM10000',
  'PM40100',
  'RM10301',
  'RM40401',
  'SOP40200',
  'SOP40300',
  'SY03300',
  'IV40700',
  'IV00101',
  // A sales line's price level is checked against GP's price levels before eConnect is called.
  'IV40800',
  'GL00105',
  'GL00100',
  'SY00500',
] as const;

/**
 * Every grant the write role holds in the system database: eConnect's objects there (MC40200 among
 * them, which the agent's currency check reads too), then the agent's own reads.
 */
export function systemGrants(): readonly SystemObject[] {
  return [...ECONNECT_SYSTEM_OBJECTS, ...WRITER_SYSTEM_READS];
}

export interface WriteRoleOptions {
  login: string;
  companies: readonly string[];
  /** GP's system database, DYNAMICS unless GP was installed with a named one. */
  systemDatabase?: string;
}

export function writeRoleScript({ login, companies, systemDatabase = DEFAULT_SYSTEM_DATABASE }: WriteRoleOptions): string {
  if (!SYSTEM_DATABASE_NAME.test(systemDatabase)) throw new Error(`not a system database name: ${systemDatabase}`);
  const out: string[] = [
    '-- Write access for the GP gateway agent (gp-agent run --allow-writes). Run it after the script',
    '-- `gp-agent mssql grant-read` prints, for the same login: it adds to that role, it does not replace it.',
    `USE ${q(systemDatabase)}`,
    `IF USER_ID(${literal(login)}) IS NULL CREATE USER ${q(login)} FOR LOGIN ${q(login)}`,
    `IF DATABASE_PRINCIPAL_ID(N'${WRITE_ROLE}') IS NULL CREATE ROLE ${q(WRITE_ROLE)}`,
  ];
  for (const grant of systemGrants()) {
    const statement = `GRANT ${grant.permission} ON [dbo].${q(grant.name)} TO ${q(WRITE_ROLE)}`;
    // Analytical Accounting's objects exist only where it is installed; eConnect looks for them first.
    out.push(grant.optional ? `IF OBJECT_ID(${literal(`dbo.${grant.name}`)}) IS NOT NULL ${statement}` : statement);
  }
  out.push(`ALTER ROLE ${q(WRITE_ROLE)} ADD MEMBER ${q(login)}`);
  for (const company of companies) {
    if (!isGpCompanyId(company)) throw new Error(`not a GP company id: ${company}`);
    out.push(`USE ${q(company)}`);
    out.push(`IF USER_ID(${literal(login)}) IS NULL CREATE USER ${q(login)} FOR LOGIN ${q(login)}`);
    out.push(`IF DATABASE_PRINCIPAL_ID(N'${WRITE_ROLE}') IS NULL CREATE ROLE ${q(WRITE_ROLE)}`);
    out.push(MSSQL_JOURNAL_DDL);
    out.push(`GRANT SELECT, INSERT ON [dbo].${q(JOURNAL_TABLE)} TO ${q(WRITE_ROLE)}`);
    for (const procedure of writeProcedures()) out.push(`GRANT EXECUTE ON [dbo].${q(procedure)} TO ${q(WRITE_ROLE)}`);
    for (const table of WRITE_READ_TABLES) out.push(`GRANT SELECT ON [dbo].${q(table)} TO ${q(WRITE_ROLE)}`);
    out.push(`ALTER ROLE ${q(WRITE_ROLE)} ADD MEMBER ${q(login)}`);
  }
  return `${out.join('\nGO\n')}\nGO\n`;
}
