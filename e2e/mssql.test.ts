import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import sql from 'mssql';
import { demoDatabasePaths } from '@gp-gateway/gp-demo';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { ROOT, startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { describeReadContract } from './support/readContract.ts';
import { loadDemoIntoReachableSqlServer } from './support/mssqlDemo.ts';
import { catalogueRecords, ChangeDetector, MssqlExecutor, ReadService, TRACKED_OBJECTS } from '@gp-gateway/agent';

/**
 * The read contract against a real SQL Server, when MSSQL_URL names one (a throwaway server: the
 * test drops and recreates DYNAMICS, TWO and NWIND). The demo is generated, loaded into SQL Server,
 * and served by `gp-agent run --mssql`; expected rows come from the generated SQLite files.
 * See docs/operations.md, "SQL Server", for a container to run it against.
 */
const MSSQL_URL = process.env.MSSQL_URL;
if (!MSSQL_URL) {
  console.warn(
    '\n*** SKIPPED: SQL Server contract suite. Set MSSQL_URL (e.g. "Server=localhost,1433;User Id=sa;Password=…;Encrypt=false") to run it. ***\n',
  );
}

describe('read contract on SQL Server', { skip: !MSSQL_URL && 'MSSQL_URL is not set' }, () => {
  let dir: string;
  let gateway: Started & { url: string; testKey: string };
  let agent: ChildProcess;
  let key = '';
  let connectionId = '';
  let agentToken = '';
  const db: Record<string, Database.Database> = {};

  before(async () => {
    const loaded = await loadDemoIntoReachableSqlServer(MSSQL_URL!, 'e2e-mssql-');
    dir = loaded.dir;
    const demo = loaded.demo;
    const paths = demoDatabasePaths(demo);
    db.DYNAMICS = new Database(paths.systemDatabase, { readonly: true });
    db.TWO = new Database(paths.companyDatabases.TWO!, { readonly: true });

    const customer = await provisionOrganisation(dir, {
      organisation: 'SQL Server',
      limits: { requestsPerWindow: 100_000, windowSeconds: 10 },
      connections: ['SQL Server'],
    });
    key = customer.liveKey;
    const { id, token } = customer.connections['SQL Server']!;
    connectionId = id;
    agentToken = token;
    gateway = await startGatewayProcess(dir);
    agent = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/agent/src/cli/main.ts', 'run', '--gateway', gateway.url, '--token', token, '--mssql', MSSQL_URL!],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, LOG_LEVEL: 'warn' },
      },
    );
    await waitFor('the SQL Server agent to connect', async () => {
      const res = await fetch(`${gateway.url}/v1/companies`, {
        headers: { authorization: `Bearer ${key}`, 'x-connection-id': connectionId },
      });
      return res.status === 200 ? true : null;
    });
  });
  after(async () => {
    agent?.kill('SIGKILL');
    await gateway?.stop();
    for (const d of Object.values(db)) d.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describeReadContract(() => ({
    url: gateway.url,
    headers: { authorization: `Bearer ${key}`, 'x-connection-id': connectionId },
    database: (name) => db[name]!,
  }));

  test('diagnose confirms the system database from SY00100, and names the databases where snapshot isolation must be allowed', async () => {
    type Finding = { check: string; status: string; details?: string[] };
    const diagnose = async () => {
      const args = ['--import', 'tsx', 'apps/agent/src/cli/main.ts', 'diagnose', '--json', '--gateway', gateway.url, '--mssql', MSSQL_URL!];
      const env = { ...process.env, GP_AGENT_TOKEN: agentToken, GP_MSSQL_ISOLATION: 'snapshot' };
      // diagnose exits 1 when a check fails; its findings are on standard output either way.
      const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env }).catch((error: { stdout: string }) => error);
      const findings = (JSON.parse(stdout) as { findings: Finding[] }).findings;
      return (check: string) => findings.find((f) => f.check === check);
    };
    const before = await diagnose();
    assert.equal(before('System database')?.status, 'ok');
    // New databases do not allow snapshot isolation: every read at it would fail with error 3952.
    const snapshot = before('Snapshot isolation')!;
    assert.equal(snapshot.status, 'fail');
    assert.deepEqual(
      [...snapshot.details!].sort(),
      ['DYNAMICS', 'NWIND', 'TWO'].map((d) => `ALTER DATABASE [${d}] SET ALLOW_SNAPSHOT_ISOLATION ON;`),
    );
    const pool = await new sql.ConnectionPool(MSSQL_URL!).connect();
    try {
      for (const statement of snapshot.details!) await pool.request().batch(statement);
    } finally {
      await pool.close();
    }
    assert.equal((await diagnose())('Snapshot isolation')?.status, 'ok');

    // Change Tracking: off on a new database; diagnose prints what turns it on, and says on once it ran.
    const tracking = (await diagnose())('Change Tracking')!;
    assert.equal(tracking.status, 'warn');
    const enable = tracking.details!.filter((line) => line.startsWith('ALTER '));
    assert.ok(enable.includes('ALTER TABLE [TWO].[dbo].[RM00101] ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF);'));
    const admin = await new sql.ConnectionPool(MSSQL_URL!).connect();
    try {
      // The GRANTs are for the agent's role, which this server's sa login does not need.
      for (const statement of enable) await admin.request().batch(statement);
    } finally {
      await admin.close();
    }
    assert.equal((await diagnose())('Change Tracking')?.status, 'ok');
  });

  test('with Change Tracking on, detection reads CHANGETABLE: an insert, an update and a delete of a customer are one event each', async () => {
    const executor = new MssqlExecutor(MSSQL_URL!);
    const admin = await new sql.ConnectionPool(MSSQL_URL!).connect();
    try {
      await admin
        .request()
        .batch(
          "IF NOT EXISTS (SELECT 1 FROM sys.change_tracking_databases WHERE database_id = DB_ID(N'TWO')) ALTER DATABASE [TWO] SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON)",
        );
      await admin
        .request()
        .batch(
          "IF NOT EXISTS (SELECT 1 FROM [TWO].sys.change_tracking_tables WHERE object_id = OBJECT_ID(N'TWO.dbo.RM00101')) ALTER TABLE [TWO].[dbo].[RM00101] ENABLE CHANGE_TRACKING",
        );
      const customers = TRACKED_OBJECTS.find((t) => t.object === 'customers')!;
      const detector = new ChangeDetector(executor, catalogueRecords(new ReadService(executor)));
      const poll = async () => {
        const found = await detector.poll('TWO', customers);
        found.commit();
        return found.changes.map((c) => `${c.kind} ${c.id}`).sort();
      };
      assert.deepEqual(await poll(), []);
      const [victim] = (
        await admin
          .request()
          .query(
            'SELECT TOP (1) RTRIM(CUSTNMBR) AS id FROM [TWO].[dbo].[RM00101] WHERE CUSTNMBR NOT IN (SELECT CUSTNMBR FROM [TWO].[dbo].[RM20101]) AND CUSTNMBR NOT IN (SELECT CUSTNMBR FROM [TWO].[dbo].[RM30101]) ORDER BY CUSTNMBR DESC',
          )
      ).recordset as { id: string }[];
      await admin.request().batch("INSERT INTO [TWO].[dbo].[RM00101] (CUSTNMBR, CUSTNAME) VALUES ('CTNEW0001', 'Change Tracking')");
      const [renamed] = (await admin.request().query('SELECT TOP (1) RTRIM(CUSTNMBR) AS id FROM [TWO].[dbo].[RM00101] ORDER BY CUSTNMBR'))
        .recordset as { id: string }[];
      await admin
        .request()
        .input('id', renamed!.id)
        .query("UPDATE [TWO].[dbo].[RM00101] SET CUSTNAME = 'Tracked', DEX_ROW_TS = GETUTCDATE() WHERE CUSTNMBR = @id");
      await admin.request().input('id', victim!.id).query('DELETE FROM [TWO].[dbo].[RM00101] WHERE CUSTNMBR = @id');
      assert.deepEqual(await poll(), ['created CTNEW0001', `deleted ${victim!.id}`, `updated ${renamed!.id}`].sort());
      assert.deepEqual(await poll(), []);
    } finally {
      await admin.close();
      await executor.close();
    }
  });
});
