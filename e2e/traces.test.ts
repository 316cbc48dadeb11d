import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { provisionOrganisation } from '@gp-gateway/gateway/testing';
import {
  skipWithoutClusterServers,
  startNats,
  startPostgresServer,
  startRedis,
  type NatsServer,
  type PostgresServer,
  type RedisServer,
} from '@gp-gateway/testing';
import { startAgentProcess, startGatewayProcess, waitFor, type Started } from './support/processes.ts';

/**
 * One trace from the client's request to the SQL statement (docs/operations.md#traces), as an
 * OTLP/HTTP receiver in this test sees it: a request sent to gateway B for a connection whose agent
 * is on gateway A crosses NATS to A, the agent frame to the agent process, and the agent's SQL. Two
 * gateway processes on PostgreSQL, Redis and NATS (started here) and an agent process, all exporting
 * to the receiver because OTEL_EXPORTER_OTLP_ENDPOINT names it; each span's parent is checked.
 */
const skip = skipWithoutClusterServers('traces across instances');

interface Span {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

/** A minimal OTLP/HTTP (JSON) trace receiver: collects spans, and wakes whoever waits for some. */
async function otlpReceiver() {
  const spans: Span[] = [];
  const waiting = new Set<() => void>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      assert.equal(req.url, '/v1/traces');
      for (const rs of JSON.parse(body).resourceSpans ?? []) {
        const service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            const attributes = Object.fromEntries(
              (s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value as Record<string, unknown>)[0]]),
            );
            spans.push({
              service,
              name: s.name,
              kind: s.kind,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              attributes,
            });
          }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    /** Resolves once `probe` holds of the spans received, checked on each export. */
    until(probe: (spans: Span[]) => boolean, timeoutMs = 30_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`spans never arrived; received: ${spans.map((s) => `${s.service} ${s.name}`).join(', ')}`));
        }, timeoutMs);
        const check = () => {
          if (!probe(spans)) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('traces across two gateway instances and an agent', { skip }, () => {
  let root: string;
  let pg: PostgresServer;
  let redis: RedisServer;
  let nats: NatsServer;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  const processes: Started[] = [];
  let a: Started & { url: string };
  let b: Started & { url: string };
  let key = '';
  let connectionId = '';

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-traces-'));
    const site = path.join(root, 'site');
    generateDemo({ dir: site, scale: 1 });
    generateDemo({ dir: path.join(root, 'demo'), scale: 1 });
    receiver = await otlpReceiver();
    [pg, redis, nats] = await Promise.all([startPostgresServer(), startRedis(), startNats()]);
    const databaseUrl = await pg.createDatabase();
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    const cursorSecret = randomBytes(32).toString('hex');
    const instance = async (name: string) => {
      const dataDir = path.join(root, name);
      fs.cpSync(path.join(root, 'demo'), path.join(dataDir, 'demo'), { recursive: true });
      const started = await startGatewayProcess(dataDir, {
        ...otel,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis.url,
        NATS_URL: nats.url,
        CURSOR_SECRET: cursorSecret,
        INSTANCE_ID: name,
        LOG_LEVEL: 'info',
      });
      processes.push(started);
      return started;
    };
    a = await instance('A');
    const customer = await provisionOrganisation(path.join(root, 'A'), {
      organisation: 'Traced Co',
      limits: { requestsPerWindow: 100_000, windowSeconds: 1 },
      connections: ['hq'],
      databaseUrl,
    });
    key = customer.liveKey;
    const { id, token } = customer.connections.hq!;
    connectionId = id;
    // The agent dials A only: a request to B must cross NATS to reach it.
    processes.push(startAgentProcess(a.url, token, site, { ...otel, GP_AGENT_METRICS: 'off', LOG_LEVEL: 'info' }));
    await waitFor('the agent to serve through A', async () => ((await get(a.url, '/v1/customers?limit=1')).status === 200 ? true : null));
    b = await instance('B');
  });

  after(async () => {
    for (const p of processes) await p.stop('SIGKILL');
    await Promise.all([redis?.stop(), nats?.stop(), pg?.stop()]);
    await receiver?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const get = async (base: string, pathAndQuery: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${pathAndQuery}`, {
      headers: { authorization: `Bearer ${key}`, 'x-connection-id': connectionId, ...headers },
    });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  };

  test("a client's request to B: one trace through B, NATS, A, the agent frame and the SQL statement, each span the child of the one before", async () => {
    const { body: page } = await get(a.url, '/v1/customers?limit=1');
    const customerId = page.data[0].id as string;
    // The client's own span: the trace continues it.
    const traceId = randomBytes(16).toString('hex');
    const clientSpan = randomBytes(8).toString('hex');
    const res = await get(b.url, `/v1/customers/${encodeURIComponent(customerId)}`, { traceparent: `00-${traceId}-${clientSpan}-01` });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('traceresponse')!, new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const chain: Array<[service: string, name: string | RegExp]> = [
      ['gp-gateway', 'GET /v1/:object/:id'],
      ['gp-gateway', 'nats forward get'],
      ['gp-gateway', 'nats serve get'],
      ['gp-gateway', 'agent get'],
      ['gp-agent', 'gp-agent get'],
      ['gp-agent', 'sql SELECT'],
    ];
    const find = (spans: Span[], [service, name]: (typeof chain)[number]) =>
      spans.find((s) => s.traceId === traceId && s.service === service && (typeof name === 'string' ? s.name === name : name.test(s.name)));
    await receiver.until((spans) => chain.every((link) => find(spans, link)));
    const found = chain.map((link) => find(receiver.spans, link)!);
    assert.equal(found[0]!.parentSpanId, clientSpan, "the gateway's span continues the client's");
    for (let i = 1; i < found.length; i++) {
      assert.equal(found[i]!.parentSpanId, found[i - 1]!.spanId, `${found[i]!.name} is the child of ${found[i - 1]!.name}`);
    }
    assert.equal(found[0]!.attributes['http.response.status_code'], 200);
    assert.equal(found[0]!.attributes['http.route'], '/v1/:object/:id');
    assert.equal(found[4]!.attributes['gp.outcome'], 'ok');
    assert.equal(found[5]!.attributes['db.system.name'], 'sqlite');
    assert.match(String(found[5]!.attributes['db.query.text']), /^SELECT /);
    assert.doesNotMatch(String(found[5]!.attributes['db.query.text']), new RegExp(customerId.trim()), 'values are bound, not in the text');

    // The log lines of the request carry its trace id; JSON log lines name their component once.
    const request = await waitFor('B to log the request', () =>
      b
        .output()
        .split('\n')
        .find((l) => l.includes('"msg":"request"') && l.includes(`"traceId":"${traceId}"`)),
    );
    assert.match(request, /"status":200/);
    for (const line of [...a.output().split('\n'), ...b.output().split('\n')].filter((l) => l.startsWith('{'))) {
      assert.ok((line.match(/"component":/g) ?? []).length <= 1, `component repeated: ${line}`);
    }
  });
});
