import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { CLOSE_TOKEN_REJECTED, CLOSE_TOO_MANY_AGENTS } from '@gp-gateway/protocol';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import { runGatewayCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { rogueAgent, type RogueAgent } from './support/rogueAgent.ts';

/**
 * Agent tokens against a real gateway process, with a rogue agent (a hand-written WebSocket client
 * holding a stolen token) beside real agent processes: one token admits at most
 * AGENT_MAX_PER_CONNECTION agents (4 by default), and `gp-gateway connection rotate-token` and
 * `revoke-token`, run as separate processes while the gateway runs, drop the sockets already open
 * on the old token within the token check interval (AGENT_TOKEN_CHECK_MS, 1 s by default).
 */
let root: string;
let dataDir: string;
let site: string;
let gateway: Started & { url: string; testKey: string };
let orgId: string;
let liveKey: string;
const connections: Record<string, { id: string; token: string }> = {};
const started: Started[] = [];
const rogues: RogueAgent[] = [];
const AGENT_ENV = { GP_AGENT_BACKOFF_MIN_MS: '50', GP_AGENT_BACKOFF_MAX_MS: '300', GP_SQLITE_WORKERS: '1', LOG_LEVEL: 'info' };

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-tokens-'));
  dataDir = path.join(root, 'gateway');
  site = path.join(root, 'site');
  generateDemo({ dir: site, scale: 1, seed: 7 });
  const customer = await provisionOrganisation(dataDir, {
    organisation: 'Token Co',
    limits: { requestsPerWindow: 100_000, windowSeconds: 1 },
    connections: ['crowded', 'stolen', 'revoked'],
  });
  orgId = customer.orgId;
  liveKey = customer.liveKey;
  Object.assign(connections, customer.connections);
  gateway = await startGatewayProcess(dataDir, { LOG_LEVEL: 'info' });
});

