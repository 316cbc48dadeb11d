import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiKeySecret } from '../../core/auth/secrets.ts';
import { slotKey } from '../../core/agents/inFlightLimitedRouter.ts';
import { SANDBOX_AGENT_KEY } from '../../core/routing/connectionRouting.ts';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';

/** Rate limits (docs/api.md#rate-limits) as a client sees them: quota headers, 429 with Retry-After, the in-flight cap. */
let gw: InProcessGateway;
const IN_FLIGHT_WAIT_MS = 300;

before(async () => {
  gw = await startInProcessGateway({ limits: { inFlightWaitMs: IN_FLIGHT_WAIT_MS } });
});
after(() => gw.close());

const as = (secret: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, ...extra });
const QUOTA_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit', 'retry-after'];
const quota = (headers: Headers) => Object.fromEntries(QUOTA_HEADERS.flatMap((h) => (headers.has(h) ? [[h, headers.get(h)]] : [])));

/** Resolves when `probe` holds; checked after every turn of the event loop, for state that has no event. */
async function until(what: string, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe('quota headers', () => {
  test('a key of an organisation without limits of its own gets the defaults: 100 per 10 s', async () => {
    const org = await gw.admin.createOrganisation('Defaults');
    const { secret } = await gw.makeKey(org.id, 'test', ['read']);
    const res = await gw.get('/v1/companies', as(secret));
    assert.equal(res.status, 200);
    assert.deepEqual(quota(res.headers), {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '99',
      'x-ratelimit-reset': '1',
      'ratelimit-policy': '"default";q=100;w=10',
      ratelimit: '"default";r=99;t=1',
    });
  });

  test('every authenticated /v1 response carries them, errors included, counting down', async () => {
    const org = await gw.admin.createOrganisation('Counted');
    // A day-long window: refill during the test is negligible, so every number is exact.
    await gw.admin.setLimits(org.id, { requestsPerWindow: 10, windowSeconds: 86_400 });
    const { secret } = await gw.makeKey(org.id, 'test', ['read']);
    const { secret: writeOnly } = await gw.makeKey(org.id, 'test', ['write']);
    const answers = [
      await gw.get('/v1/customers?limit=1', as(secret)),
      await gw.get('/v1/customers?limit=0', as(secret)),
      await gw.get('/v1/widgets', as(secret)),
      await gw.get('/v1/customers', as(secret, { 'x-connection-id': 'conn_elsewhere' })),
      await gw.get('/v1/customers/NO-SUCH-CUSTOMER', as(secret)),
      await gw.get('/v1/nowhere/at/all', as(secret)),
    ];
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 400, 404, 400, 404, 404],
    );
    answers.forEach((res, i) => {
      const remaining = 10 - (i + 1);
      const reset = String(Math.ceil(((i + 1) * 86_400) / 10));
      assert.deepEqual(
        quota(res.headers),
        {
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': reset,
          'ratelimit-policy': '"default";q=10;w=86400',
          ratelimit: `"default";r=${remaining};t=${reset}`,
        },
        `response ${i + 1}`,
      );
    });
    const forbidden = await gw.get('/v1/customers', as(writeOnly));
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.headers.get('x-ratelimit-remaining'), '9', 'a 403 spends from its own key');
  });

  test('401s carry no quota headers: there is no key to describe, and revoked must look like unknown', async () => {
    const org = await gw.admin.createOrganisation('Unauthenticated');
    const revoked = await gw.makeKey(org.id, 'test', ['read']);
    await gw.admin.revokeApiKey(revoked.key.id);
    const answers = await Promise.all([
      gw.get('/v1/customers'),
      gw.get('/v1/customers', { authorization: 'Bearer lb_test_short' }),
      gw.get('/v1/customers', as(newApiKeySecret('test'))),
      gw.get('/v1/customers', as(revoked.secret)),
    ]);
    for (const res of answers) {
      assert.equal(res.status, 401);
      assert.deepEqual(quota(res.headers), {});
    }
  });
});

