import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeString, formatDate, formatMoney, formatQuantity, formatTimestamp, jsonString, jsonValue } from './codecs.ts';

test('money keeps 2 decimals and up to 5 significant ones, never through a float', () => {
  assert.equal(formatMoney('1250.00000'), '1250.00');
  assert.equal(formatMoney('0.12345'), '0.12345');
  assert.equal(formatMoney('-15.50000'), '-15.50');
  assert.equal(formatMoney('-0.00000'), '0.00');
  assert.equal(formatMoney('99999999999999.99999'), '99999999999999.99999');
  assert.equal(formatMoney('0.10000'), '0.10');
});

test('quantities drop trailing zeros', () => {
  assert.equal(formatQuantity('12.00000'), '12');
  assert.equal(formatQuantity('0.50000'), '0.5');
  assert.equal(formatQuantity('0.00000'), '0');
});

test('char padding is trimmed and empty strings are null', () => {
  assert.equal(decodeString('AARONFIT0001   '), 'AARONFIT0001');
  assert.equal(decodeString('     '), null);
  assert.equal(decodeString('  leading kept'), '  leading kept');
});

test('GP empty dates are null; timestamps are ISO UTC', () => {
  assert.equal(formatDate('1900-01-01 00:00:00.000'), null);
  assert.equal(formatDate('2026-03-01 00:00:00.000'), '2026-03-01');
  assert.equal(formatTimestamp('2026-03-01 14:05:09.123'), '2026-03-01T14:05:09.123Z');
  assert.equal(formatTimestamp('2026-03-01 14:05:09'), '2026-03-01T14:05:09.000Z');
});

test('money and quantity formatting agrees with decimal.js on edge values', async () => {
  const { Decimal } = await import('decimal.js');
  const viaDecimal = (text: string, min: number) => {
    const d = new Decimal(text);
    return d.isZero() ? (min ? `0.${'0'.repeat(min)}` : '0') : d.toFixed(Math.max(min, d.decimalPlaces()));
  };
  for (const text of ['0.00000', '-0.00000', '1250.00000', '1250.50000', '-15.50000', '0.12345', '00012.10000', '99999999999999.99999', '-99999999999999.99999', '7', '-0.00001', '10.00100']) {
    assert.equal(formatMoney(text), viaDecimal(text, 2), text);
    assert.equal(formatQuantity(text), viaDecimal(text, 0), text);
  }
  for (const bad of ['1e5', '', '-', '.5', '1.', '1.2.3', '12a', ' 1', '+1']) assert.throws(() => formatMoney(bad), Error, bad);
});

test('random amounts format as decimal.js formats them', async () => {
  const { Decimal } = await import('decimal.js');
  for (let i = 0; i < 2000; i++) {
    const whole = String(Math.floor(Math.random() * 10 ** Math.floor(Math.random() * 15)));
    const fraction = String(Math.floor(Math.random() * 100000)).padStart(5, '0');
    const text = `${Math.random() < 0.3 ? '-' : ''}${whole}.${fraction}`;
    const d = new Decimal(text);
    const expected = d.isZero() ? '0.00' : d.toFixed(Math.max(2, d.decimalPlaces()));
    assert.equal(formatMoney(text), expected, text);
  }
});

test('strings become JSON text exactly as JSON.stringify writes them', () => {
  const samples = ['', 'plain', 'O"Brien', 'back\\slash', 'tab\there', 'nul\u0000', '\u001f', 'line\u2028sep', 'é ü ß 漢字', '😀 pair', 'lone \ud800', 'lone \udfff end', '</script>'];
  for (const text of samples) assert.equal(jsonString(text), JSON.stringify(text), text);
  for (const value of ['x', 0, -1.5, 12, true, false, null, undefined, Number.NaN, { a: 1 }, ['b']]) {
    assert.equal(jsonValue(value), JSON.stringify(value) ?? 'null', String(value));
  }
});
