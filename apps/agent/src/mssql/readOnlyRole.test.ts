import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACCOUNT_FRAMEWORK_TABLES } from '../catalogue/accountFramework.ts';
import { CATALOGUE } from '../catalogue/index.ts';
import { WORK_READS } from '../catalogue/resources/work.ts';
import { catalogueTables } from '../catalogue/catalogueTables.ts';
import { readOnlyRoleScript, READ_ROLE } from './readOnlyRole.ts';

test('the read role gets SELECT on exactly the tables the catalogue reads, in every database', () => {
  const tables = catalogueTables();
  // With the account framework's tables, which the accounts' keys are built from.
  const read = new Set([
    ...[...Object.values(CATALOGUE), ...Object.values(WORK_READS).map((w) => w.def)].flatMap((d) => [
      ...d.sources.map((s) => s.table),
      ...(d.joins ?? []).map((j) => j.table),
    ]),
    ...ACCOUNT_FRAMEWORK_TABLES,
  ]);
  assert.deepEqual(
    tables.system.filter((t) => t.startsWith('SY003')),
    ['SY003001', 'SY00302'],
  );
  assert.deepEqual(new Set([...tables.system, ...tables.company]), read);
  const script = readOnlyRoleScript({ login: 'api_read', password: "it's", companies: ['TWO', 'NWIND'] });
  const grants = script.split('\nGO\n').filter((s) => s.startsWith('GRANT'));
  // The system database's tables and DU000020, GP's version, which health and diagnose read; each
  // company's tables and SY00100, its system database's name, which diagnose reads.
  assert.equal(grants.length, tables.system.length + 1 + 2 * (tables.company.length + 1));
  assert.ok(script.includes('USE [DYNAMICS]\nGO\nIF USER_ID'));
  assert.ok(grants.includes('GRANT SELECT ON [dbo].[DU000020] TO [gp_gateway_read]'));
  assert.ok(grants.every((g) => /^GRANT SELECT ON \[dbo\]\.\[[A-Z0-9]+\] TO \[gp_gateway_read\]$/.test(g)));
  assert.ok(!/GRANT (INSERT|UPDATE|DELETE|EXECUTE)|DYNGRP|db_datareader/.test(script));
  assert.ok(script.includes("CREATE LOGIN [api_read] WITH PASSWORD = N'it''s', CHECK_POLICY = ON"));
  assert.equal(READ_ROLE, 'gp_gateway_read');
  assert.ok(!readOnlyRoleScript({ login: 'DOMAIN\\svc-gp', companies: ['TWO'] }).includes('CREATE LOGIN'));
  assert.throws(() => readOnlyRoleScript({ login: 'x', companies: ["TWO'"] }), /not a GP company id/);
});

test('a named system database gets the system grants, as an identifier only', () => {
  const script = readOnlyRoleScript({ login: 'api_read', companies: ['TWO'], systemDatabase: 'GPSYS' });
  assert.ok(script.includes('USE [GPSYS]\nGO\nIF USER_ID'));
  assert.ok(!script.includes('DYNAMICS'));
  assert.ok(script.includes('USE [TWO]\nGO\n'));
  assert.ok(script.split('\nGO\n').includes('GRANT SELECT ON [dbo].[SY00100] TO [gp_gateway_read]'));
  assert.throws(
    () => readOnlyRoleScript({ login: 'x', companies: ['TWO'], systemDatabase: 'GP]; DROP DATABASE TWO; --' }),
    /not a system database name/,
  );
});
