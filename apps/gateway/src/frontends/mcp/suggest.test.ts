import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OBJECT_NAMES } from '@gp-gateway/protocol';
import { nearestName } from './suggest.ts';

test('a near-miss object name finds the object meant; anything else finds nothing', () => {
  const cases: [string, string | null][] = [
    ['customer', 'customers'],
    ['Customers', 'customers'],
    ['sales_orders', 'sales-orders'],
    ['glentries', 'gl-entries'],
    ['vendor-adresses', 'vendor-addresses'],
    ['salesorder', 'sales-orders'],
    ['item', 'items'],
    ['widgets', null],
    ['', null],
    ['site', 'sites'],
    ['xyz', null],
  ];
  for (const [input, expected] of cases) assert.equal(nearestName(input, OBJECT_NAMES), expected, input);
});
