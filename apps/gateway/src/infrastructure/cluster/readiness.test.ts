import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'nats';
import { memoryLog, startNats, startRedis, skipWithout } from '@gp-gateway/testing';
import { tempStore } from '../../testing/tempStore.ts';
import { readinessProbe } from './readiness.ts';
import { connectRedis } from './redisClient.ts';

const skip = skipWithout('redis-server', 'readiness with Redis and NATS') || skipWithout('nats-server', 'readiness with Redis and NATS');

test('ready while the store, Redis and NATS answer; not ready, saying which, when one does not or when draining', { skip }, async () => {
  const [redisServer, natsServer] = await Promise.all([startRedis(), startNats()]);
  const { store, dispose } = await tempStore();
  const redis = await connectRedis(redisServer.url, memoryLog().log);
  const nats = await connect({ servers: natsServer.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  let draining = false;
  try {
    const probe = readinessProbe({ store, redis, nats, draining: () => draining });
    assert.deepEqual(await probe(), { ready: true, checks: { store: 'ok', redis: 'ok', nats: 'ok' } });

    redisServer.pause(); // a frozen Redis: the probe answers within its bound rather than hanging
    const started = Date.now();
    const frozen = await probe();
    assert.ok(Date.now() - started < 1_500, `took ${Date.now() - started} ms`);
    assert.equal(frozen.ready, false);
    assert.match(frozen.checks.redis!, /^unreachable: /);
    assert.deepEqual([frozen.checks.store, frozen.checks.nats], ['ok', 'ok']);
    redisServer.resume();
    await redisServer.stop();
    await natsServer.stop();
    const down = await probe();
    assert.equal(down.ready, false);
    assert.match(down.checks.redis!, /^unreachable: /);
    assert.match(down.checks.nats!, /^unreachable: /);

    const alone = readinessProbe({ store, redis: null, nats: null, draining: () => draining });
    assert.deepEqual(await alone(), { ready: true, checks: { store: 'ok' } });
    draining = true;
    assert.deepEqual(await alone(), { ready: false, checks: { store: 'ok', shutdown: 'draining' } });
  } finally {
    redis.disconnect();
    await nats.close();
    await Promise.all([redisServer.stop(), natsServer.stop()]);
    await dispose();
  }
});