describe('429 RATE_LIMITED', () => {
  test('an empty bucket answers 429 with Retry-After; the next token comes one refill interval after the burst', async (t) => {
    const org = await gw.admin.createOrganisation('Throttled');
    await gw.admin.setLimits(org.id, { requestsPerWindow: 2, windowSeconds: 1 }); // a token per 500 ms
    const { secret } = await gw.makeKey(org.id, 'test', ['read']);
    const burstStarted = performance.now();
    const first = await gw.get('/v1/companies', as(secret));
    const second = await gw.get('/v1/companies', as(secret));
    const refused = await gw.get('/v1/companies', as(secret));
    const refusedAt = performance.now();
    assert.deepEqual([first.status, second.status, refused.status], [200, 200, 429]);
    assert.deepEqual(refused.body, {
      error: {
        code: 'RATE_LIMITED',
        message: 'Too many requests with this API key: at most 2 per 1 seconds. Retry after 1 s.',
        requestId: refused.headers.get('x-request-id'),
        details: null,
      },
    });
    assert.deepEqual(quota(refused.headers), {
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1',
      'ratelimit-policy': '"default";q=2;w=1',
      ratelimit: '"default";r=0;t=1',
      'retry-after': '1',
    });
    // Refused requests spend nothing, so asking again and again does not push the next token back.
    let answer = refused;
    while (answer.status === 429) answer = await gw.get('/v1/companies', as(secret));
    const admitted = performance.now();
    assert.equal(answer.status, 200);
    const sinceBurst = admitted - burstStarted;
    const sinceRefusal = admitted - refusedAt;
    t.diagnostic(`first token back ${Math.round(sinceBurst)} ms after the burst began, ${Math.round(sinceRefusal)} ms after the 429`);
    assert.ok(sinceBurst >= 495, `a token came back after ${sinceBurst} ms, before the 500 ms refill interval`);
    assert.ok(sinceRefusal <= 1000, `Retry-After said 1 s, but the key waited ${sinceRefusal} ms`);
  });

  test('rotating a key does not refill its bucket', async () => {
    const org = await gw.admin.createOrganisation('No reset by rotation');
    await gw.admin.setLimits(org.id, { requestsPerWindow: 2, windowSeconds: 86_400 });
    const { secret, key } = await gw.makeKey(org.id, 'test', ['read', 'write']);
    assert.equal((await gw.get('/v1/companies', as(secret))).status, 200);
    const rotated = await fetch(`${gw.gateway.url}/v1/api-keys/${key.id}/rotate`, { method: 'POST', headers: as(secret) });
    assert.equal(rotated.status, 200);
    const { secret: next } = (await rotated.json()) as { secret: string };
    const res = await gw.get('/v1/companies', as(next));
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '43200');
  });
});

describe('in flight per connection', () => {
  test('beyond the cap requests wait for a slot; one organisation filling its sandbox does not hold up another', async () => {
    const a = await gw.admin.createOrganisation('Busy');
    const b = await gw.admin.createOrganisation('Neighbour');
    await gw.admin.setLimits(a.id, { maxInFlightPerConnection: 2 });
    const keyA = (await gw.makeKey(a.id, 'test', ['read'])).secret;
    const keyB = (await gw.makeKey(b.id, 'test', ['read'])).secret;
    const slotsA = slotKey(a.id, SANDBOX_AGENT_KEY);
    const slotsB = slotKey(b.id, SANDBOX_AGENT_KEY);

    const hold = gw.holdAgentAnswers();
    const running = [gw.get('/v1/companies', as(keyA)), gw.get('/v1/companies', as(keyA))];
    await until('two requests of A are in flight', () => gw.gateway.inFlight.active(slotsA) === 2);
    const queued = gw.get('/v1/companies', as(keyA));
    await until('the third request of A waits', () => gw.gateway.inFlight.waiting(slotsA) === 1);
    const neighbour = gw.get('/v1/companies', as(keyB));
    await until('B is in flight', () => gw.gateway.inFlight.active(slotsB) === 1);
    assert.equal(gw.gateway.inFlight.waiting(slotsB), 0, 'B did not queue behind A');
    hold.release();
    const answers = await Promise.all([...running, queued, neighbour]);
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 200],
    );
    assert.deepEqual([gw.gateway.inFlight.active(slotsA), gw.gateway.inFlight.waiting(slotsA)], [0, 0]);
  });

  test('a request that finds no slot within the wait gets 429 RATE_LIMITED with Retry-After and quota headers', async (t) => {
    const org = await gw.admin.createOrganisation('Saturated');
    await gw.admin.setLimits(org.id, { maxInFlightPerConnection: 1 });
    const { secret } = await gw.makeKey(org.id, 'test', ['read']);
    const slots = slotKey(org.id, SANDBOX_AGENT_KEY);
    const hold = gw.holdAgentAnswers();
    const running = gw.get('/v1/companies', as(secret));
    await until('one request is in flight', () => gw.gateway.inFlight.active(slots) === 1);
    const sent = performance.now();
    const refused = await gw.get('/v1/companies', as(secret));
    const waited = performance.now() - sent;
    hold.release();
    assert.equal((await running).status, 200);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body.error, {
      code: 'RATE_LIMITED',
      message: 'This connection already has 1 request in flight, the most it takes at once. Retry shortly.',
      requestId: refused.headers.get('x-request-id'),
      details: null,
    });
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '98');
    t.diagnostic(`refused after waiting ${Math.round(waited)} ms for a slot`);
    assert.ok(waited >= IN_FLIGHT_WAIT_MS, `refused after ${waited} ms, before the ${IN_FLIGHT_WAIT_MS} ms wait`);
  });
});
