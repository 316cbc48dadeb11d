import { DEFAULT_SYSTEM_DATABASE, type Executor } from '../db/executor.ts';
import type { Finding } from './findings.ts';

/**
 * Two checks of how GP's SQL Server is set up, for `diagnose` and the agent's start: whether the
 * databases allow snapshot isolation when the agent is set to read at it, and whether the
 * companies' own record of their system database (SY00100.DBNAME) agrees with GP_SYSTEM_DATABASE.
 * The decisions are plain functions of what was read, so that they are tested without a server.
 */

/** sys.databases.snapshot_isolation_state. */
const SNAPSHOT_ON = 1;
const SNAPSHOT_TURNING_ON = 3;

const bracket = (name: string) => `[${name.replaceAll(']', ']]')}]`;
const named = (names: readonly string[]) => names.join(', ');
/** Database names compare as SQL Server's default (case-insensitive) server collation does. */
const sameName = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

/**
 * With GP_MSSQL_ISOLATION = snapshot, every read of a database that does not allow snapshot
 * isolation fails with error 3952; this says so before a request does, and what to run.
 * `states` holds sys.databases.snapshot_isolation_state by database name, for those the login sees.
 */
export function snapshotIsolationFinding(databases: readonly string[], states: ReadonlyMap<string, number>): Finding {
  const check = 'Snapshot isolation';
  const stateOf = (database: string) => [...states].find(([name]) => sameName(name, database))?.[1];
  const off = databases.filter((d) => stateOf(d) !== undefined && stateOf(d) !== SNAPSHOT_ON && stateOf(d) !== SNAPSHOT_TURNING_ON);
  const turningOn = databases.filter((d) => stateOf(d) === SNAPSHOT_TURNING_ON);
  const unseen = databases.filter((d) => stateOf(d) === undefined);
  if (off.length) {
    return {
      check,
      status: 'fail',
      summary: `GP_MSSQL_ISOLATION is snapshot, but ${named(off)} ${off.length === 1 ? 'does' : 'do'} not allow snapshot isolation: every read there fails (SQL Server error 3952)`,
      details: off.map((d) => `ALTER DATABASE ${bracket(d)} SET ALLOW_SNAPSHOT_ISOLATION ON;`),
      fix:
        'as a SQL Server administrator, run the statements above (GP can keep running: each waits for the transactions open at the time to end), ' +
        'or set GP_MSSQL_ISOLATION = read-committed',
    };
  }
  if (turningOn.length) {
    return {
      check,
      status: 'warn',
      summary: `snapshot isolation is being turned on in ${named(turningOn)}: reads there fail until the transactions open when it was turned on have ended`,
      fix: 'wait for GP to finish what it was doing (a long posting, say), then run diagnose again',
    };
  }
  if (unseen.length) {
    return {
      check,
      status: 'warn',
      summary: `this login cannot see ${named(unseen)} in sys.databases, so whether ${unseen.length === 1 ? 'it allows' : 'they allow'} snapshot isolation is unknown`,
      fix:
        'check as an administrator (SELECT name, snapshot_isolation_state_desc FROM sys.databases) and turn it on where it is OFF ' +
        '(ALTER DATABASE [name] SET ALLOW_SNAPSHOT_ISOLATION ON), or set GP_MSSQL_ISOLATION = read-committed',
    };
  }
  return { check, status: 'ok', summary: `allowed in ${named(databases)}` };
}

/** What one company database says of its system database: the name, null for no row, or why it could not be read. */
export type RecordedSystemDatabase = string | null | Error;

/**
 * GP 2013 and later record in each company database (SY00100.DBNAME) the system database it
 * belongs to; several GP installs can share one SQL Server, each with its own system database.
 * A company recording another one than GP_SYSTEM_DATABASE belongs to another install.
 */
export function systemDatabaseFinding(configured: string, recorded: ReadonlyMap<string, RecordedSystemDatabase>): Finding {
  const check = 'System database';
  const others = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const [company, name] of recorded) {
    if (typeof name === 'string' && name !== '') {
      if (!sameName(name, configured)) others.set(name, [...(others.get(name) ?? []), company]);
    } else {
      const why =
        name instanceof Error ? (/\b208\b|Invalid object name/i.test(name.message) ? 'no SY00100' : name.message) : 'SY00100 is empty';
      unknown.push(`${company}: ${why}`);
    }
  }
  if (others.size) {
    const [first] = others.keys();
    return {
      check,
      status: 'fail',
      summary: `GP_SYSTEM_DATABASE is ${configured}, but ${[...others].map(([name, companies]) => `${named(companies)} ${companies.length === 1 ? 'names' : 'name'} ${name}`).join('; ')} in SY00100.DBNAME`,
      fix: `set GP_SYSTEM_DATABASE = ${first} if that is the GP install the agent serves (the system database GP Utilities created, the one whose SY01500 lists these companies)`,
    };
  }
  if (unknown.length === recorded.size) {
    // GP installed without a named system database (and GP before 2013) uses DYNAMICS.
    const usual = sameName(configured, DEFAULT_SYSTEM_DATABASE);
    return {
      check,
      status: usual ? 'ok' : 'warn',
      summary: `${configured}; no company records its system database in SY00100.DBNAME${usual ? '' : ', so this cannot be confirmed'}`,
      details: unknown,
      ...(usual ? {} : { fix: `check that ${configured} is the system database of this GP install (the one GP Utilities created)` }),
    };
  }
  if (unknown.length) {
    return {
      check,
      status: 'warn',
      summary: `${configured}, as SY00100.DBNAME says in the other companies; ${unknown.length === 1 ? 'one company does' : `${unknown.length} companies do`} not say`,
      details: unknown,
      fix: "let the agent's login read SY00100 in every company (the script `gp-agent mssql grant-read` prints grants it); requests work without it",
    };
  }
  return { check, status: 'ok', summary: `${configured}, as SY00100.DBNAME says in every company` };
}

/** Reads what snapshotIsolationFinding decides on, for the system database and each company. */
export async function checkSnapshotIsolation(executor: Executor, companies: readonly string[]): Promise<Finding | null> {
  if (!executor.snapshotIsolationStates) return null;
  const databases = [executor.systemDatabase, ...companies];
  return snapshotIsolationFinding(databases, await executor.snapshotIsolationStates(databases));
}

/** Reads what systemDatabaseFinding decides on: SY00100.DBNAME in each company. */
export async function checkSystemDatabase(executor: Executor, companies: readonly string[]): Promise<Finding | null> {
  if (!executor.recordedSystemDatabase || !companies.length) return null;
  const recorded = new Map<string, RecordedSystemDatabase>();
  for (const company of companies) {
    recorded.set(company, await executor.recordedSystemDatabase(company).catch((error: unknown) => error as Error));
  }
  return systemDatabaseFinding(executor.systemDatabase, recorded);
}
