import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@gp-gateway/testing';
import Database from 'better-sqlite3';
import { DEMO_COMPANIES, generateDemo } from '@gp-gateway/gp-demo';
import { diagnose } from '../apps/agent/src/cli/commands/diagnose.ts';
import { newAgentToken } from '@gp-gateway/gateway';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { runAgentCli, runGatewayCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * The agent in the field, with real processes: agents killed, frozen and stopped mid-request, a
 * gateway frozen and restarted, two agents sharing one connection, a database that is not there,
 * and `gp-agent diagnose` against good and broken settings. Heartbeats, backoff and deadlines are
 * short here (environment below) so that every failure is detected in about a second.
 *
 * Slow queries use GP_AGENT_TEST_DELAY_MS: the agent's SQLite threads hold every list on a company
 * database that long before running it, and cancel the wait like a statement (see
 * db/sqliteWorker.ts). The slow request is a filtered list, since a short unfiltered page is read on
 * the agent's event loop, not a thread (ThreadedReadService.answersOnCallingThread). Statements on
 * DYNAMICS (companies) are not delayed, which the tests use to see whether an agent is free.
 */
const REQUEST_TIMEOUT_MS = 1500;
const HEARTBEAT = { intervalMs: 200, timeoutMs: 1000 };
const GATEWAY_ENV = {
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  AGENT_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT.intervalMs),
  AGENT_HEARTBEAT_TIMEOUT_MS: String(HEARTBEAT.timeoutMs),
  LOG_LEVEL: 'info',
};
const AGENT_ENV = {
  GP_AGENT_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT.intervalMs),
  GP_AGENT_HEARTBEAT_TIMEOUT_MS: String(HEARTBEAT.timeoutMs),
  GP_AGENT_BACKOFF_MIN_MS: '50',
  GP_AGENT_BACKOFF_MAX_MS: '300',
  GP_AGENT_CONNECT_TIMEOUT_MS: '2000',
  GP_AGENT_STATUS_INTERVAL_MS: '300',
  GP_SQLITE_WORKERS: '1',
  LOG_LEVEL: 'debug',
};

type Label = 'pairA' | 'pairB' | 'killed' | 'deadline' | 'drained' | 'frozen' | 'restart' | 'nodb';
/** Which connection each agent serves; pairA and pairB share one. */
const CONNECTION_OF: Record<Label, string> = {
  pairA: 'pair',
  pairB: 'pair',
  killed: 'killed',
  deadline: 'deadline',
  drained: 'drained',
  frozen: 'frozen',
  restart: 'restart',
  nodb: 'nodb',
};

let root: string;
let dataDir: string;
let baseSite: string;
let gateway: Started & { url: string; testKey: string };
let liveKey: string;
let orgId: string;
const connections: Record<string, { id: string; token: string }> = {};
const agents = {} as Record<Label, Started>;
const sites = {} as Record<Label, string>;
/** Measured numbers, printed at the end for the record. */
const measured: Record<string, number> = {};

function site(name: string, companyPrefix?: string): string {
  const dir = path.join(root, 'sites', name);
  fs.cpSync(baseSite, dir, { recursive: true });
  if (companyPrefix) {
    const db = new Database(path.join(dir, 'DYNAMICS.sqlite'));
    db.prepare("UPDATE SY01500 SET CMPNYNAM = ? || ' ' || rtrim(CMPNYNAM)").run(companyPrefix);
    db.close();
  }
  return dir;
}

