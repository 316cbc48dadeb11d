import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeCheckRows } from './writeCheckView.ts';

test("the write check's rows say per company and object what GP answered: works, its codes and words, the missing grant", () => {
  const rows = writeCheckRows({
    checkedAt: '2026-11-26T12:00:00.000Z',
    companies: [
      {
        company: 'TWO',
        objects: [
          { object: 'customers', status: 'works' },
          {
            object: 'sales-orders',
            status: 'refused',
            message: 'GP refused the record (taSopLineIvcInsert): see details.gp',
            gp: [{ code: 4646, message: 'The unit price has more decimals than the currency' }],
          },
          { object: 'ap-invoices', status: 'forbidden', message: "the agent's SQL login lacks EXECUTE on DYNAMICS..smGetConstantInt" },
          { object: 'vendor-addresses', status: 'skipped', message: 'the company has no active vendor' },
        ],
      },
    ],
  });
  assert.deepEqual(rows, [
    { company: 'TWO', object: 'customers', result: 'works', why: '' },
    {
      company: 'TWO',
      object: 'sales-orders',
      result: 'refused',
      why: 'GP error 4646: The unit price has more decimals than the currency; GP refused the record (taSopLineIvcInsert): see details.gp',
    },
    {
      company: 'TWO',
      object: 'ap-invoices',
      result: 'not permitted',
      why: "the agent's SQL login lacks EXECUTE on DYNAMICS..smGetConstantInt",
    },
    { company: 'TWO', object: 'vendor-addresses', result: 'not checked', why: 'the company has no active vendor' },
  ]);
});
