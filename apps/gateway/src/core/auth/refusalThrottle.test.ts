import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { RefusalThrottle } from './refusalThrottle.ts';

function logged() {
  const lines: any[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

test('an address may be refused 30 times in a burst, then waits (429) until its bucket refills; others are not affected', async () => {
  let now = 0;
  const { log } = logged();
  const throttle = new RefusalThrottle({ what: 'API requests', log, clock: () => now, limit: 30, windowSeconds: 10 });
  for (let i = 0; i < 30; i++) assert.equal(await throttle.refused('10.0.0.1', 'invalid key'), 0);
  assert.equal(await throttle.refused('10.0.0.1', 'invalid key'), 1, '3 refusals a second refill: one in a third of a second, rounded up');
  assert.equal(await throttle.refused('10.0.0.2', 'no key'), 0, 'another address has its own bucket');
  now += 1000;
  assert.equal(await throttle.refused('10.0.0.1', 'invalid key'), 0, 'refilled');
  throttle.stop();
});

test('the first refusal of an address is logged at once, the rest as one line per address per period', async () => {
  const { log, lines } = logged();
  const throttle = new RefusalThrottle({ what: 'agent upgrades', log, logEveryMs: 60_000 });
  for (let i = 0; i < 3000; i++) await throttle.refused('10.0.0.9', i % 2 ? 'unknown agent token' : 'no agent token');
  await throttle.refused('10.0.0.8', 'no agent token');
  assert.deepEqual(
    lines.map((l) => [l.msg, l.remote]),
    [
      ['agent upgrades refused', '10.0.0.9'],
      ['agent upgrades refused', '10.0.0.8'],
    ],
  );
  throttle.summarise();
  assert.equal(lines.length, 3, 'one summary line: the address refused once is not repeated');
  assert.deepEqual(
    [lines[2].msg, lines[2].remote, lines[2].refused, lines[2].throttled, lines[2].reasons],
    ['agent upgrades refused repeatedly', '10.0.0.9', 3000, 2970, ['no agent token', 'unknown agent token']],
  );
  throttle.summarise();
  assert.equal(lines.length, 3, 'nothing new, nothing logged');
  throttle.stop();
});

test('the buckets may live in a shared limiter: each kind of refusal under its own name, the log still here', async () => {
  const taken: string[] = [];
  const shared = {
    async take(bucket: string) {
      taken.push(bucket);
      const spent = taken.filter((b) => b === bucket).length;
      return { allowed: spent <= 2, remaining: 0, resetSeconds: 7, retryAfterSeconds: spent <= 2 ? 0 : 7 };
    },
    async refund() {
      assert.fail('refusals are never given back');
    },
  };
  const { log, lines } = logged();
  const throttle = new RefusalThrottle({ what: 'agent upgrades', log, limiter: shared, bucket: 'agent', limit: 2 });
  assert.deepEqual(
    [
      await throttle.refused('10.0.0.1', 'no agent token'),
      await throttle.refused('10.0.0.1', 'no agent token'),
      await throttle.refused('10.0.0.1', 'no agent token'),
    ],
    [0, 0, 7],
  );
  assert.deepEqual(new Set(taken), new Set(['refusals:agent:10.0.0.1']));
  throttle.summarise();
  assert.deepEqual(
    lines.map((l) => [l.msg, l.refused, l.throttled]),
    [
      ['agent upgrades refused', undefined, undefined],
      ['agent upgrades refused repeatedly', 3, 1],
    ],
  );
  throttle.stop();
});
