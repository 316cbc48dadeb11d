import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reconnectHint, type ReadOperation } from '@gp-gateway/protocol';
import { dialGateway, ReadService, SqliteExecutor } from '@gp-gateway/agent';
import { generateDemo } from '@gp-gateway/gp-demo';
import WebSocket from 'ws';
import { AdminService } from '../../core/admin/adminService.ts';
import { startGateway } from '../../gateway.ts';
import type { RunningGateway } from '../../gatewayOptions.ts';
import { openSqliteStore } from '../store/openStore.ts';
import type { Store } from '../store/store.ts';
import {
  memoryLog,
  pollUntil,
  startNats,
  type NatsServer,
  startRedis,
  type RedisServer,
  skipWithout,
  startTcpBalancer,
  type TcpBalancer,
} from '@gp-gateway/testing';
import { setTimeout as sleep } from 'node:timers/promises';

const skip = skipWithout('redis-server', 'several gateway instances') || skipWithout('nats-server', 'several gateway instances');

/** An agent of one connection, in process, dialling through the balancer like a customer's agent. */
interface TestAgent {
  stop(): Promise<void>;
  /** Lists of this object wait until cancelled (a slow query); how many began, and the reasons they were cancelled with. */
  slow: { object: string | null; began: number; cancelled: string[]; releaseAfterMs?: number };
  /** Why its connections closed, as the agent logged them. */
  reasons(): string[];
}

/**
 * Two gateway instances sharing one store (the same SQLite store object, standing for the shared
 * PostgreSQL), one redis-server and one nats-server, both started here; agents and clients reach
 * them through a TCP balancer, as in a deployment.
 */
