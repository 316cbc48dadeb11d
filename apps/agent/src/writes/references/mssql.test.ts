import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWriteBody } from '@gp-gateway/protocol';
import { checksOf } from './describe.ts';
import { referenceBatch } from './mssql.ts';

test("a write's currency is checked in the configured system database (GP_SYSTEM_DATABASE), as reads find it", () => {
  const checked = checkWriteBody('customers', { id: 'C1', name: 'x', currencyId: 'Z-US$', paymentTermsId: 'Net 30' });
  assert.ok(checked.ok);
  const named = referenceBatch('TWO', checksOf('customers', checked.body), 'GPSYS').sql;
  assert.match(named, /FROM \[GPSYS\]\.\[dbo\]\.\[MC40200\]/);
  assert.doesNotMatch(named, /DYNAMICS/);
  assert.match(named, /FROM \[TWO\]\.\[dbo\]\.\[SY03300\]/, 'company tables stay in the company database');
  assert.match(referenceBatch('TWO', checksOf('customers', checked.body)).sql, /FROM \[DYNAMICS\]\.\[dbo\]\.\[MC40200\]/);
});