after(async () => {
  for (const rogue of rogues) rogue.ws.terminate();
  for (const agent of started) await agent.stop('SIGKILL');
  await gateway?.stop('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

function rogue(token: string, options: { hello?: boolean } = {}): RogueAgent {
  const agent = rogueAgent(gateway.url, token, options);
  rogues.push(agent);
  return agent;
}

function agentProcess(token: string): Started {
  const agent = startAgentProcess(gateway.url, token, site, AGENT_ENV);
  started.push(agent);
  return agent;
}

async function companies(connection: string) {
  const res = await fetch(`${gateway.url}/v1/companies`, {
    headers: { authorization: `Bearer ${liveKey}`, 'x-connection-id': connections[connection]!.id },
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function operator(...args: string[]): Promise<string> {
  const run = await runGatewayCli(args, { DATA_DIR: dataDir });
  assert.equal(run.code, 0, `gp-gateway ${args.join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

test('one token admits at most 4 agents: a fifth is refused with a close code and a plain message; a real agent says why, keeps trying, and takes the first place freed', async () => {
  const { token } = connections.crowded!;
  const four = Array.from({ length: 4 }, () => rogue(token));
  assert.deepEqual(await Promise.all(four.map((r) => r.welcomed)), Array(4).fill(connections.crowded!.id));

  const fifth = rogue(token);
  const { code, reason } = await fifth.closed;
  assert.equal(code, CLOSE_TOO_MANY_AGENTS);
  assert.equal(reason, 'this connection already has 4 agents connected, the most the gateway accepts; stop one first');
  assert.equal(fifth.frames.length, 0, 'no welcome, no request');

  // The connection is full (perhaps of agents on a stolen token): the real agent says so and retries,
  // so that the outage ends when a place frees, rather than stopping for good.
  const real = agentProcess(token);
  await waitFor('the agent to say why it is refused', () =>
    /the gateway refused another agent on this connection \(this connection already has 4 agents connected[^)]*\); retrying until a slot is free/.test(
      real.output(),
    )
      ? true
      : null,
  );
  assert.equal(real.child.exitCode, null, 'the agent keeps running');

  // A place freed is a place taken: the limit counts agents now, not agents ever.
  four[0]!.ws.close();
  await waitFor('the real agent to take the freed place', () => (/"msg":"connected to the gateway"/.test(real.output()) ? true : null));
  // The rogues answer nothing; once they are gone, the real agent serves the connection.
  for (const r of four.slice(1)) r.ws.close();
  await Promise.all(four.map((r) => r.closed));
  // Its status (companies, database health) follows its welcome; until then the connection is not served.
  const served = await waitFor('the real agent to serve', async () => {
    const answer = await companies('crowded');
    return answer.status === 200 ? answer : null;
  });
  assert.equal(served.status, 200);
  assert.ok(served.body.data.length > 0, 'the connection is served again');
});

/** The process's exit code, once it exits by itself; a failure, not a hang, if it has not within 30 s. */
function exitOf(process: Started): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (process.child.exitCode !== null) return resolve(process.child.exitCode);
    const timer = setTimeout(() => reject(new Error(`the process did not exit within 30 s:\n${process.output().slice(-2000)}`)), 30_000);
    process.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

test('rotate-token: a rogue agent on the stolen token and the real agent are dropped within a second; the new token serves, the old opens nothing', async () => {
  const { token } = connections.stolen!;
  const real = agentProcess(token);
  await waitFor('the real agent to serve', async () => ((await companies('stolen')).status === 200 ? true : null));
  const thief = rogue(token);
  await thief.welcomed;
  // Before the fix, the thief was handed its share of the connection's requests, filters included
  // (it answers none: those wait until it is dropped).
  const pending = Array.from({ length: 8 }, () => companies('stolen'));
  await waitFor('the thief to be sent a request', () => (thief.frames.some((f) => f.type === 'request') ? true : null));

  const rotatedAt = Date.now();
  const output = await operator('connection', 'rotate-token', 'stolen', '--org', orgId);
  const newToken = /^(lb_agent_[0-9A-Za-z]{32})$/m.exec(output)?.[1];
  assert.ok(newToken, output);
  const { code, reason, at } = await thief.closed;
  assert.deepEqual([code, reason], [CLOSE_TOKEN_REJECTED, 'the agent token was rotated or revoked; configure the new token']);
  const droppedMs = at - rotatedAt;
  assert.equal(await exitOf(real), 2, 'the real agent stops rather than retrying a dead token');
  assert.match(real.output(), /the gateway rejected the agent token: the agent token was rotated or revoked/);
  console.log(`rogue agent dropped ${droppedMs} ms after rotate-token was started (a process of its own)`);
  assert.ok(droppedMs < 5_000, `dropped after ${droppedMs} ms`);

  const statuses = (await Promise.all(pending)).map((r) => r.status);
  assert.ok(statuses.includes(503), `requests held by the thief fail when it is dropped, not at their deadline: ${statuses.join(', ')}`);
  assert.equal((await companies('stolen')).status, 503, 'no agent serves the connection now');
  assert.equal(await rogue(token).refused, 401, 'the old token opens nothing');
  const requestsBefore = thief.frames.filter((f) => f.type === 'request').length;
  agentProcess(newToken);
  await waitFor('the agent with the new token to serve', async () => ((await companies('stolen')).status === 200 ? true : null));
  assert.equal(thief.frames.filter((f) => f.type === 'request').length, requestsBefore, 'the thief gets nothing more');
});

test('revoke-token drops the open sockets at once and opens nothing until a new token is issued; list says so', async () => {
  const { token } = connections.revoked!;
  const holder = rogue(token);
  await holder.welcomed;
  const waiting = rogue(token, { hello: false });
  await new Promise((resolve) => waiting.ws.once('open', resolve));

  const revokedAt = Date.now();
  const output = await operator('connection', 'revoke-token', connections.revoked!.id, '--org', 'Token Co');
  assert.match(output, /is revoked: no agent can connect for it/);
  for (const socket of [holder, waiting]) {
    const { code, at } = await socket.closed;
    assert.equal(code, CLOSE_TOKEN_REJECTED);
    assert.ok(at - revokedAt < 5_000, `dropped after ${at - revokedAt} ms`);
  }
  assert.equal(await rogue(token).refused, 401);
  assert.match(await operator('connection', 'list', '--org', orgId), /agent token REVOKED/);
});
