import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WRITES } from '@gp-gateway/protocol';
import { writeProcedures, writeRoleScript, WRITE_ROLE } from './writeRole.ts';

test('the write role may EXECUTE exactly the eConnect procedures the writes call, and keep the journal', () => {
  assert.deepEqual(writeProcedures(), [...new Set(Object.values(WRITES).flatMap((s) => s.procedures))].sort());
  const script = writeRoleScript({ login: "o'hara", companies: ['TWO', 'NWIND'] });
  const statements = script.split('\nGO\n');
  const executes = statements.filter((s) => s.startsWith('GRANT EXECUTE'));
  assert.equal(executes.length, 2 * writeProcedures().length);
  assert.ok(executes.every((g) => /^GRANT EXECUTE ON \[dbo\]\.\[ta[A-Za-z]+\] TO \[gp_gateway_write\]$/.test(g)));
  assert.equal(statements.filter((s) => s.includes('CREATE TABLE [dbo].[GPGW_WRITE_JOURNAL]')).length, 2);
  assert.ok(statements.includes('GRANT SELECT, INSERT ON [dbo].[GPGW_WRITE_JOURNAL] TO [gp_gateway_write]'));
  assert.ok(statements.includes('GRANT SELECT ON [dbo].[taErrorCode] TO [gp_gateway_write]'));
  // Nothing beyond: no table is written directly but RM40401's next number, no DELETE, no GP role.
  assert.deepEqual(
    statements.filter((s) => /^GRANT [A-Z, ]*(INSERT|UPDATE|DELETE)/.test(s)).map((s) => s.replace(/ TO .*/, '')),
    [
      'GRANT SELECT, INSERT ON [dbo].[GPGW_WRITE_JOURNAL]',
      'GRANT UPDATE ON [dbo].[RM40401]',
      'GRANT SELECT, INSERT ON [dbo].[GPGW_WRITE_JOURNAL]',
      'GRANT UPDATE ON [dbo].[RM40401]',
    ],
  );
  assert.ok(!/DYNGRP|db_datawriter|db_owner/.test(script));
  assert.ok(script.includes("IF USER_ID(N'o''hara') IS NULL CREATE USER [o'hara]"));
  assert.equal(WRITE_ROLE, 'gp_gateway_write');
  assert.throws(() => writeRoleScript({ login: 'x', companies: ['TWO;'] }), /not a GP company id/);
});