function startAgent(label: Label, env: NodeJS.ProcessEnv = {}): Started {
  const agent = startAgentProcess(gateway.url, connections[CONNECTION_OF[label]]!.token, sites[label], { ...AGENT_ENV, ...env });
  agents[label] = agent;
  return agent;
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-lifecycle-'));
  dataDir = path.join(root, 'gateway');
  baseSite = path.join(root, 'sites', 'base');
  generateDemo({ dir: baseSite, scale: 1, seed: 11 });
  // Tests poll; the default quota (100 per 10 s) is for clients, not for this.
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Field Co',
    limits: { requestsPerWindow: 100_000, windowSeconds: 1 },
    connections: [...new Set(Object.values(CONNECTION_OF))],
  });
  orgId = customer.orgId;
  liveKey = customer.liveKey;
  Object.assign(connections, customer.connections);
  for (const label of Object.keys(CONNECTION_OF) as Label[]) {
    if (label === 'nodb') {
      // An empty folder: the agent starts, but there is no GP database to read.
      sites.nodb = path.join(root, 'sites', 'nodb');
      fs.mkdirSync(sites.nodb, { recursive: true });
    } else {
      sites[label] = site(label, label === 'pairA' ? 'Site A' : label === 'pairB' ? 'Site B' : undefined);
    }
  }
  gateway = await startGatewayProcess(dataDir, GATEWAY_ENV);
  startAgent('pairA', { GP_AGENT_TEST_DELAY_MS: '3000' });
  startAgent('pairB');
  startAgent('killed', { GP_AGENT_TEST_DELAY_MS: '5000' });
  startAgent('deadline', { GP_AGENT_TEST_DELAY_MS: '5000' });
  startAgent('drained', { GP_AGENT_TEST_DELAY_MS: '1000', GP_AGENT_DRAIN_GRACE_MS: '5000' });
  startAgent('frozen');
  startAgent('restart');
  startAgent('nodb');
  await Promise.all(
    (['pairA', 'pairB', 'killed', 'deadline', 'drained', 'frozen', 'restart'] as const).map((label) =>
      waitFor(`agent ${label} to serve`, async () => ((await get(label, '/v1/companies')).status === 200 ? true : null)),
    ),
  );
  // pairA and pairB share a connection, whose reads answer as soon as either agent is in: wait for
  // the gateway to have accepted both, or the first test may find only one of them.
  const pair = new RegExp(`"connectionId":"${connections[CONNECTION_OF.pairA]!.id}"[^\n]*"msg":"agent connected"`, 'g');
  await waitFor('both agents of the pair to connect', () => ((gateway.output().match(pair)?.length ?? 0) >= 2 ? true : null));
});

after(async () => {
  for (const agent of Object.values(agents)) {
    agent.child.kill('SIGCONT');
    await agent.stop('SIGKILL');
  }
  gateway?.child.kill('SIGCONT');
  await gateway?.stop('SIGKILL');
  console.log(`measured: ${JSON.stringify(measured)}`);
  fs.rmSync(root, { recursive: true, force: true });
});

