import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Executor } from '../db/executor.ts';
import { mssqlDialect } from '../sql/mssqlDialect.ts';
import { writeRoleScript } from '../mssql/writeRole.ts';
import { checkWrites } from './writeGrants.ts';

const MSSQL = { kind: 'mssql', connection: '', isolation: 'read-committed', lockTimeoutMs: 5000, systemDatabase: 'GPSYS' } as const;

/** diagnose's Writes check: off says so; on SQL Server every permission a write needs is asked of HAS_PERMS_BY_NAME. */
function grants(denied: Set<string>, absent = new Set<string>()): { executor: Executor; asked: string[] } {
  const asked: string[] = [];
  const executor = {
    dialect: mssqlDialect,
    systemDatabase: 'GPSYS',
    async query(_company: string | null, query: { sql: string; params: { value: unknown }[] }) {
      const name = String(query.params[0]!.value);
      const permission = /'(EXECUTE|INSERT|UPDATE|SELECT)'/.exec(query.sql)![1]!;
      asked.push(`${permission} ${name}`);
      if (absent.has(name)) return [[null]];
      return [[denied.has(`${permission} ${name}`) ? 0 : 1]];
    },
  } as unknown as Executor;
  return { executor, asked };
}

test('writes off: the check says who turns them on, and asks SQL Server nothing', async () => {
  const { executor, asked } = grants(new Set());
  const finding = await checkWrites(MSSQL, executor, ['TWO'], false);
  assert.equal(finding.status, 'ok');
  assert.match(finding.summary, /^off: .*--allow-writes/);
  assert.deepEqual(asked, []);
});

test('writes on, SQL Server: every grant of the write role script is checked in both databases; what is missing is named', async () => {
  const ok = grants(new Set());
  const good = await checkWrites(MSSQL, ok.executor, ['TWO', 'NWIND'], true);
  assert.equal(good.status, 'ok');
  // Exactly the grants the script makes: every GRANT statement of it is asked, in the configured system database.
  const script = writeRoleScript({ login: 'agent', companies: ['TWO', 'NWIND'], systemDatabase: 'GPSYS' });
  const granted: string[] = [];
  let database = '';
  for (const statement of script.split('\nGO\n')) {
    const use = /^USE \[(\w+)\]/.exec(statement);
    if (use) database = use[1]!;
    const grant = /GRANT ([A-Z, ]+) ON \[dbo\]\.\[(\w+)\]/.exec(statement);
    if (grant) for (const permission of grant[1]!.split(', ')) granted.push(`${permission} [${database}].[dbo].[${grant[2]}]`);
  }
  // SELECT on the journal is granted with INSERT; INSERT is the one a write needs.
  assert.deepEqual(
    [...ok.asked].sort(),
    granted.filter((g) => !g.startsWith('SELECT [TWO].[dbo].[GPGW') && !g.startsWith('SELECT [NWIND].[dbo].[GPGW')).sort(),
  );
  assert.ok(ok.asked.includes('EXECUTE [GPSYS].[dbo].[tasmGetNextNoteIndex]'), 'what eConnect executes in the system database');
  assert.ok(ok.asked.includes('EXECUTE [GPSYS].[dbo].[smGetConstantInt]'));
  assert.ok(ok.asked.includes('SELECT [GPSYS].[dbo].[SY05501]'));
  assert.ok(ok.asked.includes('SELECT [GPSYS].[dbo].[taErrorCode]'), 'GP error texts in the configured system database');
  assert.ok(ok.asked.includes('EXECUTE [TWO].[dbo].[taGetPaymentNumber]'));
  assert.ok(!ok.asked.some((a) => a.startsWith('UPDATE')), 'no table is written but through GP procedures');

  const bad = grants(
    new Set([
      'EXECUTE [GPSYS].[dbo].[tasmGetNextNoteIndex]',
      'EXECUTE [NWIND].[dbo].[taRMTransaction]',
      'INSERT [TWO].[dbo].[GPGW_WRITE_JOURNAL]',
    ]),
    // Analytical Accounting not installed: its objects need no grant; a GP object that is missing does.
    new Set(['[GPSYS].[dbo].[AAG00102]', '[GPSYS].[dbo].[aagGetNextID]', '[GPSYS].[dbo].[SY05501]']),
  );
  const finding = await checkWrites(MSSQL, bad.executor, ['TWO', 'NWIND'], true);
  assert.equal(finding.status, 'fail');
  assert.deepEqual(finding.details, [
    'EXECUTE on GPSYS..tasmGetNextNoteIndex (taUpdateCreateCustomerRcd, taUpdateCreateVendorRcd, taCreateShippingMethod, taSopHdrIvcInsert, taRMTransaction, taPMTransactionInsert, taGLTransactionHeaderInsert, taCreateUpdateBatchHeaderRcd)',
    'SELECT on GPSYS..SY05501 (taSopLineIvcInsert)',
    'INSERT on TWO..GPGW_WRITE_JOURNAL (the write journal; the script creates it)',
    "EXECUTE on NWIND..taRMTransaction (GP's eConnect procedure)",
  ]);
  assert.match(finding.fix!, /gp-agent mssql grant-write --login <login> --companies <ids> --system-database GPSYS/);
});

test('writes on, embedded database: its files must be writable', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diag-writes-'));
  try {
    for (const name of ['DYNAMICS', 'TWO']) fs.writeFileSync(path.join(dir, `${name}.sqlite`), '');
    const { executor } = grants(new Set());
    assert.equal((await checkWrites({ kind: 'sqlite', dir }, executor, ['TWO'], true)).status, 'ok');
    if (process.getuid?.() !== 0) {
      fs.chmodSync(path.join(dir, 'TWO.sqlite'), 0o444);
      const finding = await checkWrites({ kind: 'sqlite', dir }, executor, ['TWO'], true);
      assert.equal(finding.status, 'fail');
      assert.match(finding.details![0]!, /TWO\.sqlite cannot be written/);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
