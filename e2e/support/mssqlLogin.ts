import crypto from 'node:crypto';
import type sql from 'mssql';
import { readOnlyRoleScript } from '../../apps/agent/src/mssql/readOnlyRole.ts';
import { writeRoleScript } from '../../apps/agent/src/mssql/writeRole.ts';

/**
 * A least-privilege login for a gated SQL Server suite, made the way a customer's DBA makes it: the
 * scripts `gp-agent mssql grant-read` and `grant-write` print, run on `admin` (a sysadmin's
 * connection). Returns the connection string of `url` with that login in place of the
 * administrator's, so that the agent under test never runs as `sa`. `drop` removes the login (its
 * database users go with the databases the suites recreate).
 */
export async function createAgentLogin(
  admin: sql.ConnectionPool,
  url: string,
  companies: readonly string[],
): Promise<{ login: string; connection: string; drop(): Promise<void> }> {
  const login = `gpgw_e2e_agent_${process.pid}`;
  const password = `Gp1!${crypto.randomBytes(12).toString('hex')}`;
  const drop = async () => {
    await admin.request().batch(`USE [master]; IF SUSER_ID(N'${login}') IS NOT NULL DROP LOGIN [${login}]`);
  };
  await drop();
  for (const script of [readOnlyRoleScript({ login, password, companies }), writeRoleScript({ login, companies })])
    for (const batch of script.split('\nGO\n')) if (batch.trim()) await admin.request().batch(batch);
  const connection = url
    .split(';')
    .filter((part) => !/^\s*(user id|uid|user|password|pwd)\s*=/i.test(part))
    .concat([`User Id=${login}`, `Password=${password}`])
    .join(';');
  return { login, connection, drop };
}
