import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { prometheusSamples } from '@gp-gateway/testing';
import { startInProcessGateway, type InProcessGateway } from '../../testing/inProcessGateway.ts';

/** The gateway's Prometheus metrics (docs/operations.md#metrics) as an operator's scraper sees them. */
const TOKEN = 'metrics-token-for-the-test-0123456789';
let gw: InProcessGateway;
let plain: InProcessGateway;

before(async () => {
  // No waiting for an in-flight slot: the second request on a full connection is refused at once.
  gw = await startInProcessGateway({ metrics: { port: 0, token: TOKEN }, limits: { inFlightWaitMs: 0, inFlightMaxWaiting: 0 } });
  plain = await startInProcessGateway();
});
after(async () => {
  await gw.close();
  await plain.close();
});

const as = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(gw.gateway.metricsUrl!);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
  return prometheusSamples(await res.text());
}

const requests = (route: string, method: string, statusClass: string, code: string) =>
  `gateway_http_requests_total{code=${code},method=${method},route=${route},status_class=${statusClass}}`;

describe('gateway metrics', () => {
  test('request counters equal the requests made, by route template, status class and error code; refusals and latency too', async () => {
    const org = await gw.admin.createOrganisation('Metered');
    // A day-long window: no refill during the test, so exactly 8 requests pass the quota.
    await gw.admin.setLimits(org.id, { requestsPerWindow: 8, windowSeconds: 86_400, maxInFlightPerConnection: 1 });
    const { secret } = await gw.makeKey(org.id, 'test', ['read']);
    const statuses: number[] = [];
    const get = async (path: string, headers: Record<string, string> = as(secret)) => statuses.push((await gw.get(path, headers)).status);
    for (let i = 0; i < 3; i++) await get('/v1/customers?limit=1');
    await get('/v1/customers/NO-SUCH-CUSTOMER');
    await get('/v1/customers/ANOTHER-MISSING-ONE');
    await get('/v1/customers?limit=0');
    await get('/v1/customers', {});
    await get('/nowhere/at/all', {});
    // The in-flight cap of 1: a second request while the first is held is refused at once.
    const hold = gw.holdAgentAnswers();
    const first = gw.get('/v1/customers?limit=1', as(secret));
    await waitFor(async () => (await scrape()).get('gateway_http_requests_in_flight{}') === 1);
    await get('/v1/customers?limit=2');
    hold.release();
    statuses.push((await first).status);
    // The quota of 8 is spent: the next is refused by the rate limit.
    await get('/v1/customers?limit=1');
    assert.deepEqual(statuses, [200, 200, 200, 404, 404, 400, 401, 404, 429, 200, 429]);

    const m = await scrape();
    assert.equal(m.get(requests('/v1/:object', 'GET', '2xx', '')), 4);
    assert.equal(
      m.get(requests('/v1/:object/:id', 'GET', '4xx', 'NOT_FOUND')),
      2,
      'record ids are not labels: both 404s count under the template',
    );
    assert.equal(m.get(requests('/v1/:object', 'GET', '4xx', 'VALIDATION_ERROR')), 1);
    assert.equal(m.get(requests('/v1/:object', 'GET', '4xx', 'UNAUTHORIZED')), 1);
    assert.equal(m.get(requests('unmatched', 'GET', '4xx', 'NOT_FOUND')), 1);
    assert.equal(m.get(requests('/v1/:object', 'GET', '4xx', 'RATE_LIMITED')), 2);
    assert.equal(m.get('gateway_limit_refusals_total{limit=in_flight}'), 1);
    assert.equal(m.get('gateway_limit_refusals_total{limit=rate}'), 1);
    assert.equal(m.get('gateway_http_requests_in_flight{}'), 0, 'every request answered (the metrics port is not the API)');
    assert.equal(m.get('gateway_http_request_duration_seconds_count{method=GET,route=/v1/:object,status_class=2xx}'), 4);
    assert.equal(m.get('gateway_http_request_duration_seconds_count{method=GET,route=/v1/:object/:id,status_class=4xx}'), 2);
    for (const name of m.keys()) assert.doesNotMatch(name, /NO-SUCH|ANOTHER-MISSING|org_|nowhere/, `no id or path in ${name}`);
    assert.equal(m.get('gateway_store_breaker_open{}'), 0);
    assert.ok(m.has('process_cpu_seconds_total{}'), "Node's process metrics are there too");
  });

  test('on the public port /metrics needs METRICS_TOKEN as a bearer token, and is not served at all without one', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token-of-some-length' }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const refused = await fetch(`${gw.gateway.url}/metrics`, { headers });
      assert.equal(refused.status, 401);
      const body = (await refused.json()) as { error: { code: string; requestId: string } };
      assert.equal(body.error.code, 'UNAUTHORIZED');
      assert.ok(body.error.requestId);
    }
    const allowed = await fetch(`${gw.gateway.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(allowed.status, 200);
    assert.match(await allowed.text(), /^gateway_http_requests_total\{/m);
    const none = await fetch(`${plain.gateway.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(none.status, 404, 'a gateway without metrics serves no /metrics');
    assert.equal(plain.gateway.metricsUrl, null);
  });

  test('the metrics port listens on loopback and serves only /metrics', async () => {
    assert.match(gw.gateway.metricsUrl!, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const other = await fetch(gw.gateway.metricsUrl!.replace('/metrics', '/v1/customers'));
    assert.equal(other.status, 404);
  });
});

/** Resolves once `probe` holds, asking again after each answer (the scrape is the event). */
async function waitFor(probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await probe())) if (Date.now() > deadline) throw new Error('timed out');
}
