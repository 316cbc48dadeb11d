import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { WRITES } from '@gp-gateway/protocol';
import { STAND_IN_SCRIPT } from '../writes/mssql/stand-in/standIn.ts';
import { ECONNECT_SYSTEM_OBJECTS } from './econnectSystemObjects.ts';
import { systemGrants, writeProcedures, writeRoleScript, WRITE_ROLE } from './writeRole.ts';

const statementsOf = (script: string) => script.split('\nGO\n');

test('the write role may EXECUTE exactly the eConnect procedures the writes call, and keep the journal', () => {
  assert.deepEqual(writeProcedures(), [...new Set(Object.values(WRITES).flatMap((s) => s.procedures))].sort());
  const script = writeRoleScript({ login: "o'hara", companies: ['TWO', 'NWIND'] });
  const statements = statementsOf(script);
  const companyExecutes = statements.filter(
    (s) => /^GRANT EXECUTE ON \[dbo\]\.\[ta[A-Za-z]+\] TO/.test(s) && writeProcedures().some((p) => s.includes(`[${p}]`)),
  );
  assert.equal(companyExecutes.length, 2 * writeProcedures().length);
  assert.equal(statements.filter((s) => s.includes('CREATE TABLE [dbo].[GPGW_WRITE_JOURNAL]')).length, 2);
  assert.ok(statements.includes('GRANT SELECT, INSERT ON [dbo].[GPGW_WRITE_JOURNAL] TO [gp_gateway_write]'));
  assert.ok(statements.includes('GRANT SELECT ON [dbo].[taErrorCode] TO [gp_gateway_write]'));
  // No table is written but through GP's procedures: not even RM40401, whose numbers taGetPaymentNumber takes.
  assert.deepEqual(
    statements.filter((s) => /^GRANT [A-Z, ]*(INSERT|UPDATE|DELETE)/.test(s)).map((s) => s.replace(/ TO .*/, '')),
    ['GRANT SELECT, INSERT ON [dbo].[GPGW_WRITE_JOURNAL]', 'GRANT SELECT, INSERT ON [dbo].[GPGW_WRITE_JOURNAL]'],
  );
  assert.ok(!/DYNGRP|db_datawriter|db_owner/.test(script));
  assert.ok(script.includes("IF USER_ID(N'o''hara') IS NULL CREATE USER [o'hara]"));
  assert.equal(WRITE_ROLE, 'gp_gateway_write');
  assert.throws(() => writeRoleScript({ login: 'x', companies: ['TWO;'] }), /not a GP company id/);
});

test("the system database's grants go to GP_SYSTEM_DATABASE: what eConnect reads and executes there, Analytical Accounting's only where it exists", () => {
  const statements = statementsOf(writeRoleScript({ login: 'agent', companies: ['TWO'], systemDatabase: 'GPSYS' }));
  assert.equal(statements[2], 'USE [GPSYS]');
  assert.ok(!statements.some((s) => s.includes('DYNAMICS')));
  const system = statements.slice(2, statements.indexOf('USE [TWO]'));
  for (const grant of systemGrants()) {
    const statement = `GRANT ${grant.permission} ON [dbo].[${grant.name}] TO [gp_gateway_write]`;
    assert.ok(
      system.includes(grant.optional ? `IF OBJECT_ID(N'dbo.${grant.name}') IS NOT NULL ${statement}` : statement),
      `${grant.permission} on ${grant.name}`,
    );
  }
  for (const name of ['tasmGetNextNoteIndex', 'smGetConstantInt', 'smGetMsgString', 'taDEXLOCKS'])
    assert.ok(system.includes(`GRANT EXECUTE ON [dbo].[${name}] TO [gp_gateway_write]`), name);
  for (const name of ['SY05501', 'SY05400', 'MC60100', 'SY00800', 'SY01400', 'MC00100', 'MC40300'])
    assert.ok(system.includes(`GRANT SELECT ON [dbo].[${name}] TO [gp_gateway_write]`), name);
  assert.throws(() => writeRoleScript({ login: 'x', companies: ['TWO'], systemDatabase: 'GP]SYS' }), /not a system database name/);
});

test("the role holds every object the stand-in's procedures read or execute in the system database, as GP's do", () => {
  // The stand-in (econnect-stand-in.sql) reaches into DYNAMICS where GP's procedures do, so that a grant
  // missing from the role fails the gated SQL Server suite (run as the role's login) as it fails on GP.
  const script = fs.readFileSync(STAND_IN_SCRIPT, 'utf8');
  const procedures = [...script.matchAll(/CREATE OR ALTER PROCEDURE \[dbo\]\.\[(ta\w+)\]\n[\s\S]*?\nGO/g)].map(([body]) => body);
  const reached = new Map<string, string>();
  for (const body of procedures) {
    for (const [, exec, name] of body.matchAll(/(EXEC (?:@\w+ = )?)?\[DYNAMICS\]\.\[dbo\]\.\[(\w+)\]/g))
      reached.set(name!, exec ? 'EXECUTE' : 'SELECT');
  }
  assert.ok(reached.size >= 6, `the stand-in reaches ${[...reached.keys()].join(', ')}`);
  const grants = new Set(systemGrants().map((g) => `${g.permission} ${g.name}`));
  for (const [name, permission] of reached) assert.ok(grants.has(`${permission} ${name}`), `${permission} on DYNAMICS..${name}`);
  // And each of them is one GP 2015's procedures reach (econnectSystemObjects.ts), not one of the stand-in's own.
  for (const name of reached.keys()) assert.ok(ECONNECT_SYSTEM_OBJECTS.some((o) => o.name === name) || name === 'taErrorCode', name);
});