async function get(label: Label | string, pathAndQuery: string) {
  const connection = connections[CONNECTION_OF[label as Label] ?? label]!;
  const started = Date.now();
  const res = await fetch(`${gateway.url}${pathAndQuery}`, {
    headers: { authorization: `Bearer ${liveKey}`, 'x-connection-id': connection.id },
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers, ms: Date.now() - started };
}

/** Resolves when the process has printed a line matching `pattern` (after `from` characters of its output). */
function printed(process: Started, pattern: RegExp, from = 0, timeoutMs = 10_000): Promise<string> {
  return waitFor(`output matching ${pattern}`, () => pattern.exec(process.output().slice(from))?.[0] ?? null, timeoutMs);
}

test('two agents on one connection share the load; one killed mid-request, its read is retried on the other, which carries on', async () => {
  const names = async () =>
    (await Promise.all(Array.from({ length: 8 }, () => get('pairA', '/v1/companies')))).map((r) =>
      r.body.data[0].name.split(' ').slice(0, 2).join(' '),
    );
  const served = await names();
  assert.ok(served.includes('Site A') && served.includes('Site B'), `both agents served: ${served.join(', ')}`);

  // Two reads at once go one to each agent; A holds its read for 3 s (the test delay).
  const mark = agents.pairA.output().length;
  const reads = [get('pairA', '/v1/customers?limit=1&inactive=false'), get('pairA', '/v1/customers?limit=1&inactive=false')];
  await printed(agents.pairA, /"msg":"request started"/, mark);
  const killed = Date.now();
  await agents.pairA.stop('SIGKILL');
  const answers = await Promise.all(reads);
  measured.retryAfterKillMs = Date.now() - killed;
  assert.deepEqual(
    answers.map((a) => a.status),
    [200, 200],
    JSON.stringify(answers.map((a) => a.body)),
  );
  assert.ok(measured.retryAfterKillMs < 1000, `the retried read took ${measured.retryAfterKillMs} ms after the kill`);
  assert.deepEqual(new Set(await names()), new Set(['Site B']), 'the other agent carries on alone');
});

test('an agent killed mid-request: the client gets 503 CONNECTION_OFFLINE within a second, no hang', async () => {
  const mark = agents.killed.output().length;
  const read = get('killed', '/v1/customers?limit=1&inactive=false');
  await printed(agents.killed, /"msg":"request started"/, mark);
  const killed = Date.now();
  await agents.killed.stop('SIGKILL');
  const answer = await read;
  measured.offlineAfterKillMs = Date.now() - killed;
  assert.equal(answer.status, 503);
  assert.equal(answer.body.error.code, 'CONNECTION_OFFLINE');
  assert.ok(measured.offlineAfterKillMs < 1000, `503 after ${measured.offlineAfterKillMs} ms`);
});

test('a slow query past its deadline: 504 UPSTREAM_TIMEOUT, and the agent cancels it and says so', async () => {
  const mark = agents.deadline.output().length;
  const answer = await get('deadline', '/v1/customers?limit=1&inactive=false');
  assert.equal(answer.status, 504);
  assert.equal(answer.body.error.code, 'UPSTREAM_TIMEOUT');
  assert.ok(answer.ms >= REQUEST_TIMEOUT_MS && answer.ms < REQUEST_TIMEOUT_MS + 1000, `504 after ${answer.ms} ms`);
  const answered = Date.now();
  const line = JSON.parse(await printed(agents.deadline, /\{[^\n]*"msg":"request cancelled"[^\n]*\}/, mark));
  measured.cancelledAfter504Ms = Date.now() - answered;
  assert.deepEqual([line.reason, line.object, line.company], ['deadline', 'customers', 'TWO']);
  assert.ok(line.ms < 5000, 'stopped before the 5 s statement finished');
  // Its only SQLite thread is free again: a read of DYNAMICS answers at once.
  const companies = await get('deadline', '/v1/companies');
  assert.equal(companies.status, 200);
  assert.ok(companies.ms < 1000, `companies took ${companies.ms} ms`);
  await printed(gateway, /agent answered a request after its deadline/);
});

test('SIGTERM during a slow query: it completes, new requests get 503 at once, then the agent exits 0', async () => {
  const agent = agents.drained;
  const mark = agent.output().length;
  const slow = get('drained', '/v1/customers?limit=1&inactive=false');
  await printed(agent, /"msg":"request started"/, mark);
  const signalled = Date.now();
  const exited = agent.stop('SIGTERM');
  await printed(agent, /"msg":"draining: finishing the requests in flight/, mark);
  const refused = await get('drained', '/v1/companies');
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error.code, 'CONNECTION_OFFLINE');
  assert.match(refused.body.error.message, /shutting down/);
  assert.ok(refused.ms < 500, `refused after ${refused.ms} ms`);
  const answer = await slow;
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.data.length, 1);
  assert.equal(await exited, 0);
  measured.drainToExitMs = Date.now() - signalled;
  assert.ok(measured.drainToExitMs < 3000, `exited ${measured.drainToExitMs} ms after SIGTERM`);
  assert.match(agent.output(), /"msg":"drained; closing the connection"/);
  assert.equal((await get('drained', '/v1/companies')).body.error.code, 'CONNECTION_OFFLINE');
});

test('a frozen agent (SIGSTOP) is dropped within the heartbeat timeout; thawed, it reconnects and serves', async () => {
  const agent = agents.frozen;
  agent.child.kill('SIGSTOP');
  const frozen = Date.now();
  const answer = await get('frozen', '/v1/companies');
  measured.frozenAgentDroppedMs = Date.now() - frozen;
  assert.equal(answer.status, 503);
  assert.equal(answer.body.error.code, 'CONNECTION_OFFLINE');
  const bound = HEARTBEAT.timeoutMs + HEARTBEAT.intervalMs + 500;
  assert.ok(measured.frozenAgentDroppedMs < bound, `dropped after ${measured.frozenAgentDroppedMs} ms (bound ${bound})`);
  await printed(gateway, /agent stopped answering; dropping it/);
  agent.child.kill('SIGCONT');
  const thawed = Date.now();
  await waitFor('the thawed agent to serve', async () => ((await get('frozen', '/v1/companies')).status === 200 ? true : null), 10_000);
  measured.thawedAgentBackMs = Date.now() - thawed;
});

