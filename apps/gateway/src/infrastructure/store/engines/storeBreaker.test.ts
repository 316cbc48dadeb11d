import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreUnavailableError } from '../../../errors/apiError.ts';
import { isConnectionFailure, StoreBreaker } from './storeBreaker.ts';
import { EventEmitter, once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import { within } from '../../cluster/within.ts';

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

/** The breaker's next background probe (its timer does not keep the process alive; this wait does, for 5 s). */
function nextProbe(probes: EventEmitter): Promise<unknown> {
  return within(once(probes, 'probe'), 5_000, "the breaker's probe");
}

/** Resolves once the breaker's next background probe has run and the breaker has taken its answer. */
async function probeAnswered(probes: EventEmitter): Promise<void> {
  await nextProbe(probes);
  // The probe's answer settles in the microtasks after it returns; a turn of the event loop lets the breaker see it.
  await setImmediate();
}

test('a connection failure opens the breaker: calls fail at once until a background probe succeeds', async () => {
  let up = false;
  const probes = new EventEmitter();
  const breaker = new StoreBreaker(
    async () => {
      probes.emit('probe');
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
    await probeAnswered(probes);
    await probeAnswered(probes);
    assert.equal(breaker.open, true, 'failed probes keep it open');
    up = true;
    await probeAnswered(probes);
    assert.equal(breaker.open, false, 'the first probe that succeeds closes it');
    assert.equal(await breaker.guard(async () => 'served'), 'served');
  } finally {
    breaker.stop();
  }
});

test('a readiness check without an answer opens the breaker too: a frozen server fails no connection, it just never answers', async () => {
  let frozen = false;
  const probes = new EventEmitter();
  const breaker = new StoreBreaker(
    () => {
      probes.emit('probe');
      return frozen ? new Promise(() => {}) : Promise.resolve();
    },
    { probeEveryMs: 50, probeTimeoutMs: 50 },
  );
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
    // A probe without an answer is given up on after probeTimeoutMs, before the next one starts.
    await nextProbe(probes);
    await nextProbe(probes);
    assert.equal(breaker.open, true, 'background probes without an answer keep it open');
    frozen = false;
    await probeAnswered(probes);
    assert.equal(breaker.open, false, 'the first probe answered closes it');
  } finally {
    breaker.stop();
  }
});
