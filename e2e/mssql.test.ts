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
  });
});
