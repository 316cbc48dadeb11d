import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis } from '../../infrastructure/cluster/redisClient.ts';
import { ApiError } from '../../errors/apiError.ts';
import { memoryLog, pollUntil, startRedis, type RedisServer, skipWithout } from '@gp-gateway/testing';
import { InFlightGate } from './inFlightGate.ts';
import { RedisInFlightLimiter } from './redisInFlightLimiter.ts';
import { RedisRateLimiter } from './redisRateLimiter.ts';
import { InMemoryTokenBucketLimiter } from './tokenBucketLimiter.ts';

/**
 * The client, with a promise that resolves once `refusals` of its EVALs (slot requests) have been
 * answered 0: how a test sees that a waiting request asked Redis and was refused, rather than
 * guessing how long that takes.
 */
function countingRefusals(redis: Redis, refusals: number): { redis: Redis; refused: Promise<void> } {
  let seen = 0;
  let done!: () => void;
  const refused = new Promise<void>((resolve) => (done = resolve));
  const counted = new Proxy(redis, {
    get(target, name) {
      if (name === 'eval')
        return async (...args: Parameters<Redis['eval']>) => {
          const answer = await target.eval(...args);
          if (answer === 0 && ++seen === refusals) done();
          return answer;
        };
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { redis: counted, refused };
}

const skip = skipWithout('redis-server', 'limits shared on Redis');

describe('limits shared by several gateway instances on a real redis-server', { skip }, () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const client = async () => {
    const redis = await connectRedis(server.url, memoryLog().log);
    clients.push(redis);
    return redis;
  };
  const prefix = () => `t${randomBytes(4).toString('hex')}`;

  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    for (const c of clients) c.disconnect();
    await server?.stop();
  });

  test('a limit of L across two instances admits exactly L', async () => {
    const keyPrefix = prefix();
    const [a, b] = await Promise.all([client(), client()]);
    const log = memoryLog().log;
    const limiters = [a, b].map((redis) => new RedisRateLimiter({ redis, fallback: new InMemoryTokenBucketLimiter(), log, keyPrefix }));
    const policy = { limit: 7, windowSeconds: 60 };
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => limiters[i % 2]!.take('key_1', policy)));
    assert.equal(decisions.filter((d) => d.allowed).length, 7);
    const refused = decisions.find((d) => !d.allowed)!;
    assert.equal(refused.remaining, 0);
    assert.ok(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 60, `retry after ${refused.retryAfterSeconds}`);
    // Another key has its own quota.
    assert.equal((await limiters[1]!.take('key_2', policy)).remaining, 6);
  });

  test('the in-flight cap holds across instances, and a release on one frees a slot for the other', async () => {
    const keyPrefix = prefix();
    const [a, b] = await Promise.all([client(), client()]);
    const make = (redis: Redis) =>
      new RedisInFlightLimiter({
        redis,
        fallback: new InFlightGate({ maxWaitMs: 1_000, maxWaiting: 10 }),
        log: memoryLog().log,
        maxWaitMs: 3_000,
        maxWaiting: 10,
        keyPrefix,
        pollMs: 20,
      });
    // B's first try and two of its polls refused: it waited past several chances to be let in wrongly.
    const counted = countingRefusals(b, 3);
    const [onA, onB] = [make(a), make(counted.redis)];
    const held = [await onA.acquire('org\u0000conn', 2), await onA.acquire('org\u0000conn', 2)];
    let granted = false;
    const waiting = onB.acquire('org\u0000conn', 2).then((release) => ((granted = true), release));
    await counted.refused;
    assert.equal(granted, false, 'a third slot was granted while two were held');
    held[0]!();
    const release = await waiting;
    assert.equal(granted, true);
    release();
    held[1]!();
    onA.stop();
    onB.stop();
  });

  test('a full connection answers 429 after the wait', async () => {
    const redis = await client();
    const limiter = new RedisInFlightLimiter({
      redis,
      fallback: new InFlightGate({ maxWaitMs: 1_000, maxWaiting: 10 }),
      log: memoryLog().log,
      maxWaitMs: 100,
      maxWaiting: 10,
      keyPrefix: prefix(),
    });
    const release = await limiter.acquire('c', 1);
    await assert.rejects(limiter.acquire('c', 1), (e: ApiError) => e.code === 'RATE_LIMITED' && e.retryAfterSeconds === 1);
    release();
    limiter.stop();
  });

  test('slots held by an instance that died come free once their lease runs out; live ones are renewed', async () => {
    const keyPrefix = prefix();
    const [a, b] = await Promise.all([client(), client()]);
    const options = { fallback: new InFlightGate({ maxWaitMs: 1, maxWaiting: 1 }), maxWaiting: 10, keyPrefix, leaseMs: 300, pollMs: 20 };
    const dying = new RedisInFlightLimiter({ ...options, redis: a, log: memoryLog().log, maxWaitMs: 100 });
    const survivor = new RedisInFlightLimiter({ ...options, redis: b, log: memoryLog().log, maxWaitMs: 100 });
    await survivor.acquire('c', 2);
    await dying.acquire('c', 2);
    // Both leases outlive the expiry they were given (on Redis's clock, which the leases use): they are renewed while held.
    const redisKey = `${keyPrefix}:inflight:c`;
    const firstExpiry = Math.max(...(await b.zrange(redisKey, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2).map(Number));
    const redisNow = async () => {
      const [seconds, micros] = await b.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    };
    await pollUntil("Redis's clock to pass the leases' first expiry twice over", async () => (await redisNow()) > firstExpiry + 300);
    await assert.rejects(survivor.acquire('c', 2), (e: ApiError) => e.code === 'RATE_LIMITED');
    // The other instance dies without releasing: its lease is no longer renewed and expires.
    dying.stop();
    a.disconnect();
    const started = Date.now();
    const waited = new RedisInFlightLimiter({ ...options, redis: b, log: memoryLog().log, maxWaitMs: 2_000 });
    (await waited.acquire('c', 2))();
    assert.ok(Date.now() - started < 1_000, `the dead instance's slot came free after ${Date.now() - started} ms`);
    survivor.stop();
    waited.stop();
  });

  test('while Redis is down requests are limited in process, and the outage is logged once each way', async () => {
    const own = await startRedis();
    try {
      const redis = await connectRedis(own.url, memoryLog().log);
      clients.push(redis);
      const { log, lines } = memoryLog();
      const keyPrefix = prefix();
      const rate = new RedisRateLimiter({ redis, fallback: new InMemoryTokenBucketLimiter(), log, keyPrefix });
      const gate = new InFlightGate({ maxWaitMs: 50, maxWaiting: 10 });
      const inFlight = new RedisInFlightLimiter({ redis, fallback: gate, log, maxWaitMs: 50, maxWaiting: 10, keyPrefix });
      const policy = { limit: 3, windowSeconds: 60 };
      assert.equal((await rate.take('k', policy)).remaining, 2);
      const port = own.port;
      await own.stop();
      const during = [];
      for (let i = 0; i < 5; i++) during.push(await rate.take('k', policy));
      // The fallback bucket is this process's own, started full.
      assert.deepEqual(
        during.map((d) => d.allowed),
        [true, true, true, false, false],
      );
      const release = await inFlight.acquire('c', 1);
      assert.equal(gate.active('c'), 1, 'the slot was not taken from the in-process gate');
      await assert.rejects(inFlight.acquire('c', 1), (e: ApiError) => e.code === 'RATE_LIMITED');
      release();
      const warnings = lines.filter((l) => String(l.msg).startsWith('Redis unreachable'));
      assert.equal(warnings.length, 2, JSON.stringify(warnings)); // one per limiter, not one per request
      const again = await startRedis(port);
      try {
        await pollUntil('the client to reconnect', () => redis.status === 'ready');
        assert.equal((await rate.take('k', policy)).remaining, 2, 'not counted in the new Redis');
        assert.equal(lines.filter((l) => String(l.msg).startsWith('Redis reachable again')).length, 1);
      } finally {
        inFlight.stop();
        await again.stop();
      }
    } finally {
      await own.stop();
    }
  });
});