describe('two gateway instances with Redis and NATS', { skip }, () => {
  let dir: string;
  let redis: RedisServer;
  let nats: NatsServer;
  let store: Store;
  let admin: AdminService;
  let executor: SqliteExecutor;
  let balancer: TcpBalancer;
  const cursorSecret = randomBytes(32);
  const prefix = `t${randomBytes(4).toString('hex')}`;
  const gateways: RunningGateway[] = [];
  const agents: TestAgent[] = [];
  let connectionId = '';
  let agentToken = '';
  let key = '';

  const startInstance = async (name: string, extra: Partial<Parameters<typeof startGateway>[0]> = {}) => {
    const gateway = await startGateway({
      store,
      log: memoryLog().log,
      cursorSecret,
      port: 0,
      host: '127.0.0.1',
      requestTimeoutMs: 1_500,
      agentHeartbeat: { intervalMs: 200, timeoutMs: 1_000 },
      cluster: { redisUrl: redis.url, natsUrl: nats.url, prefix, instanceId: name, keepaliveMs: 100 },
      ...extra,
    });
    gateways.push(gateway);
    return gateway;
  };

  const startAgent = (gatewayUrl: string, token = agentToken): TestAgent => {
    const stop = new AbortController();
    const real = new ReadService(executor);
    const slow: TestAgent['slow'] = { object: null, began: 0, cancelled: [] };
    const service = {
      handle: (op: ReadOperation, signal?: AbortSignal) => {
        if (op.object !== slow.object) return real.handle(op, signal);
        slow.began++;
        if (slow.releaseAfterMs) return sleep(slow.releaseAfterMs).then(() => real.handle(op, signal));
        return new Promise<never>((_, reject) =>
          signal?.addEventListener('abort', () => {
            slow.cancelled.push(String(signal.reason ?? 'aborted'));
            reject(new Error('cancelled'));
          }),
        );
      },
      health: () => real.health(),
    };
    const agentLog = memoryLog();
    const done = dialGateway(
      {
        gatewayUrl,
        token,
        service,
        log: agentLog.log,
        dialect: 'sqlite',
        timings: { backoffMinMs: 50, backoffMaxMs: 300, heartbeatIntervalMs: 200, heartbeatTimeoutMs: 1_000, drainGraceMs: 500 },
      },
      { stop: stop.signal },
    ).catch(() => {});
    const agent = {
      slow,
      reasons: () => agentLog.lines.filter((l) => l.msg === 'not connected to the gateway; retrying').map((l) => String(l.reason)),
      async stop() {
        stop.abort();
        await done;
      },
    };
    agents.push(agent);
    return agent;
  };

  const get = async (base: string, pathAndQuery: string, withKey = key, connection = connectionId) => {
    const res = await fetch(`${base}${pathAndQuery}`, { headers: { authorization: `Bearer ${withKey}`, 'x-connection-id': connection } });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };
  const holds = (gateway: RunningGateway, id = connectionId) => gateway.router.hasAvailable(id);
  const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) =>
    pollUntil(what, check, { timeoutMs, everyMs: 20 });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-cluster-'));
    generateDemo({ dir: path.join(dir, 'demo'), scale: 1 });
    executor = new SqliteExecutor({ dir: path.join(dir, 'demo') });
    [redis, nats] = await Promise.all([startRedis(), startNats()]);
    store = await openSqliteStore(path.join(dir, 'gateway.sqlite'));
    admin = new AdminService(store);
    const org = await admin.createOrganisation('Cluster Ltd');
    await admin.setLimits(org.id, { requestsPerWindow: 100_000, windowSeconds: 1 });
    const created = await admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' });
    connectionId = created.connection.id;
    agentToken = created.agentToken;
    key = (await admin.issueApiKey({ orgId: org.id, name: 'k', mode: 'live', scopes: ['read'] })).secret;
    const [a, b] = [await startInstance('A'), await startInstance('B')];
    balancer = await startTcpBalancer([a.port]);
    startAgent(balancer.url);
    await until('the agent is on A', () => holds(a));
    balancer.backends = [a.port, b.port];
  });

  after(async () => {
    for (const agent of agents) await agent.stop();
    for (const gateway of gateways) await gateway.close();
    await balancer?.close();
    await executor?.close();
    await store?.close();
    await Promise.all([redis?.stop(), nats?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a request to B for the agent on A is answered by A: 200, the same bytes as on A, and A’s cursor works on B', async () => {
    const [a, b] = gateways as [RunningGateway, RunningGateway];
    assert.equal(holds(b), false);
    const someone = (JSON.parse((await get(a.url, '/v1/customers?limit=1')).text) as { data: Array<{ id: string }> }).data[0]!;
    for (const pathAndQuery of ['/v1/customers?limit=50', `/v1/customers/${someone.id}`, '/v1/gl-entries?limit=1000']) {
      const [onA, onB] = [await get(a.url, pathAndQuery), await get(b.url, pathAndQuery)];
      assert.equal(onB.status, 200, onB.text);
      assert.equal(onB.text, onA.text, `different answers for ${pathAndQuery}`);
    }
    const first = JSON.parse((await get(a.url, '/v1/customers?limit=3')).text) as { nextCursor: string };
    const cursor = encodeURIComponent(first.nextCursor);
    const [nextOnA, nextOnB] = [
      await get(a.url, `/v1/customers?limit=3&cursor=${cursor}`),
      await get(b.url, `/v1/customers?limit=3&cursor=${cursor}`),
    ];
    assert.equal(nextOnB.status, 200, nextOnB.text);
    assert.equal(nextOnB.text, nextOnA.text);
    // Errors come back as the holder gave them.
    const missing = await get(b.url, '/v1/customers/NOSUCHCUST');
    assert.equal(missing.status, 404, missing.text);
    assert.equal(JSON.parse(missing.text).error.code, 'NOT_FOUND');
  });

  test('a connection whose agent is on no instance: 503 CONNECTION_OFFLINE at once on either', async () => {
    const org = (await store.listOrganisations()).find((o) => o.name === 'Cluster Ltd')!;
    const { connection } = await admin.createConnection({ orgId: org.id, name: 'No agent', defaultCompany: 'TWO' });
    for (const gateway of gateways) {
      const started = Date.now();
      const res = await get(gateway.url, '/v1/customers?limit=1', key, connection.id);
      assert.equal(res.status, 503, res.text);
      assert.equal(JSON.parse(res.text).error.code, 'CONNECTION_OFFLINE');
      assert.ok(Date.now() - started < 500, `took ${Date.now() - started} ms`);
    }
  });

  test('the deadline crosses instances: a slow query asked of B gets 504 and is cancelled at the agent on A', async () => {
    const b = gateways[1]!;
    agents[0]!.slow.object = 'vendors';
    try {
      const started = Date.now();
      const res = await get(b.url, '/v1/vendors?limit=5');
      assert.equal(res.status, 504, res.text);
      assert.ok(Date.now() - started < 1_500 + 1_500, `took ${Date.now() - started} ms`);
      await until('the agent cancelled the query', () => agents[0]!.slow.cancelled.length === 1);
    } finally {
      agents[0]!.slow.object = null;
    }
  });

  test('a limit of L shared by A and B admits exactly L', async () => {
    const org = await admin.createOrganisation('Limited Ltd');
    await admin.setLimits(org.id, { requestsPerWindow: 6, windowSeconds: 60 });
    const { secret } = await admin.issueApiKey({ orgId: org.id, name: 'k', mode: 'live', scopes: ['read'] });
    const { connection } = await admin.createConnection({ orgId: org.id, name: 'HQ', defaultCompany: 'TWO' });
    // No agent: every admitted request is a 503, every refused one a 429.
    const statuses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => get(gateways[i % 2]!.url, '/v1/customers?limit=1', secret, connection.id).then((r) => r.status)),
    );
    assert.equal(statuses.filter((s) => s === 503).length, 6, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 8);
  });

  test('Redis holds which instance has which connection’s agents', async () => {
    const [a, b] = gateways as [RunningGateway, RunningGateway];
    await until('A announced its agent', async () => (await a.redisPresence!.holders(connectionId)).length === 1);
    const holders = await b.redisPresence!.holders(connectionId);
    assert.deepEqual(
      holders.map((h) => h.instanceId),
      ['A'],
    );
    assert.equal(holders[0]!.agents.length, 1);
  });

  test('/ready reports the store, Redis and NATS; /health is live', async () => {
    const res = await fetch(`${gateways[0]!.url}/ready`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ready: true, checks: { store: 'ok', redis: 'ok', nats: 'ok' } });
    assert.equal((await fetch(`${gateways[0]!.url}/health`)).status, 200);
  });

  test('excess agent handshakes are closed with 1013 and a turn to come back at', async () => {
    const capped = await startInstance('C', { agentHandshakesPerSecond: 1 });
    const org = (await store.listOrganisations()).find((o) => o.name === 'Cluster Ltd')!;
    const reasons: string[] = [];
    const codes = await Promise.all(
      Array.from({ length: 3 }, async (_, i) => {
        const { agentToken: token } = await admin.createConnection({ orgId: org.id, name: `storm ${i}`, defaultCompany: 'TWO' });
        return new Promise<number>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${capped.port}/agent`, { headers: { authorization: `Bearer ${token}` } });
          ws.on('close', (code, reason) => {
            if (code === 1013) reasons.push(reason.toString());
            resolve(code);
          });
          ws.on('error', () => {});
          // Every socket says hello; an admitted one is welcomed (the event that tells it from a refused one) and then closed by the test.
          ws.on('open', () =>
            ws.send(
              JSON.stringify({
                v: 1,
                type: 'hello',
                agent: { version: '0.1.0', host: `storm-${i}`, platform: 'linux', dialect: 'sqlite' },
                companies: [{ id: 'TWO', name: null, number: null }],
              }),
            ),
          );
          ws.on('message', (data) => {
            if (JSON.parse(String(data).split('\n')[0]!).type === 'welcome') ws.close(1000);
          });
        });
      }),
    );
    assert.ok(codes.includes(1013), JSON.stringify(codes));
    assert.ok(codes.includes(1000) || codes.includes(1005), JSON.stringify(codes));
    // One a second, the refused booked at 80 % of it: their turns fall within the next few seconds.
    const turns = reasons.map((r) => reconnectHint(r).afterMs ?? -1).sort((x, y) => x - y);
    assert.ok(turns.length > 0 && turns.every((ms) => ms > 0 && ms <= 3_500), JSON.stringify(reasons));
    await capped.close();
    gateways.splice(gateways.indexOf(capped), 1);
  });

  test('drain: a request in flight on the stopping instance is answered, then its agent is sent away with 1012 and a window to spread over, and comes back through the other', async () => {
    const spare = await startInstance('D', { agentHandshakesPerSecond: 1_000 });
    const org = (await store.listOrganisations()).find((o) => o.name === 'Cluster Ltd')!;
    const created = await admin.createConnection({ orgId: org.id, name: 'Drained', defaultCompany: 'TWO' });
    const lb = await startTcpBalancer([spare.port]);
    try {
      const agent = startAgent(lb.url, created.agentToken);
      await until('the agent is on D', () => holds(spare, created.connection.id));
      agent.slow.object = 'vendors';
      agent.slow.releaseAfterMs = 400;
      const inFlight = get(spare.url, '/v1/vendors?limit=2', key, created.connection.id);
      await until('the list is running at the agent', () => agent.slow.began === 1);
      const b = gateways.find((g) => g.instanceId === 'B')!;
      lb.backends = [b.port];
      const drained = spare.drain(5_000);
      assert.equal((await inFlight).status, 200);
      await drained;
      // One agent, at 800 a second: 2 ms (the agent waits its smallest backoff at least).
      await until('the agent heard why', () => agent.reasons().includes('gateway restarting; reconnect (spread over 2 ms)'));
      agent.slow.object = null;
      await until('the agent is back, on B', () => holds(b, created.connection.id));
      assert.equal((await get(b.url, '/v1/vendors?limit=2', key, created.connection.id)).status, 200);
      await agent.stop();
    } finally {
      await lb.close();
      gateways.splice(gateways.indexOf(spare), 1);
    }
  });

  test('rolling restart under steady load: no request fails except with a retryable 503, and the agent moves to B', async () => {
    const [a, b] = gateways as [RunningGateway, RunningGateway];
    const failures: string[] = [];
    let ok = 0;
    let retryable = 0;
    let running = true;
    const load = (async () => {
      while (running) {
        const target = ok % 2 ? b : a;
        try {
          const res = await get(target === a && !balancer.backends.includes(a.port) ? b.url : target.url, '/v1/customers?limit=20');
          if (res.status === 200) ok += 1;
          else if (res.status === 503 && ['CONNECTION_OFFLINE'].includes(JSON.parse(res.text).error.code)) retryable += 1;
          else failures.push(`${res.status} ${res.text.slice(0, 200)}`);
        } catch (error) {
          // A's listener closed: a client behind a balancer goes to B; only connection refusals are expected.
          if (!String((error as Error).cause ?? error).includes('ECONNREFUSED')) failures.push(String(error));
        }
      }
    })();
    await until('some load served', () => ok > 20);
    balancer.backends = [b.port];
    const draining = a.drain(5_000);
    await until('the agent is on B', () => holds(b));
    await draining;
    const before = ok;
    await until('requests are served through B', () => ok > before + 20);
    running = false;
    await load;
    assert.deepEqual(failures, []);
    assert.ok(retryable < 50, `${retryable} retryable 503s`);
  });

  test('an instance killed: its forwarded requests fail fast with 503, and the agent reconnects to the other and is served', async () => {
    // The agent is on B now; a new A takes it back, and then dies without draining.
    const b = gateways.find((g) => g.instanceId === 'B')!;
    const a2 = await startInstance('A2');
    const agent = startAgent(`http://127.0.0.1:${a2.port}`);
    await until('a second agent is on A2', () => holds(a2));
    await agents[0]!.stop();
    await until('B has no agent left', () => !holds(b));
    agent.slow.object = 'vendors';
    const pending = get(b.url, '/v1/vendors?limit=5');
    await until('the forwarded list is running at the agent', () => agent.slow.began === 1);
    const started = Date.now();
    await a2.close(); // stands for kill -9: sockets cut, nothing drained
    const res = await pending;
    assert.equal(res.status, 503, res.text);
    assert.ok(Date.now() - started < 1_000, `the forwarded request took ${Date.now() - started} ms to fail`);
    const offline = await get(b.url, '/v1/customers?limit=1');
    assert.equal(offline.status, 503);
    // An agent pointed at the balancer comes back on B.
    agent.slow.object = null;
    await agent.stop();
    startAgent(balancer.url);
    await until('the agent is back on B', () => holds(b), 5_000);
    assert.equal((await get(b.url, '/v1/customers?limit=1')).status, 200);
  });
});
