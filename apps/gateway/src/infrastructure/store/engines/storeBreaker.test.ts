import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreUnavailableError } from '../../../errors/apiError.ts';
import { isConnectionFailure, StoreBreaker } from './storeBreaker.ts';
import { setTimeout as sleep } from 'node:timers/promises';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('connection failures are told from statements PostgreSQL refused', () => {
  for (const error of [
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is starting up', '57P03'),
    withCode('connection failure', '08006'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
  ])
    assert.equal(isConnectionFailure(error), true, error.message);
  for (const error of [
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('canceling statement due to statement timeout', '57014'),
    withCode('deadlock detected', '40P01'),
    new Error('something else'),
  ])
    assert.equal(isConnectionFailure(error), false, error.message);
});

test('a connection failure opens the breaker: calls fail at once until a background probe succeeds', async () => {
  let up = false;
  let probes = 0;
  const breaker = new StoreBreaker(
    async () => {
      probes++;
      if (!up) throw withCode('connect ECONNREFUSED', 'ECONNREFUSED');
    },
    { probeEveryMs: 50 },
  );
  try {
    await assert.rejects(
      breaker.guard(() => Promise.reject(withCode('duplicate key', '23505'))),
      (e: Error) => !(e instanceof StoreUnavailableError),
      'a refused statement is passed on as it is',
    );
    assert.equal(breaker.open, false);
    await assert.rejects(
      breaker.guard(() => Promise.reject(withCode('connect ECONNREFUSED', 'ECONNREFUSED'))),
      StoreUnavailableError,
    );
    assert.equal(breaker.open, true);
    let ran = false;
    await assert.rejects(
      breaker.guard(async () => {
        ran = true;
      }),
      (e: StoreUnavailableError) => e.status === 503 && e.code === 'SERVICE_UNAVAILABLE' && e.retryAfterSeconds! >= 1,
    );
    assert.equal(ran, false, 'nothing is tried while the store is known down');
    await sleep(200);
    assert.ok(probes >= 2, `${probes} probes`);
    assert.equal(breaker.open, true);
    up = true;
    await sleep(150);
    assert.equal(breaker.open, false);
    assert.equal(await breaker.guard(async () => 'served'), 'served');
  } finally {
    breaker.stop();
  }
});

test('a readiness check without an answer opens the breaker too: a frozen server fails no connection, it just never answers', async () => {
  let frozen = false;
  const breaker = new StoreBreaker(() => (frozen ? new Promise(() => {}) : Promise.resolve()), { probeEveryMs: 50, probeTimeoutMs: 50 });
  try {
    await breaker.check(100);
    assert.equal(breaker.open, false);
    frozen = true;
    const started = Date.now();
    await assert.rejects(breaker.check(100), StoreUnavailableError);
    assert.ok(Date.now() - started < 500, `the check took ${Date.now() - started} ms`);
    assert.equal(breaker.open, true);
    await assert.rejects(
      breaker.guard(async () => 'never run'),
      StoreUnavailableError,
    );
    await sleep(300);
    assert.equal(breaker.open, true, 'background probes without an answer keep it open');
    frozen = false;
    await sleep(300);
    assert.equal(breaker.open, false, 'the first probe answered closes it');
  } finally {
    breaker.stop();
  }
});
