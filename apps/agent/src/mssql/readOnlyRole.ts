import { isGpCompanyId } from '@gp-gateway/gp-schema';
import { catalogueTables } from '../catalogue/catalogueTables.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import { DEFAULT_SYSTEM_DATABASE, SYSTEM_DATABASE_NAME } from '../db/executor.ts';

/**
 * Least privilege for the agent (docs/decisions.md#gp-tables-and-the-sql-login): a SQL login whose user, in GP's system database and in each
 * company database, belongs to a role with SELECT on exactly the tables the catalogue reads, and
 * nothing else. DYNGRP, which GP users share, is never used.
 */
export const READ_ROLE = 'gp_gateway_read';
/** Where GP records its version, in the system database. */
const VERSION_TABLE = 'DU000020';
/** Where each company database records its system database (diagnose reads it). */
const SYSTEM_DATABASE_TABLE = 'SY00100';
const q = (name: string) => mssqlDialect.quote(name);
const literal = (text: string) => `N'${text.replaceAll("'", "''")}'`;

export interface ReadOnlyRoleOptions {
  login: string;
  /** Omit to create the user for an existing (e.g. Windows) login. */
  password?: string;
  companies: readonly string[];
  /** GP's system database, DYNAMICS unless GP was installed with a named one. */
  systemDatabase?: string;
}

export function readOnlyRoleScript({ login, password, companies, systemDatabase = DEFAULT_SYSTEM_DATABASE }: ReadOnlyRoleOptions): string {
  if (!SYSTEM_DATABASE_NAME.test(systemDatabase)) throw new Error(`not a system database name: ${systemDatabase}`);
  const tables = catalogueTables();
  const out: string[] = ['USE [master]'];
  if (password !== undefined) {
    out.push(`IF SUSER_ID(${literal(login)}) IS NULL CREATE LOGIN ${q(login)} WITH PASSWORD = ${literal(password)}, CHECK_POLICY = ON`);
  }
  const database = (name: string, names: string[]) => {
    out.push(`USE ${q(name)}`);
    out.push(`IF USER_ID(${literal(login)}) IS NULL CREATE USER ${q(login)} FOR LOGIN ${q(login)}`);
    out.push(`IF DATABASE_PRINCIPAL_ID(N'${READ_ROLE}') IS NULL CREATE ROLE ${q(READ_ROLE)}`);
    for (const table of names) out.push(`GRANT SELECT ON [dbo].${q(table)} TO ${q(READ_ROLE)}`);
    out.push(`ALTER ROLE ${q(READ_ROLE)} ADD MEMBER ${q(login)}`);
  };
  // DU000020 too: the agent reads GP's version from it (health, diagnose), though no list does.
  database(systemDatabase, [...tables.system, VERSION_TABLE]);
  for (const company of companies) {
    if (!isGpCompanyId(company)) throw new Error(`not a GP company id: ${company}`);
    // SY00100 too: diagnose reads which system database each company belongs to.
    database(company, [...tables.company, SYSTEM_DATABASE_TABLE]);
  }
  return `${out.join('\nGO\n')}\nGO\n`;
}
