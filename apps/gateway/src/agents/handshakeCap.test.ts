import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HandshakeCap } from './handshakeCap.ts';

test('at most the cap of handshakes per clock second; the next second admits again', () => {
  let now = 10_000;
  const cap = new HandshakeCap(3, () => now);
  assert.deepEqual(
    Array.from({ length: 5 }, () => cap.admit()),
    [true, true, true, false, false],
  );
  assert.equal(cap.takeRefusals(), 2);
  assert.equal(cap.takeRefusals(), 0);
  now += 999;
  assert.equal(cap.admit(), false);
  now += 1;
  assert.equal(cap.admit(), true);
});
