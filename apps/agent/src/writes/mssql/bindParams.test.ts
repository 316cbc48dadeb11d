import { test } from 'node:test';
import assert from 'node:assert/strict';
import sql from 'mssql';
import { bindParams } from './bindParams.ts';

type Bound = Record<string, { type: unknown; value: unknown }>;

test('amounts reach SQL Server as their exact decimal text, never through a JS double', () => {
  // 14 integer digits and 5 decimals: a double holds about 16 significant digits, so this would arrive changed.
  const amount = '98765432109876.54321';
  assert.notEqual(String(Number(amount)), amount);
  const request = bindParams(new sql.Request(), [
    { name: 'p0', type: 'numeric(19,5)', value: amount },
    { name: 'p1', type: 'numeric(19,5)', value: '29.985' },
    { name: 'p2', type: 'smallint', value: 3 },
    { name: 'p3', type: 'char(15)', value: 'AARONFIT0001' },
  ]);
  const bound = (request as unknown as { parameters: Bound }).parameters;
  assert.equal(bound.p0!.value, amount);
  assert.equal(bound.p1!.value, '29.985');
  // Bound as varchar: SQL Server converts it to the procedure's numeric(19,5) exactly.
  assert.equal(bound.p0!.type, sql.VarChar);
  assert.equal(bound.p2!.type, sql.SmallInt);
  assert.equal(bound.p2!.value, 3);
  assert.equal(bound.p3!.type, sql.Char);
});
