import { randomBytes } from 'node:crypto';
import { createLogger, openStore, startGateway } from '@gp-gateway/gateway';
import { startTracing } from '@gp-gateway/telemetry';

/**
 * The gateway for the benchmark: the real composition root, but without the built-in sandbox
 * agent (a worker thread in the same process would be counted in the gateway's memory). As in
 * production, traces when OTEL_EXPORTER_OTLP_ENDPOINT is set; BENCH_GATEWAY_METRICS=1 keeps the
 * Prometheus metrics (on a loopback port of their own), for bench/observability.ts.
 */
const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: gatewayServer.ts <data dir>');
const tracing = startTracing('gp-gateway');
const store = await openStore({ dataDir });
const gateway = await startGateway({
  store,
  log: createLogger('warn', { traceIds: tracing !== null }),
  cursorSecret: randomBytes(32),
  port: 0,
  host: '127.0.0.1',
  requestTimeoutMs: 60_000,
  tracing: tracing !== null,
  ...(process.env.BENCH_GATEWAY_METRICS === '1' ? { metrics: { port: 0 } } : {}),
});
console.log(`listening ${gateway.port}`);
// Exit cleanly on a signal, so that `node --cpu-prof` writes its profile when profiling the gateway.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void gateway.close().then(async () => (await tracing?.shutdown(), process.exit(0))));
