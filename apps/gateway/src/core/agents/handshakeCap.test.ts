import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HandshakeCap } from './handshakeCap.ts';

test('at most the cap of handshakes per clock second; the next second admits again', () => {
  let now = 10_000;
  const cap = new HandshakeCap(3, () => now);
  assert.deepEqual(
    Array.from({ length: 5 }, () => cap.admit().admitted),
    [true, true, true, false, false],
  );
  assert.equal(cap.takeRefusals(), 2);
  assert.equal(cap.takeRefusals(), 0);
  now += 999;
  assert.equal(cap.admit().admitted, false);
  now += 1;
  assert.equal(cap.admit().admitted, true);
});

test('the refused are booked turns from the next second on, at 80 % of the cap, one after another', () => {
  let now = 20_250;
  const cap = new HandshakeCap(10, () => now);
  for (let i = 0; i < 10; i++) cap.admit();
  // 8 turns a second: 125 ms apart, the first at the next clock second.
  assert.deepEqual(
    Array.from({ length: 9 }, () => cap.admit()),
    [750, 875, 1000, 1125, 1250, 1375, 1500, 1625, 1750].map((retryAfterMs) => ({ admitted: false, retryAfterMs })),
  );
  // Later refusals queue behind those already booked ...
  now = 21_100;
  for (let i = 0; i < 10; i++) cap.admit();
  assert.deepEqual(cap.admit(), { admitted: false, retryAfterMs: 21_000 + 9 * 125 - now });
  // ... and once the queue has passed, start again from the next second.
  now = 40_500;
  for (let i = 0; i < 10; i++) cap.admit();
  assert.deepEqual(cap.admit(), { admitted: false, retryAfterMs: 500 });
});

test("a stopping instance's agents are spread so that one instance with the same cap admits them all at 80 % of it", () => {
  const cap = new HandshakeCap(1_000);
  assert.equal(cap.spreadMs(10_000), 12_500);
  assert.equal(cap.spreadMs(3), 4);
});
