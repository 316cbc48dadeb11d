import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemoryTokenBucketLimiter } from './tokenBucketLimiter.ts';

const DEFAULT_POLICY = { limit: 100, windowSeconds: 10 };

/** A limiter on a clock the test moves by hand. */
function limiterAt(start = 0) {
  let now = start;
  const limiter = new InMemoryTokenBucketLimiter(() => now);
  return { limiter, advance: (ms: number) => (now += ms) };
}

test('a full bucket allows the limit in a burst, then refuses with the wait until one token is back', async () => {
  const { limiter } = limiterAt();
  const first = await limiter.take('k', DEFAULT_POLICY);
  assert.deepEqual(first, { allowed: true, remaining: 99, resetSeconds: 1, retryAfterSeconds: 0 });
  for (let i = 2; i <= 99; i++) await limiter.take('k', DEFAULT_POLICY);
  assert.deepEqual(await limiter.take('k', DEFAULT_POLICY), { allowed: true, remaining: 0, resetSeconds: 10, retryAfterSeconds: 0 });
  // 100 per 10 s is one token per 100 ms: a refused request may retry after 1 s (whole seconds).
  assert.deepEqual(await limiter.take('k', DEFAULT_POLICY), { allowed: false, remaining: 0, resetSeconds: 10, retryAfterSeconds: 1 });
});

test('tokens come back continuously at limit per window', async () => {
  const { limiter, advance } = limiterAt();
  for (let i = 0; i < 100; i++) await limiter.take('k', DEFAULT_POLICY);
  advance(99);
  assert.equal((await limiter.take('k', DEFAULT_POLICY)).allowed, false, '99 ms is not yet one token');
  advance(1);
  assert.deepEqual(await limiter.take('k', DEFAULT_POLICY), { allowed: true, remaining: 0, resetSeconds: 10, retryAfterSeconds: 0 });
  advance(5_000);
  assert.deepEqual(await limiter.take('k', DEFAULT_POLICY), { allowed: true, remaining: 49, resetSeconds: 6, retryAfterSeconds: 0 });
  advance(60_000);
  assert.deepEqual(
    await limiter.take('k', DEFAULT_POLICY),
    { allowed: true, remaining: 99, resetSeconds: 1, retryAfterSeconds: 0 },
    'never more than the limit',
  );
});

test('Retry-After is the wait for one token, rounded up to whole seconds', async () => {
  const { limiter, advance } = limiterAt();
  const slow = { limit: 5, windowSeconds: 60 }; // one token per 12 s
  for (let i = 0; i < 5; i++) await limiter.take('k', slow);
  assert.deepEqual(await limiter.take('k', slow), { allowed: false, remaining: 0, resetSeconds: 60, retryAfterSeconds: 12 });
  advance(11_500);
  assert.deepEqual(await limiter.take('k', slow), { allowed: false, remaining: 0, resetSeconds: 49, retryAfterSeconds: 1 });
  advance(500);
  assert.equal((await limiter.take('k', slow)).allowed, true);
});

test('buckets are per key', async () => {
  const { limiter } = limiterAt();
  const tiny = { limit: 1, windowSeconds: 10 };
  assert.equal((await limiter.take('a', tiny)).allowed, true);
  assert.equal((await limiter.take('a', tiny)).allowed, false);
  assert.equal((await limiter.take('b', tiny)).allowed, true);
});

test('a changed policy applies at the next request; tokens above a lowered limit are dropped', async () => {
  const { limiter } = limiterAt();
  await limiter.take('k', DEFAULT_POLICY);
  assert.deepEqual(await limiter.take('k', { limit: 3, windowSeconds: 10 }), {
    allowed: true,
    remaining: 2,
    resetSeconds: 4,
    retryAfterSeconds: 0,
  });
  assert.deepEqual(await limiter.take('k', { limit: 1000, windowSeconds: 10 }), {
    allowed: true,
    remaining: 1,
    resetSeconds: 10,
    retryAfterSeconds: 0,
  });
});

test('buckets that have filled up again are forgotten', async () => {
  const { limiter, advance } = limiterAt();
  for (let i = 0; i < 50; i++) await limiter.take(`key${i}`, DEFAULT_POLICY);
  await limiter.take('busy', DEFAULT_POLICY);
  assert.equal(limiter.size, 51);
  advance(61_000);
  for (let i = 0; i < 100; i++) await limiter.take('busy', DEFAULT_POLICY);
  assert.equal(limiter.size, 1);
});

test('with maxBuckets, a flood of new keys forgets the fullest half; an emptied bucket stays empty', async () => {
  const limiter = new InMemoryTokenBucketLimiter(() => 0, { maxBuckets: 100 });
  const policy = { limit: 3, windowSeconds: 60 };
  for (let i = 0; i < 3; i++) await limiter.take('guesser', policy);
  for (let i = 0; i < 1000; i++) await limiter.take(`stranger${i}`, policy);
  assert.ok(limiter.size <= 100, `${limiter.size} buckets held`);
  assert.equal((await limiter.take('guesser', policy)).allowed, false, 'the emptied bucket was kept');
});
