import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerToken } from './bearer.ts';

test('the Bearer scheme is case-insensitive and may be followed by several spaces (RFC 9110)', () => {
  for (const header of ['Bearer abc', 'bearer abc', 'BEARER abc', 'BeArEr   abc', 'Bearer abc '])
    assert.equal(bearerToken(header), 'abc', header);
  for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearerabc', 'Bearer a b', ' Bearer abc']) {
    assert.equal(bearerToken(header), null, String(header));
  }
});
