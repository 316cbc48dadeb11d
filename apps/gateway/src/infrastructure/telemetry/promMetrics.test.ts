import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { prometheusSamples } from '@gp-gateway/testing';
import { startWriteHarness, type WriteHarness } from '../../testing/writeHarness.ts';

/**
 * The gateway's agent and write metrics (docs/operations.md#metrics) after real agent sockets and
 * idempotent writes: handshakes accepted and refused by code, agents connected and their
 * disconnects by close code, Idempotency-Key replays and conflicts.
 */
let h: WriteHarness;
before(async () => {
  h = await startWriteHarness({ metrics: { port: 0 } });
});
after(() => h.close());

async function scrape(): Promise<Map<string, number>> {
  return prometheusSamples(await (await fetch(h.gateway.metricsUrl!)).text());
}

/** Resolves once `probe` holds of a scrape, scraping again after each answer. */
async function scrapeUntil(probe: (m: Map<string, number>) => boolean): Promise<Map<string, number>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const m = await scrape();
    if (probe(m)) return m;
    if (Date.now() > deadline) throw new Error('the metrics never said so');
  }
}

test('agent sockets: an unknown token refused (http_401), an agent accepted and counted, its cut-off link counted as 1006', async () => {
  const rogue = new WebSocket(`${h.gateway.url.replace(/^http/, 'ws')}/agent`, {
    headers: { authorization: `Bearer lb_agent_${'x'.repeat(32)}` },
  });
  const refused = await new Promise<number>((resolve) => rogue.once('unexpected-response', (_req, res) => resolve(res.statusCode!)));
  rogue.on('error', () => {}); // ws reports its own abort of the refused upgrade
  rogue.terminate();
  assert.equal(refused, 401);
  const agent = await h.agent('hq');
  let m = await scrape();
  assert.equal(m.get('gateway_agent_handshakes_total{code=http_401,outcome=refused}'), 1);
  assert.equal(m.get('gateway_agent_handshakes_total{code=,outcome=accepted}'), 1);
  assert.equal(m.get('gateway_agents_connected{}'), 1);
  agent.drop();
  m = await scrapeUntil((s) => s.get('gateway_agents_connected{}') === 0);
  assert.equal(m.get('gateway_agent_disconnects_total{code=1006}'), 1);
});

test('Idempotency-Key: a retry answered by a replay and a reuse with another body refused 409 are counted apart', async () => {
  await h.agent('hq');
  try {
    const key = `metrics-${Date.now()}`;
    const customer = { id: 'c900', name: 'Metered Ltd' };
    assert.equal((await h.post('/v1/customers', customer, { 'idempotency-key': key })).status, 201);
    const replay = await h.post('/v1/customers', customer, { 'idempotency-key': key });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const conflict = await h.post('/v1/customers', { ...customer, name: 'Another Ltd' }, { 'idempotency-key': key });
    assert.equal(conflict.status, 409);
    const m = await scrape();
    assert.equal(m.get('gateway_idempotency_total{outcome=replayed}'), 1);
    assert.equal(m.get('gateway_idempotency_total{outcome=conflict}'), 1);
    assert.equal(m.get('gateway_http_requests_total{code=IDEMPOTENCY_CONFLICT,method=POST,route=/v1/:object,status_class=4xx}'), 1);
  } finally {
    await h.dropAgents();
  }
});

test('the change feed: events stored by kind, and how long after GP changed the record; a change reported again counts nothing', async () => {
  const agent = await h.agent('hq');
  try {
    const tenSecondsAgo = new Date(Date.now() - 10_000).toISOString();
    const gone = (id: string) => ({ kind: 'deleted' as const, id, version: tenSecondsAgo, changedAt: tenSecondsAgo, record: null });
    assert.deepEqual(await agent.reportChanges('customers', 'TWO', [gone('METRIC1'), gone('METRIC2')]), { stored: 2 });
    assert.deepEqual(await agent.reportChanges('customers', 'TWO', [gone('METRIC1')]), { stored: 0 });
    const m = await scrape();
    assert.equal(m.get('gateway_events_stored_total{kind=deleted}'), 2);
    assert.equal(m.get('gateway_event_feed_lag_seconds_count{}'), 2);
    assert.equal(m.get('gateway_event_feed_lag_seconds_bucket{le=5}'), 0, 'recorded about 10 s after the change');
    assert.equal(m.get('gateway_event_feed_lag_seconds_bucket{le=15}'), 2);
  } finally {
    await h.dropAgents();
  }
});
