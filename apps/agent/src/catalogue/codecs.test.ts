import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decoderFor,
  decodeString,
  formatDate,
  formatMoney,
  formatQuantity,
  formatTimestamp,
  jsonString,
  jsonValue,
  jsonWriterFor,
} from './codecs.ts';
import type { Codec } from './types.ts';

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
  // Only blanks are padding: other trailing white space was typed into GP, as SQL's RTRIM sees it.
  assert.equal(decodeString('tab\t   '), 'tab\t');
  assert.equal(decodeString('nbsp\u00a0'), 'nbsp\u00a0');
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
  for (const text of [
    '0.00000',
    '-0.00000',
    '1250.00000',
    '1250.50000',
    '-15.50000',
    '0.12345',
    '00012.10000',
    '99999999999999.99999',
    '-99999999999999.99999',
    '7',
    '-0.00001',
    '10.00100',
  ]) {
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
  const samples = [
    '',
    'plain',
    'O"Brien',
    'back\\slash',
    'tab\there',
    'nul\u0000',
    '\u001f',
    'line\u2028sep',
    'é ü ß 漢字',
    '😀 pair',
    'lone \ud800',
    'lone \udfff end',
    '</script>',
  ];
  for (const text of samples) assert.equal(jsonString(text), JSON.stringify(text), text);
  for (const value of ['x', 0, -1.5, 12, true, false, null, undefined, Number.NaN, { a: 1 }, ['b']]) {
    assert.equal(jsonValue(value), JSON.stringify(value) ?? 'null', String(value));
  }
});

test('each codec writes exactly the JSON text JSON.stringify writes for its decoded value', async () => {
  const { sqliteDialect } = await import('../sql/sqliteDialect.ts');
  const { mssqlDialect } = await import('../sql/mssqlDialect.ts');
  const samples: Array<[Codec, unknown[]]> = [
    ['string', ['AARONFIT0001   ', '', '   ', 'O"Brien \\ Søn', 'tab\there', null]],
    ['money', ['125050000', '0', '-50000', '1', '9223372036854775807']],
    ['quantity', ['1200000', '50000', '0']],
    ['percent', [250, 0, 10000, -125]],
    ['date', ['2026-03-01 00:00:00.000', '1900-01-01 00:00:00.000']],
    ['timestamp', ['2026-03-01 14:05:09.123', '1900-01-01 00:00:00.000']],
    ['flag', [0, 1]],
    ['int', [0, 42, -7]],
    [{ enum: { 1: 'invoice', 3: 'debit-memo', 7: 'with "quotes"' } }, [1, 3, 7, 99]],
  ];
  for (const [codec, raws] of samples) {
    const decode = decoderFor(codec, sqliteDialect);
    const write = jsonWriterFor(codec, sqliteDialect);
    for (const raw of raws) assert.equal(write(raw), JSON.stringify(decode(raw)), `${JSON.stringify(codec)} ${String(raw)}`);
  }
  // SQL Server hands amounts over as decimal text already.
  for (const raw of ['1250.50000', '-0.00000', '0.12345'])
    assert.equal(jsonWriterFor('money', mssqlDialect)(raw), JSON.stringify(decoderFor('money', mssqlDialect)(raw)));
});
