import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ALL_TRACKED } from '@gp-gateway/agent';
import { runDemoCli, runGatewayCli, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * The sandbox's change feed as a developer tries it: `gp-gateway start`, `gp-demo churn` on the
 * demo folder it serves, and the events read with test keys on /v1/events: exactly one per change
 * churn announces, the same for every organisation's test key (the demo is every sandbox).
 */
let root: string;
let dataDir: string;
let gateway: Started & { url: string; testKey: string };

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-sandbox-feed-'));
  dataDir = path.join(root, 'data');
  gateway = await startGatewayProcess(dataDir, { LOG_LEVEL: 'info', SANDBOX_CHANGES_INTERVAL_MS: '200' });
});

after(async () => {
  await gateway?.stop('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every event of the key's feed since `cursor`, following nextCursor until a page is empty. */
async function follow(key: string, cursor: string | null): Promise<{ events: any[]; cursor: string | null }> {
  const events: any[] = [];
  for (;;) {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${gateway.url}/v1/events?${query}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200, await res.clone().text());
    const page = (await res.json()) as { data: any[]; nextCursor: string };
    cursor = page.nextCursor;
    if (!page.data.length) return { events, cursor };
    events.push(...page.data);
  }
}

/** How many changes of TWO the sandbox agent has reported so far, from the gateway's log. */
const reported = () =>
  [...gateway.output().matchAll(/"company":"TWO","changes":(\d+)[^\n]*"msg":"changes reported"/g)].reduce((n, m) => n + Number(m[1]), 0);

/** Runs `gp-demo churn` on the sandbox's demo folder; the events it announces (`customer.created CHURN000001`). */
async function churn(count: number, seed: number): Promise<string[]> {
  const run = await runDemoCli([
    'churn',
    '--dir',
    path.join(dataDir, 'demo'),
    '--count',
    String(count),
    '--every',
    '0',
    '--seed',
    String(seed),
  ]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.pop(), `${count} changes in TWO`);
  return lines.flatMap((line) => line.slice(line.lastIndexOf(': ') + 2).split(', '));
}

test('gp-demo churn on the sandbox makes exactly one event per change, read with any test key', async () => {
  await waitFor(
    'the sandbox agent to learn the demo company TWO',
    () => {
      const learnt = gateway.output().match(/"company":"TWO"[^\n]*change detection learnt the table/g)?.length ?? 0;
      return learnt >= ALL_TRACKED.length ? true : null;
    },
    120_000,
  );
  const start = await follow(gateway.testKey, null);
  assert.deepEqual(start.events, [], 'learning the demo is no change');

  // One change at a time, each reported before the next: a customer churn creates and then deletes
  // between two polls is rightly no event at all, though churn announces both. Every change is
  // reported only after the ones before it, so an event repeated by a later poll would be in the feed
  // by the end.
  const expected: string[] = [];
  for (let seed = 0; seed < 14; seed++) {
    expected.push(...(await churn(1, 80 + seed)));
    // On a timeout, the comparison below says which events are missing.
    await waitFor(`change ${seed + 1} reported`, () => (reported() >= expected.length ? true : null), 60_000).catch(() => {});
  }

  const kinds = new Set(expected.map((event) => event.split(' ')[0]));
  assert.ok(kinds.size >= 5, `a mix of changes: ${[...kinds].join(', ')}`);
  const { events } = await follow(gateway.testKey, start.cursor);
  assert.deepEqual(events.map((e) => `${e.type} ${e.recordId}`).sort(), [...expected].sort());
  assert.ok(events.every((e) => e.connectionId === 'sandbox' && e.company === 'TWO'));
  const created = events.find((e) => e.type === 'customer.created');
  if (created) {
    // The record is what the test key's GET answers.
    const res = await fetch(`${gateway.url}/v1/customers/${encodeURIComponent(created.recordId)}`, {
      headers: { authorization: `Bearer ${gateway.testKey}`, 'x-company': 'TWO' },
    });
    assert.deepEqual(created.data, ((await res.json()) as { data: unknown }).data);
  }

  // Another organisation's test key reads the same events, by position and by id.
  const env = { DATA_DIR: dataDir };
  assert.equal((await runGatewayCli(['org', 'create', 'Other Co'], env)).code, 0);
  const issued = await runGatewayCli(['key', 'create', '--org', 'Other Co', '--name', 'other test', '--mode', 'test'], env);
  const otherKey = /lb_test_[0-9A-Za-z]{32}/.exec(issued.stdout)?.[0];
  assert.ok(otherKey, issued.stdout + issued.stderr);
  const other = await follow(otherKey, null);
  assert.deepEqual(
    other.events.map((e) => e.id),
    events.map((e) => e.id),
  );
  // A live key of the same organisation reads its live connections' feed: none of the sandbox's.
  const live = await runGatewayCli(['key', 'create', '--org', 'Other Co', '--name', 'other live', '--mode', 'live'], env);
  const liveKey = /lb_live_[0-9A-Za-z]{32}/.exec(live.stdout)?.[0];
  assert.ok(liveKey, live.stdout + live.stderr);
  assert.deepEqual((await follow(liveKey, null)).events, []);
  const one = await fetch(`${gateway.url}/v1/events/${events[0].id}`, { headers: { authorization: `Bearer ${otherKey}` } });
  assert.equal(one.status, 200);
  assert.deepEqual(((await one.json()) as { data: unknown }).data, events[0]);
});
