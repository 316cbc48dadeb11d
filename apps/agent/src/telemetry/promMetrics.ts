import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { subscribeAgentEvents } from './events.ts';

/** Seconds: from an indexed get (a few ms) to a long list near the gateway's 30 s deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface AgentMetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The agent's Prometheus metrics (docs/operations.md#agent-metrics), counted from its events
 * (events.ts) and served at `GET /metrics` on `host:port`, loopback by default.
 */
export async function startAgentMetrics(host: string, port: number): Promise<AgentMetricsServer> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const operations = new Counter({
    name: 'gp_agent_operations_total',
    help: 'Operations the gateway sent, by kind, API object and outcome (ok, or the error code answered).',
    labelNames: ['kind', 'object', 'outcome'] as const,
    registers,
  });
  const operationSeconds = new Histogram({
    name: 'gp_agent_operation_duration_seconds',
    help: 'Time from an operation arriving to its answer being sent, by kind.',
    labelNames: ['kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sqlSeconds = new Histogram({
    name: 'gp_agent_sql_duration_seconds',
    help: 'Time each SQL Server statement of a read took, rows streamed included.',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sqlErrors = new Counter({
    name: 'gp_agent_sql_errors_total',
    help: "SQL Server statements that failed, by SQL Server's error number (`none`: no number, e.g. a lost connection).",
    labelNames: ['number'] as const,
    registers,
  });
  const connected = new Gauge({ name: 'gp_agent_connected', help: '1 while the gateway has accepted this agent.', registers });
  const reconnects = new Counter({
    name: 'gp_agent_reconnects_total',
    help: 'Times the agent was accepted by the gateway again after losing it.',
    registers,
  });
  const closes = new Counter({
    name: 'gp_agent_connection_closes_total',
    help: 'Connections to the gateway that ended, by WebSocket close code (`none`: it never opened).',
    labelNames: ['code'] as const,
    registers,
  });
  connected.set(0);
  reconnects.inc(0);
  const unsubscribe = subscribeAgentEvents({
    operation(event) {
      operations.inc({ kind: event.kind, object: event.object, outcome: event.outcome });
      operationSeconds.observe({ kind: event.kind }, event.seconds);
    },
    sql(event) {
      sqlSeconds.observe(event.seconds);
      if (event.failed) sqlErrors.inc({ number: event.errorNumber === null ? 'none' : String(event.errorNumber) });
    },
    connection(event) {
      if (event.event === 'welcomed') {
        connected.set(1);
        if (event.reconnect) reconnects.inc();
      } else {
        connected.set(0);
        closes.inc({ code: event.code === null ? 'none' : String(event.code) });
      }
    },
  });

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://agent').pathname;
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => resolve());
    });
  } catch (error) {
    unsubscribe();
    throw error;
  }
  // Never what keeps the agent running: it exits when its connection loop ends.
  server.unref();
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
