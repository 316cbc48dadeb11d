import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteExecutor } from '../db/sqliteExecutor.ts';
import { checkSnapshotIsolation, checkSystemDatabase, snapshotIsolationFinding, systemDatabaseFinding } from './gpDatabaseChecks.ts';

const ALL = ['DYNAMICS', 'TWO', 'NWIND'];

test('snapshot isolation: allowed everywhere passes; where it is off, the statements to run are given', () => {
  assert.deepEqual(snapshotIsolationFinding(ALL, new Map(ALL.map((d) => [d, 1]))), {
    check: 'Snapshot isolation',
    status: 'ok',
    summary: 'allowed in DYNAMICS, TWO, NWIND',
  });
  // sys.databases spells names as created; GP's companies are upper case, a DBA's may not be.
  const off = snapshotIsolationFinding(
    ALL,
    new Map([
      ['dynamics', 1],
      ['TWO', 0],
      ['NWIND', 2],
    ]),
  );
  assert.equal(off.status, 'fail');
  assert.match(off.summary, /TWO, NWIND do not allow snapshot isolation: every read there fails \(SQL Server error 3952\)/);
  assert.deepEqual(off.details, [
    'ALTER DATABASE [TWO] SET ALLOW_SNAPSHOT_ISOLATION ON;',
    'ALTER DATABASE [NWIND] SET ALLOW_SNAPSHOT_ISOLATION ON;',
  ]);
  assert.match(off.fix!, /GP_MSSQL_ISOLATION = read-committed/);
  // Being turned on: it will work once the transactions open at the time end.
  const turning = snapshotIsolationFinding(
    ALL,
    new Map([
      ['DYNAMICS', 1],
      ['TWO', 3],
      ['NWIND', 1],
    ]),
  );
  assert.equal(turning.status, 'warn');
  assert.match(turning.summary, /being turned on in TWO/);
  // A database the login cannot see in sys.databases: unknown, said as such, not a failure.
  const unseen = snapshotIsolationFinding(ALL, new Map([['DYNAMICS', 1]]));
  assert.equal(unseen.status, 'warn');
  assert.match(unseen.summary, /cannot see TWO, NWIND in sys\.databases/);
  // Off wins over unknown: the one thing known to fail is what to fix first.
  assert.equal(snapshotIsolationFinding(ALL, new Map([['TWO', 0]])).status, 'fail');
  // A name is quoted as an identifier in the statement to run.
  assert.deepEqual(snapshotIsolationFinding(['a]b'], new Map([['a]b', 0]])).details, [
    'ALTER DATABASE [a]]b] SET ALLOW_SNAPSHOT_ISOLATION ON;',
  ]);
});

test('system database: the companies naming it confirm it; a company naming another is another install', () => {
  assert.deepEqual(
    systemDatabaseFinding(
      'DYNAMICS',
      new Map([
        ['TWO', 'DYNAMICS'],
        ['NWIND', 'dynamics'],
      ]),
    ),
    { check: 'System database', status: 'ok', summary: 'DYNAMICS, as SY00100.DBNAME says in every company' },
  );
  const other = systemDatabaseFinding(
    'DYNAMICS',
    new Map([
      ['TWO', 'GPSYS'],
      ['NWIND', 'GPSYS'],
    ]),
  );
  assert.equal(other.status, 'fail');
  assert.equal(other.summary, 'GP_SYSTEM_DATABASE is DYNAMICS, but TWO, NWIND name GPSYS in SY00100.DBNAME');
  assert.match(other.fix!, /set GP_SYSTEM_DATABASE = GPSYS/);
  // One company that cannot say (no permission) beside others that confirm: a warning with the grant.
  const partly = systemDatabaseFinding(
    'GPSYS',
    new Map<string, string | null | Error>([
      ['TWO', 'GPSYS'],
      ['NWIND', new Error('SQL Server error 229: The SELECT permission was denied')],
    ]),
  );
  assert.equal(partly.status, 'warn');
  assert.deepEqual(partly.details, ['NWIND: SQL Server error 229: The SELECT permission was denied']);
  assert.match(partly.fix!, /grant-read/);
  // No company records it (GP without a named system database): DYNAMICS is expected, another name cannot be confirmed.
  const none = new Map<string, string | null | Error>([
    ['TWO', new Error("SQL Server error 208: Invalid object name 'TWO.dbo.SY00100'.")],
    ['NWIND', null],
  ]);
  const dynamics = systemDatabaseFinding('DYNAMICS', none);
  assert.equal(dynamics.status, 'ok');
  assert.deepEqual(dynamics.details, ['TWO: no SY00100', 'NWIND: SY00100 is empty']);
  assert.equal(systemDatabaseFinding('GPSYS', none).status, 'warn');
});

test('the checks read what they decide on through the executor, for the system database and every company', async () => {
  const asked: unknown[] = [];
  const executor = {
    systemDatabase: 'GPSYS',
    async snapshotIsolationStates(databases: readonly string[]) {
      asked.push(databases);
      return new Map([
        ['GPSYS', 1],
        ['TWO', 0],
      ]);
    },
    async recordedSystemDatabase(company: string) {
      if (company === 'NWIND') throw new Error('SQL Server error 229: denied');
      return 'GPSYS';
    },
  };
  const snapshot = await checkSnapshotIsolation(executor as never, ['TWO']);
  assert.deepEqual(asked, [['GPSYS', 'TWO']]);
  assert.equal(snapshot?.status, 'fail');
  assert.equal((await checkSystemDatabase(executor as never, ['TWO', 'NWIND']))?.status, 'warn');
  // The embedded database has neither: nothing to check, no finding.
  const sqlite = new SqliteExecutor({ dir: '/nonexistent' });
  assert.equal(await checkSnapshotIsolation(sqlite, ['TWO']), null);
  assert.equal(await checkSystemDatabase(sqlite, ['TWO']), null);
});
