import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuSide, customerPaths, loadTurn, measuredTurn, type CpuSide } from './cpuTurns.ts';
import { ensureDatabase, log, sampleCustomerIds, startGatewayAndAgent } from './system.ts';

/**
 * `pnpm bench:observability [get|list] [turns]`: what metrics and tracing cost (docs/performance.md).
 * Four systems of this tree run at once: everything off, metrics on (the gateway's on a port of
 * their own, the agent's default), metrics and tracing on (exported every 100 ms to a receiver here
 * that reads and discards the spans), and the same with 10% of traces sampled. The 16-connection load goes to each in 1 s turns, in
 * rotating order, so that all three see the same shared machine (as bench/ab.ts does for two refs).
 * Prints each one's requests per second and gateway and agent CPU per request, against `off`.
 */
const [scenario = 'get', turnsArg] = process.argv.slice(2);
const TURNS = Number(turnsArg ?? 12);
if (!['get', 'list'].includes(scenario) || !(TURNS > 0)) {
  console.error('usage: pnpm bench:observability [get|list] [turns]');
  process.exit(1);
}

const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
const otlp = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

ensureDatabase();
const ids = sampleCustomerIds();
const sides: CpuSide[] = [];
const start = async (name: string, env: NodeJS.ProcessEnv) => sides.push(cpuSide(name, await startGatewayAndAgent([], { env })));
await start('off', { GP_AGENT_METRICS: 'off' });
await start('metrics', { BENCH_GATEWAY_METRICS: '1', GP_AGENT_METRICS: '127.0.0.1:0' });
const traced = {
  BENCH_GATEWAY_METRICS: '1',
  GP_AGENT_METRICS: '127.0.0.1:0',
  OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
  OTEL_BSP_SCHEDULE_DELAY: '100',
};
await start('metrics+tracing', traced);
await start('+tracing 10%', { ...traced, OTEL_TRACES_SAMPLER_ARG: '0.1' });
const nextPath = customerPaths(scenario, ids);
try {
  for (const side of sides) await loadTurn(side.system, nextPath, 2);
  log(`${TURNS} turns of 1 s on each of ${sides.length} systems, ${scenario}, 16 connections`);
  for (let turn = 0; turn < TURNS; turn++) {
    for (let k = 0; k < sides.length; k++) await measuredTurn(sides[(turn + k) % sides.length]!, nextPath);
  }
  const off = sides[0]!;
  for (const s of sides) {
    console.log(
      `${s.name.padEnd(16)} ${(s.requests / TURNS).toFixed(0).padStart(6)} req/s (${((s.requests / off.requests) * 100).toFixed(1)}%), ` +
        `CPU per request: gateway ${(s.gateway / s.requests).toFixed(4)} ms (${((s.gateway / s.requests / (off.gateway / off.requests)) * 100).toFixed(1)}%), ` +
        `agent ${(s.agent / s.requests).toFixed(4)} ms (${((s.agent / s.requests / (off.agent / off.requests)) * 100).toFixed(1)}%)`,
    );
  }
} finally {
  for (const side of sides) await side.system.stop();
  sink.close();
}