test('a frozen gateway: the agent notices within its heartbeat timeout and reconnects once the gateway is back', async () => {
  const agent = agents.frozen;
  const mark = agent.output().length;
  gateway.child.kill('SIGSTOP');
  const frozen = Date.now();
  try {
    await printed(agent, /"msg":"the gateway stopped answering; dropping the connection"/, mark, 5000);
    measured.frozenGatewayNoticedMs = Date.now() - frozen;
  } finally {
    gateway.child.kill('SIGCONT');
  }
  const thawed = Date.now();
  await waitFor('the agent to serve again', async () => ((await get('frozen', '/v1/companies')).status === 200 ? true : null), 10_000);
  measured.frozenGatewayBackMs = Date.now() - thawed;
  assert.ok(
    measured.frozenGatewayNoticedMs < HEARTBEAT.timeoutMs + HEARTBEAT.intervalMs + 500,
    `noticed after ${measured.frozenGatewayNoticedMs} ms`,
  );
});

test('restarting the gateway: every agent reconnects and serves again', async () => {
  const port = new URL(gateway.url).port;
  assert.equal(await gateway.stop('SIGTERM'), 0);
  const stopped = Date.now();
  gateway = await startGatewayProcess(dataDir, { ...GATEWAY_ENV, PORT: port });
  const listening = Date.now();
  measured.gatewayRestartMs = listening - stopped;
  await Promise.all(
    (['pairB', 'deadline', 'frozen', 'restart'] as const).map((label) =>
      waitFor(`agent ${label} back`, async () => ((await get(label, '/v1/companies')).status === 200 ? true : null), 10_000),
    ),
  );
  measured.agentsBackAfterRestartMs = Date.now() - listening;
  assert.ok(measured.agentsBackAfterRestartMs < 3000, `agents back ${measured.agentsBackAfterRestartMs} ms after the gateway listened`);
});

test('an agent without its database connects and says so: 503 ERP_UNAVAILABLE, shown by connection list; it recovers when the database is back', async () => {
  // Wait for it to be (re)connected after the gateway restart: until then, CONNECTION_OFFLINE.
  const answer = await waitFor('the agent without a database to be connected', async () => {
    const r = await get('nodb', '/v1/customers?limit=1&inactive=false');
    return r.body.error?.code === 'CONNECTION_OFFLINE' ? null : r;
  });
  assert.equal(answer.status, 503);
  assert.equal(answer.body.error.code, 'ERP_UNAVAILABLE');
  assert.equal(answer.body.error.message, 'The connection’s agent is running but cannot reach the GP database.');
  assert.equal(answer.headers.get('retry-after'), '5', 'a retryable 503 says when to retry');

  const listed = await runGatewayCli(['connection', 'list', '--org', orgId], { DATA_DIR: dataDir });
  assert.equal(listed.code, 0, listed.stderr);
  const block = (name: string) => {
    const lines = listed.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith(connections[name]!.id));
    const end = lines.findIndex((l, i) => i > at && !l.startsWith('    - '));
    return lines.slice(at, end === -1 ? undefined : end);
  };
  const host = os.hostname();
  const companies = DEMO_COMPANIES.map((c) => c.id).join(', ');
  assert.match(
    block('nodb').join('\n'),
    new RegExp(
      `connected \\(1 agent; agent \\S+ on ${host}\\)\\n    - ${host}: agent \\S+ \\(linux, sqlite\\), GP version unknown, DATABASE UNAVAILABLE \\(database DYNAMICS not found in [^)]+\\), no companies, connected `,
    ),
  );
  const restart = block('restart');
  assert.equal(restart.length, 2, restart.join('\n'));
  assert.match(
    restart[1]!,
    new RegExp(
      `^    - ${host}: agent \\S+ \\(linux, sqlite\\), demo database, database ok, companies ${companies}, connected .+ UTC, last seen .+ UTC$`,
    ),
  );

  // The database comes back: the agent's next status check tells the gateway, and requests work.
  fs.cpSync(baseSite, sites.nodb, { recursive: true });
  const back = Date.now();
  await waitFor(
    'requests to work again',
    async () => ((await get('nodb', '/v1/customers?limit=1&inactive=false')).status === 200 ? true : null),
    10_000,
  );
  measured.databaseBackServedMs = Date.now() - back;
});

