import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { openLocalAdmin, sha256Hex } from '@gp-gateway/gateway';
import { provisionOrganisation, startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '@gp-gateway/gateway/testing';
import {
  ScriptedAgent,
  skipWithoutClusterServers,
  startPostgresServer,
  startNats,
  startRedis,
  startTcpBalancer,
  type NatsServer,
  type PostgresServer,
  type RedisServer,
  type TcpBalancer,
} from '@gp-gateway/testing';
import { countLogged, runGatewayCli, startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';
import { processHoldingConnection } from './support/sockets.ts';

/**
 * Two gateway processes as one deployment (docs/decisions.md#several-gateway-instances): one
 * PostgreSQL server (the store, DATABASE_URL), one redis-server and one nats-server started here
 * and shared by every test of the file, each instance with its own data folder (only the demo
 * lives there), an agent process and clients reaching the instances through a TCP balancer.
 * Instances are stopped (SIGTERM: drained) and killed (SIGKILL) under load, as in a deploy and an outage.
 */
const skip = skipWithoutClusterServers('gateway cluster e2e');

const AGENT_ENV = {
  GP_AGENT_HEARTBEAT_INTERVAL_MS: '200',
  GP_AGENT_HEARTBEAT_TIMEOUT_MS: '1000',
  GP_AGENT_BACKOFF_MIN_MS: '50',
  GP_AGENT_BACKOFF_MAX_MS: '500',
  GP_AGENT_CONNECT_TIMEOUT_MS: '2000',
  GP_SQLITE_WORKERS: '1',
  // Filtered lists wait this long (a slow query); short unfiltered pages, the load below, do not.
  GP_AGENT_TEST_DELAY_MS: '1500',
  // "request started" tells a test that a request has reached the agent.
  LOG_LEVEL: 'debug',
};

type Instance = Started & { url: string; port: number; name: string };

describe('a deployment of two gateway processes on PostgreSQL, Redis and NATS', { skip }, () => {
  let root: string;
  let site: string;
  let pg: PostgresServer;
  let databaseUrl = '';
  let orgId = '';
  let redis: RedisServer;
  let nats: NatsServer;
  let balancer: TcpBalancer;
  let agent: Started;
  let key = '';
  let connectionId = '';
  let token = '';
  const cursorSecret = randomBytes(32).toString('hex');
  // Every instance and the operator CLI seal webhook secrets with the same key (docs/decisions.md#webhooks).
  const webhookSecretsKey = randomBytes(32).toString('hex');
  /** Short, so that a killed instance's delivery is taken over within seconds (attempts then time out at 5 s). */
  const WEBHOOKS_LEASE_SECONDS = '15';
  let receiver: WebhookReceiver;
  const instances: Instance[] = [];

  let folders = 0;
  const startInstance = async (name: string): Promise<Instance> => {
    // Its own data folder, as on its own machine; the demo copied in so that `start` does not make one.
    const dataDir = path.join(root, `instance-${++folders}`);
    fs.cpSync(path.join(root, 'demo'), path.join(dataDir, 'demo'), { recursive: true });
    const gateway = await startGatewayProcess(dataDir, {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      NATS_URL: nats.url,
      CURSOR_SECRET: cursorSecret,
      INSTANCE_ID: name,
      SHUTDOWN_GRACE_MS: '5000',
      REQUEST_TIMEOUT_MS: '3000',
      AGENT_HEARTBEAT_INTERVAL_MS: '200',
      AGENT_HEARTBEAT_TIMEOUT_MS: '1000',
      WEBHOOK_SECRETS_KEY: webhookSecretsKey,
      // The receiver is on loopback over http.
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOKS_LEASE_SECONDS,
      LOG_LEVEL: 'info',
    });
    const instance = { ...gateway, name, port: Number(new URL(gateway.url).port) };
    instances.push(instance);
    return instance;
  };
  const get = async (base: string, pathAndQuery: string, connection = connectionId, bearer = key) => {
    const res = await fetch(`${base}${pathAndQuery}`, { headers: { authorization: `Bearer ${bearer}`, 'x-connection-id': connection } });
    return { status: res.status, text: await res.text() };
  };
  const live = () => instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
  const served = (instance: Instance) => async () => ((await get(instance.url, '/v1/customers?limit=1')).status === 200 ? true : null);

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-cluster-e2e-'));
    site = path.join(root, 'site');
    generateDemo({ dir: site, scale: 1 });
    generateDemo({ dir: path.join(root, 'demo'), scale: 1 });
    [pg, redis, nats, receiver] = await Promise.all([startPostgresServer(), startRedis(), startNats(), startWebhookReceiver()]);
    databaseUrl = await pg.createDatabase();
    const a = await startInstance('A');
    const customer = await provisionOrganisation(path.join(root, 'instance-1'), {
      organisation: 'Cluster Co',
      limits: { requestsPerWindow: 100_000, windowSeconds: 1 },
      connections: ['hq'],
      databaseUrl,
    });
    key = customer.liveKey;
    orgId = customer.orgId;
    ({ id: connectionId, token } = customer.connections.hq!);
    balancer = await startTcpBalancer([a.port]);
    agent = startAgentProcess(balancer.url, token, site, AGENT_ENV);
    await waitFor('the agent to serve through A', served(a), 30_000);
    const b = await startInstance('B');
    balancer.backends = [a.port, b.port];
  });

  after(async () => {
    await agent?.stop('SIGKILL');
    for (const instance of instances) await instance.stop('SIGKILL');
    await balancer?.close();
    await Promise.all([redis?.stop(), nats?.stop(), pg?.stop(), receiver?.stop()]);
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('agent on A, request to B: 200 and the same bytes as on A', async () => {
    const [a, b] = instances as [Instance, Instance];
    for (const pathAndQuery of ['/v1/customers?limit=100', '/v1/gl-entries?limit=500', '/v1/companies']) {
      const [onA, onB] = [await get(a.url, pathAndQuery), await get(b.url, pathAndQuery)];
      assert.equal(onB.status, 200, onB.text);
      assert.equal(onB.text, onA.text, pathAndQuery);
    }
    const ready = await fetch(`${b.url}/ready`);
    assert.deepEqual([ready.status, await ready.json()], [200, { ready: true, checks: { store: 'ok', redis: 'ok', nats: 'ok' } }]);
  });

  test('a cursor issued by A is accepted by B, and B answers the page A would', async () => {
    const [a, b] = instances as [Instance, Instance];
    const first = JSON.parse((await get(a.url, '/v1/customers?limit=3')).text) as { nextCursor: string | null };
    assert.ok(first.nextCursor);
    const next = `/v1/customers?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`;
    const [onA, onB] = [await get(a.url, next), await get(b.url, next)];
    assert.equal(onB.status, 200, onB.text);
    assert.equal(onB.text, onA.text);
  });

  test('a rate limit of L across A and B admits exactly L', async () => {
    const L = 10;
    const limited = await provisionOrganisation(path.join(root, 'instance-1'), {
      organisation: 'Limited Co',
      limits: { requestsPerWindow: L, windowSeconds: 60 },
      connections: ['branch'],
      databaseUrl,
    });
    const [a, b] = instances as [Instance, Instance];
    // No agent for this connection: each admitted request is a 503, each refused one a 429.
    const answers = await Promise.all(
      Array.from({ length: 3 * L }, (_, i) => get((i % 2 ? b : a).url, '/v1/customers', limited.connections.branch!.id, limited.liveKey)),
    );
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s !== 429).length, L, statuses.join(' '));
    assert.ok(
      statuses.every((s) => s === 429 || s === 503),
      statuses.join(' '),
    );
  });

  test('a key revoked through the CLI is refused at once by both instances', async () => {
    const [a, b] = instances as [Instance, Instance];
    const { admin, close } = await openLocalAdmin(path.join(root, 'instance-1'), { databaseUrl });
    const issued = await admin.issueApiKey({ orgId, name: 'to revoke', mode: 'live', scopes: ['read'] });
    const keys = await admin.listApiKeys(orgId);
    await close();
    const id = keys.find((k) => k.secretHash === sha256Hex(issued.secret))!.id;
    // Both instances have seen (and memoised) the key before it is revoked.
    for (const instance of [a, b]) assert.equal((await get(instance.url, '/v1/companies', connectionId, issued.secret)).status, 200);
    const cli = await runGatewayCli(['key', 'revoke', id], { DATA_DIR: path.join(root, 'instance-1'), DATABASE_URL: databaseUrl });
    assert.equal(cli.code, 0, cli.stderr);
    for (const instance of [b, a])
      assert.equal((await get(instance.url, '/v1/companies', connectionId, issued.secret)).status, 401, instance.name);
    assert.equal((await get(b.url, '/v1/companies')).status, 200, 'the other key still works');
  });

  test('an idempotent write retried on the other instance replays the stored answer; the agent saw one write', async () => {
    const [a, b] = instances as [Instance, Instance];
    const { admin, close } = await openLocalAdmin(path.join(root, 'instance-1'), { databaseUrl });
    const writer = (await admin.issueApiKey({ orgId, name: 'writer', mode: 'live', scopes: ['read', 'write'] })).secret;
    const { connection, agentToken } = await admin.createConnection({ orgId, name: 'writes', defaultCompany: 'TWO' });
    await admin.setWriteWhitelist(orgId, connection.id, ['customers']);
    await close();
    const agent = await ScriptedAgent.connect(a.url, agentToken, { allowWrites: true });
    try {
      const post = async (instance: Instance) => {
        const res = await fetch(`${instance.url}/v1/customers`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${writer}`,
            'x-connection-id': connection.id,
            'content-type': 'application/json',
            'idempotency-key': 'cluster-retry-1',
          },
          body: JSON.stringify({ id: 'c900', name: 'Across Instances Ltd' }),
        });
        return { status: res.status, text: await res.text() };
      };
      const first = await post(a);
      assert.equal(first.status, 201, first.text);
      const retry = await post(b);
      assert.deepEqual(retry, first);
      assert.equal(agent.sent('write').length, 1);
      assert.equal(agent.journal.written, 1);
    } finally {
      agent.drop();
    }
  });

  /**
   * One HTTP request from `localAddress`, a loopback address of its own (127.0.0.0/8 is all
   * loopback): the gateways count refusals and sign-ins per client address, and one address per
   * test keeps the counts of the others' requests out of its own.
   */
  const fromAddress = (
    localAddress: string,
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, localAddress, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      });
      req.once('error', reject);
      req.end(init.body);
    });

  test('sign-in failures spread over A and B are throttled after exactly the account’s five tries in total', async () => {
    const [a, b] = instances as [Instance, Instance];
    const page = await fromAddress('127.0.0.4', `${a.url}/dashboard/sign-in`);
    const cookie = String(page.headers['set-cookie']![0]).split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const signIn = (instance: Instance) =>
      fromAddress('127.0.0.4', `${instance.url}/dashboard/sign-in`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'guessed@cluster.example', password: 'not the password', csrf }).toString(),
      });
    const statuses = (await Promise.all(Array.from({ length: 8 }, (_, i) => signIn(i % 2 ? b : a)))).map((r) => r.status);
    assert.deepEqual(
      statuses.sort((x, y) => x - y),
      [401, 401, 401, 401, 401, 429, 429, 429],
    );
    const throttled = await signIn(b);
    assert.ok(Number(throttled.headers['retry-after']) > 0, JSON.stringify(throttled.headers));
  });

  test('bad API keys and unknown agent tokens from one address across A and B: 429 after exactly the limit in total', async () => {
    const [a, b] = instances as [Instance, Instance];
    const LIMIT = 30; // auth/refusalThrottle.ts: 30 refusals per address per 10 s
    const badKeys = await Promise.all(
      Array.from({ length: LIMIT + 10 }, (_, i) =>
        fromAddress('127.0.0.2', `${(i % 2 ? b : a).url}/v1/companies`, {
          headers: { authorization: `Bearer lb_live_${'x'.repeat(32)}`, 'x-connection-id': connectionId },
        }),
      ),
    );
    const statuses = badKeys.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 401).length, LIMIT, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 429).length, 10, statuses.join(' '));
    assert.ok(badKeys.filter((r) => r.status === 429).every((r) => Number(r.headers['retry-after']) >= 1));
    // The address's good key is never throttled.
    const good = await fromAddress('127.0.0.2', `${b.url}/v1/companies`, {
      headers: { authorization: `Bearer ${key}`, 'x-connection-id': connectionId },
    });
    assert.equal(good.status, 200, good.text);

    const upgrades = await Promise.all(
      Array.from({ length: LIMIT + 10 }, (_, i) =>
        fromAddress('127.0.0.3', `${(i % 2 ? b : a).url}/agent`, {
          headers: {
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': randomBytes(16).toString('base64'),
            authorization: 'Bearer not-a-token',
          },
        }),
      ),
    );
    const upgradeStatuses = upgrades.map((r) => r.status);
    assert.equal(upgradeStatuses.filter((s) => s === 401).length, LIMIT, upgradeStatuses.join(' '));
    assert.equal(upgradeStatuses.filter((s) => s === 429).length, 10, upgradeStatuses.join(' '));
  });

  test('rolling restart of both instances under steady load: no request fails except with a retryable 503', async () => {
    const outcomes = { ok: 0, retryable: 0, resent: 0, failed: [] as string[] };
    let running = true;
    /**
     * A keep-alive connection closed by an instance as the client sent on it gets no answer at all;
     * a balancer sends such a request again (HAProxy: `retry-on empty-response`, deploy/cluster), and
     * so does this client, once. The instance never saw it, so nothing runs twice.
     */
    const resendOnEmpty = async () => {
      try {
        return await get(balancer.url, '/v1/customers?limit=20');
      } catch (error) {
        if (!/other side closed|ECONNRESET/.test(String((error as Error).cause ?? error))) throw error;
        outcomes.resent += 1;
        return await get(balancer.url, '/v1/customers?limit=20');
      }
    };
    const client = async () => {
      while (running) {
        try {
          const res = await resendOnEmpty();
          if (res.status === 200) outcomes.ok += 1;
          else if (res.status === 503 && JSON.parse(res.text).error.code === 'CONNECTION_OFFLINE') outcomes.retryable += 1;
          else outcomes.failed.push(`${res.status} ${res.text.slice(0, 200)}`);
        } catch (error) {
          outcomes.failed.push(`network: ${String((error as Error).cause ?? error)}`);
        }
      }
    };
    const clients = [client(), client(), client()];
    for (const name of ['A', 'B']) {
      const old = instances.find((i) => i.name === name && i.child.exitCode === null)!;
      const before = outcomes.ok;
      await waitFor('load to be served', () => (outcomes.ok > before + 20 ? true : null), 20_000);
      // As a load balancer does on a deploy: the instance leaves the pool, then gets SIGTERM and drains.
      balancer.backends = balancer.backends.filter((p) => p !== old.port);
      const code = await old.stop('SIGTERM');
      assert.equal(code, 0, old.output().slice(-2000));
      assert.match(old.output(), /drained; agents told to reconnect elsewhere/);
      const fresh = await startInstance(name);
      balancer.backends = [...balancer.backends, fresh.port];
    }
    const before = outcomes.ok;
    await waitFor('load to be served after both restarts', () => (outcomes.ok > before + 20 ? true : null), 20_000);
    running = false;
    await Promise.all(clients);
    console.log(
      `rolling restart: ${JSON.stringify({ ok: outcomes.ok, retryable503: outcomes.retryable, resentUnanswered: outcomes.resent, failed: outcomes.failed.length })}`,
    );
    assert.deepEqual(outcomes.failed, []);
  });

  test('an instance killed: requests for its agent fail fast with 503, and the agent is served through the other within seconds', async () => {
    const running = live();
    const holder = running.find((i) => new RegExp(`"connectionId":"${connectionId}"[^\\n]*"msg":"agent connected"`).test(i.output()));
    assert.ok(holder, 'no instance logged the agent');
    const other = running.find((i) => i !== holder)!;
    balancer.backends = [other.port];
    // A slow query forwarded to the holder, which dies while it runs: the client is not kept waiting for its deadline.
    const reached = countLogged(agent.output(), 'request started');
    const slow = get(other.url, '/v1/customers?limit=5&q=a');
    await waitFor('the slow list to reach the agent', () => (countLogged(agent.output(), 'request started') > reached ? true : null));
    await holder.stop('SIGKILL');
    const started = Date.now();
    const cut = await slow;
    assert.equal(cut.status, 503, cut.text);
    assert.equal(JSON.parse(cut.text).error.code, 'CONNECTION_OFFLINE');
    assert.ok(Date.now() - started < 2_500, `the forwarded request failed ${Date.now() - started} ms after the kill`);
    await waitFor('the agent to be served through the survivor', served(other), 10_000);
    assert.ok(Date.now() - started < 10_000);
    // The operator CLI reads Redis presence: one agent, on the survivor. The store alone would count
    // the killed instance's session too until it goes stale, a minute later.
    const cliEnv = { DATA_DIR: path.join(root, 'instance-1'), DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    const status: string = await waitFor(
      'the CLI to show the agent on the survivor',
      async () => {
        const cli = await runGatewayCli(['connection', 'list', '--org', 'Cluster Co'], cliEnv);
        assert.equal(cli.code, 0, cli.stderr);
        return /hq[^\n]*connected \(1 agent;/.test(cli.stdout) ? cli.stdout : null;
      },
      10_000,
    );
    const hqAgents = /\n\S+ +hq .*\n((?: {4}- .*\n)*)/.exec(status)![1]!.trim().split('\n');
    assert.equal(hqAgents.length, 1, status);
    const withoutRedis = await runGatewayCli(['connection', 'list', '--org', 'Cluster Co'], { ...cliEnv, REDIS_URL: '' });
    assert.match(withoutRedis.stdout, /hq[^\n]*connected \(2 agents;/, 'the store alone still counts the killed instance’s session');
  });

  test('an instance killed mid-delivery: the other sends the event again with the same webhook-id, and it is delivered once', async () => {
    // The test before may have killed one: two live instances, either of which may claim the delivery.
    if (live().length < 2) await startInstance('C');
    const [first, second] = live() as [Instance, Instance];
    const cliEnv = {
      DATA_DIR: path.join(root, 'instance-1'),
      DATABASE_URL: databaseUrl,
      WEBHOOK_SECRETS_KEY: webhookSecretsKey,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    };
    // The receiver holds every request to /killed/hang open, unanswered, until released. The endpoint
    // subscribes to a type no test raises: it gets only the test event sent below.
    const created = await runGatewayCli(
      ['webhook', 'create', '--org', 'Cluster Co', '--url', `${receiver.origin}/killed/hang`, '--types', 'endpoint.disabled'],
      cliEnv,
    );
    assert.equal(created.code, 0, created.stderr);
    const endpointId = /endpoint (we_\S+)/.exec(created.stdout)![1]!;
    await receiver.secrets('killed', [/^(whsec_\S+)$/m.exec(created.stdout)![1]!]);
    const queued = await runGatewayCli(['webhook', 'test', endpointId, '--org', 'Cluster Co'], cliEnv);
    assert.equal(queued.code, 0, queued.stderr);
    const eventId = /test event (evt_\S+)/.exec(queued.stdout)![1]!;

    const ofEvent = () => receiver.received.filter((r) => r.name === 'killed');
    await receiver.until(() => ofEvent().length >= 1);
    const held = ofEvent()[0]!;
    const receiverPort = Number(new URL(receiver.origin).port);
    const holderPid = processHoldingConnection([first.child.pid!, second.child.pid!], held.remotePort, receiverPort);
    const holder = [first, second].find((i) => i.child.pid === holderPid);
    assert.ok(holder, 'no instance holds the connection the receiver is holding');
    const survivor = holder === first ? second : first;
    await holder.stop('SIGKILL');
    // From now on the receiver answers 204; the survivor claims the delivery once the lease has run out.
    await receiver.release('killed');
    await receiver.until(() => ofEvent().length >= 2);

    const [before, again] = ofEvent() as [ReceivedDelivery, ReceivedDelivery];
    assert.equal(before.webhookId, eventId);
    assert.equal(again.webhookId, eventId, 'the same webhook-id, so the receiver can tell it is the same event');
    assert.ok(before.verified && again.verified, 'both verified with the standardwebhooks library');
    assert.equal(again.body, before.body, 'the same bytes');
    const deliveries = await waitFor('the delivery to be recorded as delivered', async () => {
      const res = await get(survivor.url, `/v1/webhook-deliveries?endpointId=${endpointId}`);
      assert.equal(res.status, 200, res.text);
      const page = JSON.parse(res.text) as { data: { eventId: string; status: string; attempts: number }[] };
      return page.data.every((d) => d.status === 'succeeded') ? page.data : null;
    });
    assert.deepEqual(
      deliveries.map((d) => [d.eventId, d.status, d.attempts]),
      [[eventId, 'succeeded', 1]],
      'one delivery, delivered by the one attempt that was answered',
    );
    assert.equal(ofEvent().length, 2, 'sent once more, not again after it was delivered');
  });
});
