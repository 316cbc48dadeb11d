import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGpCompanyId, parseCompaniesOption } from './companyIds.ts';

test('a GP company id is one to five capitals, digits or underscores', () => {
  for (const id of ['TWO', 'NWIND', 'A_1']) assert.ok(isGpCompanyId(id), id);
  for (const id of ['', 'two', 'TOOLONG', "TWO'", 'TWO]', 'T WO']) assert.ok(!isGpCompanyId(id), id);
});

test('--companies takes ids in any case, separated by commas, and refuses anything else', () => {
  assert.deepEqual(parseCompaniesOption('two,NWIND'), ['TWO', 'NWIND']);
  for (const list of ['', 'TWO,', 'TWO NWIND', 'TWO;DROP'])
    assert.throws(() => parseCompaniesOption(list), /--companies takes GP company ids/);
});
