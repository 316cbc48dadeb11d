import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SYSTEM_DATABASE, type Executor } from '../db/executor.ts';
import { systemGrants, WRITE_READ_TABLES, writeProcedures } from '../mssql/writeRole.ts';
import { JOURNAL_TABLE } from '../writes/journal.ts';
import type { Finding } from './findings.ts';
import type { DiagnosedDatabase } from './target.ts';

/**
 * Whether writes are on, and when they are, whether the agent can make them: on SQL Server, every
 * grant the write role script makes (writeRole.ts), each checked with HAS_PERMS_BY_NAME: in the
 * system database what eConnect's procedures read and execute there (econnectSystemObjects.ts) and
 * taErrorCode; in every company EXECUTE on every eConnect procedure the writes call, INSERT on the
 * write journal and SELECT on the tables a write reads. Each missing one is named. On the embedded
 * database, that its files can be written.
 */
export async function checkWrites(
  database: DiagnosedDatabase,
  executor: Executor,
  companies: readonly string[],
  allowWrites: boolean,
): Promise<Finding> {
  if (!allowWrites)
    return {
      check: 'Writes',
      status: 'ok',
      summary: "off: the agent refuses every write (the customer's IT turns them on with --allow-writes or GP_AGENT_ALLOW_WRITES = true)",
    };
  const missing: string[] = [];
  const SYSTEM_DATABASE = executor.systemDatabase;
  if (database.kind === 'sqlite') {
    // A SQLite folder always holds DYNAMICS.sqlite (runConfig refuses another system database name there).
    for (const name of [DEFAULT_SYSTEM_DATABASE, ...companies]) {
      const file = path.join(database.dir, `${name}.sqlite`);
      try {
        fs.accessSync(file, fs.constants.W_OK);
        fs.accessSync(database.dir, fs.constants.W_OK);
      } catch {
        missing.push(`${file} cannot be written by this account`);
      }
    }
    return missing.length
      ? {
          check: 'Writes',
          status: 'fail',
          summary: 'on, but the database cannot be written',
          details: missing,
          fix: `let the service's account write ${database.dir} and its files`,
        }
      : { check: 'Writes', status: 'ok', summary: `on: writes go into ${database.dir}, one at a time` };
  }
  /** 1 granted, 0 not, null: the object does not exist (or the login may not even see it). */
  const has = async (company: string | null, object: string, permission: string): Promise<number | null> => {
    const name = `[${company ?? SYSTEM_DATABASE}].[dbo].[${object}]`;
    const [row] = await executor
      .query(company, {
        sql: `SELECT HAS_PERMS_BY_NAME(@p0, 'OBJECT', '${permission}')`,
        params: [{ value: name, type: { kind: 'varchar', length: 200 } }],
      })
      .catch(() => [[0]]);
    return row?.[0] === null || row?.[0] === undefined ? null : Number(row[0]);
  };
  let checked = 0;
  for (const grant of systemGrants()) {
    checked++;
    const state = await has(null, grant.name, grant.permission);
    // An optional object (Analytical Accounting) that is not installed needs no grant: eConnect looks for it first.
    if (state === 1 || (state === null && grant.optional)) continue;
    missing.push(`${grant.permission} on ${SYSTEM_DATABASE}..${grant.name} (${grant.reachedBy.join(', ')})`);
  }
  for (const company of companies) {
    const wanted: Array<[string, string, string]> = [
      ...writeProcedures().map((p): [string, string, string] => [p, 'EXECUTE', "GP's eConnect procedure"]),
      [JOURNAL_TABLE, 'INSERT', 'the write journal; the script creates it'],
      ...WRITE_READ_TABLES.map((t): [string, string, string] => [t, 'SELECT', 'read by a write']),
    ];
    for (const [object, permission, why] of wanted) {
      checked++;
      if ((await has(company, object, permission)) !== 1) missing.push(`${permission} on ${company}..${object} (${why})`);
    }
  }
  return missing.length
    ? {
        check: 'Writes',
        status: 'fail',
        summary: `on, but ${missing.length} of ${checked} permissions a write needs are missing`,
        details: missing.slice(0, 20).concat(missing.length > 20 ? [`… and ${missing.length - 20} more`] : []),
        fix: `run the script \`gp-agent mssql grant-write --login <login> --companies <ids>${SYSTEM_DATABASE === DEFAULT_SYSTEM_DATABASE ? '' : ` --system-database ${SYSTEM_DATABASE}`}\` prints, as a SQL Server administrator`,
      }
    : {
        check: 'Writes',
        status: 'ok',
        summary: `on: all ${checked} permissions a write needs, in ${SYSTEM_DATABASE} and every company (EXECUTE on the ${writeProcedures().length} eConnect procedures, what they reach in ${SYSTEM_DATABASE}, the write journal)`,
      };
}
