import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import { payableDistributions, receivableDistributions, type Distribution } from './distributions.ts';

/** The distributions eConnect creates per document type (taRMDistributionCreate, taPMDistributionCreate). */
const d = (value: string) => new Decimal(value);
const shape = (lines: Distribution[]) => lines.map((l) => [l.type, l.debit.toFixed(2), l.credit.toFixed(2)]);
const balanced = (lines: Distribution[]) =>
  lines.reduce((sum, l) => sum.plus(l.debit), d('0')).equals(lines.reduce((sum, l) => sum.plus(l.credit), d('0')));

describe('receivables distributions', () => {
  test('an invoice credits sales, freight and tax and debits the receivable; zero amounts get no line', () => {
    assert.deepEqual(shape(receivableDistributions(1, { sales: d('100'), freight: d('5'), tax: d('8') })), [
      [9, '0.00', '100.00'],
      [11, '0.00', '5.00'],
      [13, '0.00', '8.00'],
      [3, '113.00', '0.00'],
    ]);
    assert.deepEqual(shape(receivableDistributions(1, { sales: d('100'), freight: d('0'), tax: d('0') })), [
      [9, '0.00', '100.00'],
      [3, '100.00', '0.00'],
    ]);
  });

  test('credit memos and returns reverse the sides; every type but warranty with freight balances', () => {
    assert.deepEqual(shape(receivableDistributions(7, { sales: d('10'), freight: d('1'), tax: d('2') })), [
      [19, '10.00', '0.00'],
      [11, '1.00', '0.00'],
      [3, '0.00', '13.00'],
      [13, '2.00', '0.00'],
    ]);
    assert.deepEqual(
      receivableDistributions(8, { sales: d('10'), freight: d('0'), tax: d('0') }).map((l) => l.type),
      [3, 17],
    );
    for (const type of [1, 3, 4, 5, 7, 8])
      assert.ok(balanced(receivableDistributions(type, { sales: d('0.1'), freight: d('0.2'), tax: d('0.3') })), `type ${type}`);
    assert.ok(balanced(receivableDistributions(6, { sales: d('10'), freight: d('0'), tax: d('1') })));
    assert.throws(() => receivableDistributions(9, { sales: d('1'), freight: d('0'), tax: d('0') }));
  });
});

describe('payables distributions', () => {
  test('an invoice debits purchases and tax and credits the payable; returns and credit memos reverse it', () => {
    assert.deepEqual(shape(payableDistributions(1, { purchases: d('50'), tax: d('4') })), [
      [6, '50.00', '0.00'],
      [10, '4.00', '0.00'],
      [2, '0.00', '54.00'],
    ]);
    assert.deepEqual(shape(payableDistributions(5, { purchases: d('50'), tax: d('0') })), [
      [6, '0.00', '50.00'],
      [2, '50.00', '0.00'],
    ]);
    assert.equal(payableDistributions(2, { purchases: d('1'), tax: d('0') })[0]!.type, 5, 'finance charges post to FINCHRG');
    for (const type of [1, 2, 3, 4, 5]) assert.ok(balanced(payableDistributions(type, { purchases: d('0.1'), tax: d('0.2') })));
    assert.throws(() => payableDistributions(6, { purchases: d('1'), tax: d('0') }));
  });
});
