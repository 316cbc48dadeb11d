import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GP_EMPTY_DATE,
  SCALE,
  gpDate,
  gpTimestampFromEpochMs,
  padChar,
  scaledTextToDecimalString,
  scaledToDecimalString,
  toScaled,
} from './sqliteValues.ts';

describe('toScaled', () => {
  test('scales decimal strings exactly by 100000', () => {
    assert.equal(SCALE, 100000n);
    assert.equal(toScaled('1250.5'), 125050000n);
    assert.equal(toScaled('1250'), 125000000n);
    assert.equal(toScaled('0.00001'), 1n);
    assert.equal(toScaled('-0.5'), -50000n);
    assert.equal(toScaled('-0'), 0n);
    assert.equal(toScaled('12345.67891'), 1234567891n);
  });

  test('keeps values beyond the float-safe range exact', () => {
    assert.equal(toScaled('92233720368547.75807'), 9223372036854775807n);
    assert.equal(toScaled('90071992547.40993'), 9007199254740993n);
  });

  test('rejects more than 5 decimals', () => {
    assert.throws(() => toScaled('1.000001'), RangeError);
    assert.throws(() => toScaled('0.123456'), RangeError);
  });

  test('rejects anything that is not a plain decimal', () => {
    for (const bad of ['', '-', '.5', '5.', '1e3', ' 1', '1 ', '+1', '1,5', 'abc', '0x10', 'NaN', 'Infinity', '1.2.3']) {
      assert.throws(() => toScaled(bad), RangeError, bad);
    }
  });
});

describe('scaledToDecimalString', () => {
  test('always prints 5 decimals and keeps the sign', () => {
    assert.equal(scaledToDecimalString(125050000n), '1250.50000');
    assert.equal(scaledToDecimalString(0n), '0.00000');
    assert.equal(scaledToDecimalString(1n), '0.00001');
    assert.equal(scaledToDecimalString(-50000n), '-0.50000');
    assert.equal(scaledToDecimalString(-125050000n), '-1250.50000');
    assert.equal(scaledToDecimalString(9223372036854775807n), '92233720368547.75807');
  });

  test('accepts safe integer numbers, as better-sqlite3 returns them by default', () => {
    assert.equal(scaledToDecimalString(125050000), '1250.50000');
    assert.equal(scaledToDecimalString(-1), '-0.00001');
  });

  test('reads the integer text of CAST(x AS TEXT) the same way, and refuses anything else', () => {
    for (const value of [0n, 1n, -1n, 99999n, 100000n, -100000n, 125050000n, -50000n, 9223372036854775807n, -9223372036854775808n]) {
      assert.equal(scaledTextToDecimalString(value.toString()), scaledToDecimalString(value), value.toString());
    }
    for (const bad of ['', '-', '1.5', '1e5', ' 1', '12a', '+1']) assert.throws(() => scaledTextToDecimalString(bad), RangeError, bad);
  });

  test('refuses numbers that cannot be exact', () => {
    assert.throws(() => scaledToDecimalString(1.5), RangeError);
    assert.throws(() => scaledToDecimalString(2 ** 53), RangeError);
    assert.throws(() => scaledToDecimalString(Number.NaN), RangeError);
  });

  test('round-trips with toScaled', () => {
    for (const text of ['0.00000', '1.00000', '-1.23450', '99999999.99999', '-0.00001']) {
      assert.equal(scaledToDecimalString(toScaled(text)), text);
    }
  });
});

describe('padChar', () => {
  test('right-pads with spaces to exactly the length', () => {
    assert.equal(padChar('AARONFIT0001', 15), 'AARONFIT0001   ');
    assert.equal(padChar('', 3), '   ');
    assert.equal(padChar('TWO', 3), 'TWO');
  });

  test('throws when the value is longer than the column', () => {
    assert.throws(() => padChar('TOOLONG', 5), RangeError);
  });

  test('counts code points like SQLite length()', () => {
    assert.equal([...padChar('😀', 3)].length, 3);
  });
});

describe('dates', () => {
  test('gpDate adds a zero time', () => {
    assert.equal(gpDate('2026-03-01'), '2026-03-01 00:00:00.000');
    assert.equal(gpDate('1900-01-01'), GP_EMPTY_DATE);
  });

  test('gpDate rejects malformed and impossible dates', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '2026-3-1', '2026-03-01T00:00:00Z', '']) {
      assert.throws(() => gpDate(bad), RangeError, bad);
    }
  });

  test('gpTimestampFromEpochMs formats UTC with milliseconds', () => {
    assert.equal(gpTimestampFromEpochMs(Date.UTC(2026, 2, 1, 14, 5, 9, 123)), '2026-03-01 14:05:09.123');
    assert.throws(() => gpTimestampFromEpochMs(1.5), RangeError);
  });
});
