import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../errors/apiError.ts';
import { InFlightGate } from './inFlightGate.ts';

/** Resolves to 'granted' or the error code, without waiting for anything that has not happened. */
const outcome = (p: Promise<() => void>) =>
  p.then(
    () => 'granted',
    (e: ApiError) => e.code,
  );

test('up to the limit get a slot at once; the next wait and are served in arrival order', async () => {
  const gate = new InFlightGate({ maxWaitMs: 60_000, maxWaiting: 10 });
  const held = await Promise.all([gate.acquire('c', 2), gate.acquire('c', 2)]);
  const order: string[] = [];
  const third = gate.acquire('c', 2).then((release) => (order.push('third'), release));
  const fourth = gate.acquire('c', 2).then((release) => (order.push('fourth'), release));
  assert.deepEqual([gate.active('c'), gate.waiting('c')], [2, 2]);
  held[0]!();
  const releaseThird = await third;
  assert.deepEqual([gate.active('c'), gate.waiting('c'), order], [2, 1, ['third']]);
  held[1]!();
  releaseThird();
  (await fourth)();
  assert.deepEqual([gate.active('c'), gate.waiting('c'), order], [0, 0, ['third', 'fourth']]);
});

test('a release called twice frees one slot only', async () => {
  const gate = new InFlightGate({ maxWaitMs: 60_000, maxWaiting: 10 });
  const release = await gate.acquire('c', 1);
  release();
  release();
  await gate.acquire('c', 1);
  assert.equal(gate.active('c'), 1);
});

test('keys do not share slots', async () => {
  const gate = new InFlightGate({ maxWaitMs: 60_000, maxWaiting: 10 });
  await gate.acquire('org-a/sandbox', 1);
  assert.equal(await outcome(gate.acquire('org-b/sandbox', 1)), 'granted');
});

test('a waiter not served within maxWaitMs gets 429 RATE_LIMITED with Retry-After 1', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const gate = new InFlightGate({ maxWaitMs: 500, maxWaiting: 10 });
  await gate.acquire('c', 1);
  const waiting = gate.acquire('c', 1).catch((e: unknown) => e);
  t.mock.timers.tick(499);
  assert.equal(gate.waiting('c'), 1);
  t.mock.timers.tick(1);
  const error = (await waiting) as ApiError;
  assert.ok(error instanceof ApiError);
  assert.deepEqual([error.code, error.status, error.retryAfterSeconds], ['RATE_LIMITED', 429, 1]);
  assert.equal(error.message, 'This connection already has 1 request in flight, the most it takes at once. Retry shortly.');
  assert.deepEqual([gate.active('c'), gate.waiting('c')], [1, 0]);
});

test('beyond maxWaiting a request is refused at once', async () => {
  const gate = new InFlightGate({ maxWaitMs: 60_000, maxWaiting: 1 });
  const release = await gate.acquire('c', 1);
  const queued = gate.acquire('c', 1);
  assert.equal(await outcome(gate.acquire('c', 1)), 'RATE_LIMITED');
  release();
  (await queued)();
});

test('a raised limit lets waiters in at the next release', async () => {
  const gate = new InFlightGate({ maxWaitMs: 60_000, maxWaiting: 10 });
  const first = await gate.acquire('c', 1);
  const second = gate.acquire('c', 1);
  const third = gate.acquire('c', 3);
  first();
  await Promise.all([second, third]);
  assert.equal(gate.active('c'), 2);
});
