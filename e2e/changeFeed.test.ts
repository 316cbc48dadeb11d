import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { generateDemo } from '@gp-gateway/gp-demo';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * The change feed as it will be checked: a gateway process, two agent processes on one connection
 * over the embedded GP database, changes made in that database as GP makes them (a row committed
 * late, stamped before the agents' last poll, among them), and a client following /v1/events with
 * its cursor: exactly one event per change.
 */
let root: string;
let site: string;
let gateway: Started & { url: string };
let liveKey: string;
let restartConnection: { id: string; token: string };
const agents: Started[] = [];
const AGENT_ENV = {
  GP_AGENT_BACKOFF_MIN_MS: '50',
  GP_AGENT_BACKOFF_MAX_MS: '300',
  GP_SQLITE_WORKERS: '1',
  LOG_LEVEL: 'info',
  GP_AGENT_CHANGES_INTERVAL_MS: '200',
  GP_AGENT_CHANGES_BUDGET_MS: '10000',
};

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-feed-'));
  const dataDir = path.join(root, 'gateway');
  site = path.join(root, 'site');
  generateDemo({ dir: site, scale: 1, seed: 3 });
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Feed Co',
    limits: { requestsPerWindow: 100_000, windowSeconds: 1 },
    connections: ['hq', 'restart'],
  });
  liveKey = customer.liveKey;
  restartConnection = customer.connections.restart!;
  gateway = await startGatewayProcess(dataDir, { LOG_LEVEL: 'info' });
  for (let i = 0; i < 2; i++) agents.push(startAgentProcess(gateway.url, customer.connections.hq!.token, site, AGENT_ENV));
});

after(async () => {
  for (const agent of agents) await agent.stop('SIGKILL');
  await gateway?.stop('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every event since `cursor`, following nextCursor until a page is empty. */
async function follow(cursor: string | null, connectionId?: string): Promise<{ events: any[]; cursor: string | null }> {
  const events: any[] = [];
  for (;;) {
    const query = new URLSearchParams({
      type: 'customer.*',
      limit: '100',
      ...(connectionId ? { connectionId } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const res = await fetch(`${gateway.url}/v1/events?${query}`, { headers: { authorization: `Bearer ${liveKey}` } });
    assert.equal(res.status, 200);
    const page = (await res.json()) as { data: any[]; nextCursor: string };
    cursor = page.nextCursor;
    if (!page.data.length) return { events, cursor };
    events.push(...page.data);
  }
}

/** The customers each agent has reported so far, from its log. */
function reported(agent: Started): number {
  return [...agent.output().matchAll(/"object":"customers","company":"TWO","changes":(\d+)[^\n]*changes reported/g)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

test('changes made in GP while a client follows the feed arrive as exactly one event each, from two agents of one connection', async () => {
  await waitFor('both agents to learn the customers table', () =>
    agents.every((a) => /"object":"customers","company":"TWO"[^\n]*change detection learnt the table/.test(a.output())) ? true : null,
  );
  const start = await follow(null);
  assert.deepEqual(start.events, [], 'learning the table is no change');

  const gp = new Database(path.join(site, 'TWO.sqlite'));
  try {
    const newest = gp.prepare('SELECT max(DEX_ROW_TS) FROM RM00101').pluck().get() as string;
    const [first, second, third] = gp.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT 3').pluck().all() as string[];
    gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, ?)').run('FEED0001', 'Feed Customer');
    gp.prepare("UPDATE RM00101 SET CUSTNAME = 'Renamed by GP' WHERE rtrim(CUSTNMBR) = ?").run(first);
    gp.prepare('DELETE FROM RM00101 WHERE rtrim(CUSTNMBR) = ?').run(second);
    // Committed late: GP stamped it a minute before the newest row the agents have already seen.
    const stamped = new Date(Date.parse(`${newest.replace(' ', 'T')}Z`) - 60_000).toISOString().replace('T', ' ').replace('Z', '');
    gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME, DEX_ROW_TS) VALUES (?, ?, ?)').run('LATE0001', 'Late Customer', stamped);

    await waitFor('both agents to report the four changes', () => (agents.every((a) => reported(a) >= 4) ? true : null));
    const { events } = await follow(start.cursor);
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.recordId}`).sort(),
      ['customer.created FEED0001', 'customer.created LATE0001', `customer.deleted ${second}`, `customer.updated ${first}`].sort(),
    );
    assert.equal(events.find((e) => e.recordId === first).data.name, 'Renamed by GP');
    assert.ok(!events.some((e) => e.recordId === third));
  } finally {
    gp.close();
  }
});

test('an agent killed mid-stream and started again goes on from its state file: no event repeated, none lost', async () => {
  const stateDir = path.join(root, 'agent-state');
  const env = { ...AGENT_ENV, GP_AGENT_STATE_DIR: stateDir };
  const learnt = /"object":"customers","company":"TWO"[^\n]*change detection learnt the table/;
  let agent = startAgentProcess(gateway.url, restartConnection.token, site, env);
  const restarted: Started[] = [agent];
  const gp = new Database(path.join(site, 'TWO.sqlite'));
  try {
    await waitFor('the agent to learn the customers table', () => (learnt.test(agent.output()) ? true : null));
    const start = await follow(null, restartConnection.id);
    const ids = gp.prepare('SELECT rtrim(CUSTNMBR) FROM RM00101 ORDER BY CUSTNMBR LIMIT 3 OFFSET 100').pluck().all() as string[];
    const [before, whileDown, deleted] = ids as [string, string, string];
    gp.prepare("UPDATE RM00101 SET CUSTNAME = 'Before the kill' WHERE rtrim(CUSTNMBR) = ?").run(before);
    await waitFor('the change before the kill', async () =>
      (await follow(start.cursor, restartConnection.id)).events.length ? true : null,
    );

    // Killed (no drain), then changes while it is down.
    await agent.stop('SIGKILL');
    gp.prepare('INSERT INTO RM00101 (CUSTNMBR, CUSTNAME) VALUES (?, ?)').run('DOWN0001', 'Made while the agent was down');
    gp.prepare("UPDATE RM00101 SET CUSTNAME = 'While down' WHERE rtrim(CUSTNMBR) = ?").run(whileDown);
    gp.prepare('DELETE FROM RM00101 WHERE rtrim(CUSTNMBR) = ?').run(deleted);

    agent = startAgentProcess(gateway.url, restartConnection.token, site, env);
    restarted.push(agent);
    await waitFor('the restarted agent to report what changed while it was down', async () =>
      (await follow(start.cursor, restartConnection.id)).events.length >= 4 ? true : null,
    );
    assert.ok(!learnt.test(agent.output()), 'the restarted agent did not learn the table again: it went on from its state');
    gp.prepare("UPDATE RM00101 SET CUSTNAME = 'After the restart' WHERE rtrim(CUSTNMBR) = ?").run(before);
    await waitFor('the change after the restart', async () =>
      (await follow(start.cursor, restartConnection.id)).events.length >= 5 ? true : null,
    );
    const { events } = await follow(start.cursor, restartConnection.id);
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.recordId}`).sort(),
      [
        `customer.updated ${before}`,
        'customer.created DOWN0001',
        `customer.updated ${whileDown}`,
        `customer.deleted ${deleted}`,
        `customer.updated ${before}`,
      ].sort(),
    );
  } finally {
    gp.close();
    for (const a of restarted) await a.stop('SIGKILL');
  }
});
