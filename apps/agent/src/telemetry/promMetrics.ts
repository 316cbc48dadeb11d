import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { startMetricsServer, type MetricsServer } from '@gp-gateway/telemetry';
import { subscribeAgentEvents } from './events.ts';

/** Seconds: from an indexed get (a few ms) to a long list near the gateway's 30 s deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type { MetricsServer as AgentMetricsServer } from '@gp-gateway/telemetry';

/**
 * The agent's Prometheus metrics (docs/operations.md#agent-metrics), counted from its events
 * (events.ts) and served at `GET /metrics` on `host:port`, loopback by default.
 */
export async function startAgentMetrics(host: string, port: number): Promise<MetricsServer> {
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
  const changePollSeconds = new Histogram({
    name: 'gp_agent_change_poll_duration_seconds',
    help: "Time one poll of change detection took (one object of one company): the load it puts on GP's database.",
    labelNames: ['object'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const changesFound = new Counter({
    name: 'gp_agent_changes_found_total',
    help: 'Changes change detection found and reported, by API object.',
    labelNames: ['object'] as const,
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
    changePoll(event) {
      changePollSeconds.observe({ object: event.object }, event.seconds);
      if (event.changes) changesFound.inc({ object: event.object }, event.changes);
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

  try {
    const server = await startMetricsServer({ host, port, render: () => registry.metrics(), contentType: registry.contentType });
    return {
      url: server.url,
      close: async () => {
        unsubscribe();
        await server.close();
      },
    };
  } catch (error) {
    unsubscribe();
    throw error;
  }
}