test('diagnose on a good setup: every check passes, with clock skew and round trip, exit 0', async () => {
  const conf = path.join(root, 'good.conf');
  fs.writeFileSync(
    conf,
    `GP_GATEWAY_URL = ${gateway.url}\nGP_AGENT_TOKEN = ${connections.restart!.token}\nGP_SQLITE_DIR = sites/restart\n`,
  );
  const run = await runAgentCli(['diagnose', '--config', conf], {});
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const status = (check: string) => new RegExp(`^  (ok  |WARN|FAIL|skip)  ${check} +(.*)$`, 'm').exec(run.stdout)?.slice(1);
  assert.deepEqual(status('Configuration'), [
    'ok  ',
    `gateway ${gateway.url}, SQLite folder ${path.join(root, 'sites', 'restart')}, from ${conf}`,
  ]);
  assert.deepEqual(status('Companies')?.[0], 'ok  ');
  assert.match(status('Read permission')![1]!, /^all \d+ tables the API reads can be read/);
  assert.match(status('Writes')![1]!, /^off: the agent refuses every write/);
  assert.deepEqual(status('WebSocket and token')?.[0], 'ok  ');
  assert.match(status('Clock')![1]!, /^this server's clock is \d+ ms (behind|ahead of) the gateway's \(from ping\)$/);
  assert.match(status('Round trip')![1]!, /^median \d+ ms over 5 pings/);
  assert.match(run.stdout, /All checks passed\.$/m);
});

test('diagnose against a broken configuration names the setting and the fix, and exits 1', async () => {
  const conf = path.join(root, 'broken.conf');
  fs.writeFileSync(
    conf,
    `GP_GATEWAY_URL = ${gateway.url}\nGP_AGENT_TOKEN = lb_agent_tooShort\nGP_SQLITE_DIR = sites/restart\nGP_AGENT_HEARTBEAT_INTERVAL_MS = 5s\n`,
  );
  const run = await runAgentCli(['diagnose', '--config', conf], {});
  assert.equal(run.code, 1);
  assert.match(run.stdout, /^  FAIL  Configuration +2 settings are missing or wrong$/m);
  assert.match(run.stdout, /- GP_AGENT_TOKEN \(from broken\.conf line 2\): the agent token must look like lb_agent_/);
  assert.match(
    run.stdout,
    /- GP_AGENT_HEARTBEAT_INTERVAL_MS \(from broken\.conf line 4\): must be a whole number of milliseconds from 50 to 600000; got "5s"/,
  );
  assert.ok(!run.stdout.includes('tooShort'), 'the token is not repeated');
  assert.match(run.stdout, new RegExp(`Fix: correct ${conf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.match(run.stdout, /^  ok    Database folder/m, 'the database is still checked');
  assert.match(run.stdout, /^  skip  Gateway +needs a valid gateway URL and token$/m);
});

test('diagnose names a refused token, an unreadable table and an unreachable gateway, each with its fix', async () => {
  const broken = site('no-customers');
  const db = new Database(path.join(broken, 'NWIND.sqlite'));
  db.exec('DROP TABLE RM00101');
  db.close();
  const report = await diagnose({ gateway: gateway.url, token: newAgentToken(), sqliteDir: broken }, {});
  const finding = (check: string) => report.findings.find((f) => f.check === check)!;
  assert.equal(report.failed, true);
  assert.deepEqual(
    [finding('Read permission').status, finding('Read permission').summary],
    ['fail', `1 of ${finding('Read permission').summary.match(/of (\d+)/)![1]} tables the API reads cannot be read`],
  );
  assert.match(finding('Read permission').details![0]!, /^NWIND\.\.RM00101: cannot read RM00101 in NWIND: no such table: RM00101$/);
  assert.equal(finding('WebSocket and token').status, 'fail');
  assert.match(finding('WebSocket and token').fix!, /GP_AGENT_TOKEN is not \(or no longer\) the token of a connection/);

  const port = await freePort();
  const closed = await diagnose({ gateway: `http://127.0.0.1:${port}`, token: newAgentToken(), sqliteDir: sites.restart }, {});
  const reach = closed.findings.find((f) => f.check === 'Gateway reachable')!;
  assert.equal(reach.status, 'fail');
  assert.equal(reach.fix, `nothing listens on 127.0.0.1:${port}: check the port in GP_GATEWAY_URL and that the gateway runs`);
});
