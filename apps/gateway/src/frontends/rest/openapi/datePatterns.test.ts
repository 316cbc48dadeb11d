import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OBJECTS, parseListQuery } from '@gp-gateway/protocol';
import { DATE_FILTER_PATTERN, TIMESTAMP_FILTER_PATTERN } from './datePatterns.ts';

/** Deterministic pseudo-random choices (mulberry32), so a failure names a value that fails every run. */
function chooser(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return <T>(options: readonly T[]): T => options[Math.floor(next() * options.length)]!;
}

const two = (n: number) => String(n).padStart(2, '0');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Dates and date-times near every boundary the parser has: years, months, days, leap days, times, offsets. */
function candidates(count: number): string[] {
  const pick = chooser(21);
  const years = ['1899', '1900', '1901', '1904', '1996', '2000', '2023', '2024', '2100', '2400', '3200', '9999', '0000', '123', '20245'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const date = `${pick(years)}-${two(pick(range(0, 13)))}-${two(pick(range(0, 32)))}`;
    const time = pick([
      '',
      '',
      `T${two(pick(range(0, 25)))}:${two(pick(range(0, 61)))}`,
      `T${two(pick(range(0, 25)))}:${two(pick(range(0, 61)))}:${two(pick(range(0, 61)))}${pick(['', '.1', '.123', '.123456789', '.1234567890', '.'])}`,
      'T24:00',
      'T24:00:00.000',
      'T24:00:01',
      'T1:00',
    ]);
    const offset = time ? pick(['Z', '', `+${two(pick(range(0, 25)))}:${two(pick(range(0, 61)))}`, '-05:00', '+0500', 'z']) : '';
    out.push(date + time + offset + pick(['', '', '', '', ' ', 'x']));
  }
  return out;
}

const accepts = (object: keyof typeof OBJECTS, name: string, value: string) => parseListQuery(OBJECTS[object], { [name]: value }).ok;

test('the date filter pattern accepts exactly the values the protocol accepts', () => {
  const pattern = new RegExp(DATE_FILTER_PATTERN);
  const disagreements = candidates(20_000).filter((value) => pattern.test(value) !== accepts('gl-entries', 'dateFrom', value));
  assert.deepEqual(disagreements.slice(0, 10), []);
});

test('the updatedSince pattern accepts exactly the values the protocol accepts, bar instants that leave 1900 to 9999 in UTC', () => {
  const pattern = new RegExp(TIMESTAMP_FILTER_PATTERN);
  const values = candidates(20_000);
  assert.ok(values.filter((v) => pattern.test(v)).length > 2000, 'enough accepted values to mean something');
  const edge = (v: string) => /^(1900-01-01|9999-12-31)T/.test(v);
  const disagreements = values.filter((value) => !edge(value) && pattern.test(value) !== accepts('customers', 'updatedSince', value));
  assert.deepEqual(disagreements.slice(0, 10), []);
});
