import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  demoDir,
  ensureDatabase,
  load,
  log,
  memory,
  resetPeakMemory,
  ROOT,
  sampleCustomerIds,
  SCALE,
  startGatewayAndAgent,
  startProcess,
} from './system.ts';
import { walk } from './walk.ts';
import { DEEP_PAGE_TARGET, deepPagesTable, measureDeepPages, type DeepPage } from './deepPages.ts';
import { loadInTurns, sequential, TURN_SECONDS } from './turns.ts';
import { measureWrites, writesCpuLines, writesTable, writeTargets, type WriteResults } from './writes.ts';

/**
 * `pnpm bench`: the gateway and an agent as separate processes over loopback, side by side with the
 * floor (bench/floorServer.ts: the same reads served in-process by a bare node:http server), on a
 * large embedded database. Prints one table with each figure's ratio to the floor and writes it to
 * bench/results/latest.json. BENCH_SCALE (default 200: 1M GL lines, 100k customers per company)
 * and BENCH_SECONDS (default 8 per load scenario) size it. Writes (bench/writes.ts) follow the reads;
 * BENCH_WRITES=0 skips them.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 16;

async function main() {
  ensureDatabase();
  log('first page vs deep page, per list and filter (the agent alone)');
  const deepPages = await measureDeepPages();
  const customerIds = sampleCustomerIds();
  const company = new Database(path.join(demoDir, 'TWO.sqlite'), { readonly: true });
  // What /v1/gl-entries lists: both years' lines without the year-end closing rows (docs/api.md#which-rows-each-list-holds).
  const glLines = Number(
    company
      .prepare(
        "SELECT (SELECT count(*) FROM GL20000 WHERE rtrim(SOURCDOC) NOT IN ('BBF', 'P/L')) + (SELECT count(*) FROM GL30000 WHERE rtrim(SOURCDOC) NOT IN ('BBF', 'P/L'))",
      )
      .pluck()
      .get(),
  );
  company.close();

  const floor = await startProcess('bench/floorServer.ts', [demoDir]);
  // Measured as operators run it: the gateway's and the agent's Prometheus metrics on (issue 37).
  const system = await startGatewayAndAgent([], { env: { BENCH_GATEWAY_METRICS: '1', GP_AGENT_METRICS: '127.0.0.1:0' } });
  const { gateway, agent, auth } = system;
  const gw = system.url;
  const fl = `http://127.0.0.1:${floor.port}`;
  let i = 0;
  const anyCustomer = () => encodeURIComponent(customerIds[i++ % customerIds.length]!);
  const rows: Record<string, { gateway: number; floor: number; unit: string; better: 'higher' | 'lower' }> = {};
  // Where a throughput goes: each process's CPU while the gateway side ran, and the requests (or pages) it served.
  const cpuPer: Record<string, { gateway: number; agent: number; units: number }> = {};
  const withCpu = async <T>(name: string, work: () => Promise<T>, units: (result: T) => number): Promise<T> => {
    const before = system.cpu();
    const result = await work();
    const after = system.cpu();
    const spent = cpuPer[name] ?? { gateway: 0, agent: 0, units: 0 };
    spent.gateway += after.gateway - before.gateway;
    spent.agent += after.agent - before.agent;
    spent.units += units(result);
    cpuPer[name] = spent;
    return result;
  };
  const record = (name: string, unit: string, better: 'higher' | 'lower', g: number, f: number) => {
    rows[name] = { gateway: g, floor: f, unit, better };
    log(`  ${name}: gateway ${g.toFixed(2)} ${unit}, floor ${f.toFixed(2)} ${unit}`);
  };

  // Both sides read the same files: warm the page cache with every row either will read first, or
  // whichever runs first pays for the disk and the comparison measures the cache, not the gateway.
  log('warming up');
  for (const id of customerIds) await (await fetch(`${fl}/v1/customers/${encodeURIComponent(id)}`)).arrayBuffer();
  await load(gw, auth, () => '/v1/customers?limit=100', 4, 2);
  await load(fl, {}, () => '/v1/customers?limit=100', 4, 2);

  log(`list and get, ${CONCURRENCY} connections, ${SECONDS} s each in turns of ${TURN_SECONDS} s`);
  const [listG, listF] = await loadInTurns(
    [
      { base: gw, headers: auth, path: () => '/v1/customers?limit=100' },
      { base: fl, headers: {}, path: () => '/v1/customers?limit=100' },
    ],
    CONCURRENCY,
    (run) => withCpu('list', run, (r) => r.requests),
    SECONDS,
  );
  record('list customers (limit 100) throughput', 'req/s', 'higher', listG.rps, listF.rps);
  record('list customers p99', 'ms', 'lower', listG.p99, listF.p99);
  const [getG, getF] = await loadInTurns(
    [
      { base: gw, headers: auth, path: () => `/v1/customers/${anyCustomer()}` },
      { base: fl, headers: {}, path: () => `/v1/customers/${anyCustomer()}` },
    ],
    CONCURRENCY,
    (run) => withCpu('get', run, (r) => r.requests),
    SECONDS,
  );
  record('get customer throughput', 'req/s', 'higher', getG.rps, getF.rps);
  record('get customer p99', 'ms', 'lower', getG.p99, getF.p99);

  log('latency at concurrency 1');
  const [list1G, list1F] = await sequential(
    [
      { base: gw, headers: auth, path: () => '/v1/customers?limit=100' },
      { base: fl, headers: {}, path: () => '/v1/customers?limit=100' },
    ] as const,
    SECONDS,
  );
  record('list p50 at concurrency 1', 'ms', 'lower', list1G.p50, list1F.p50);
  const [get1G, get1F] = await sequential(
    [
      { base: gw, headers: auth, path: () => `/v1/customers/${anyCustomer()}` },
      { base: fl, headers: {}, path: () => `/v1/customers/${anyCustomer()}` },
    ] as const,
    SECONDS,
  );
  record('get p50 at concurrency 1', 'ms', 'lower', get1G.p50, get1F.p50);

  log(`export of ${glLines.toLocaleString('en')} GL lines at limit 1000, twice on each side: the first warms up`);
  // An export runs on a server that has been up. The first pass pays for compiling its code, for
  // the agent's heaps and allocator arenas growing to their working size (its RSS settles only
  // after some 150 pages) and for reading the table into the OS's cache, which then serves both
  // sides alike; the second is the steady rate, and the one whose memory is judged.
  await walk(
    `${gw}/v1/gl-entries?limit=1000`,
    (c) => `${gw}/v1/gl-entries?limit=1000&cursor=${encodeURIComponent(c)}`,
    auth,
    Infinity,
    () => {},
  );
  await walk(
    `${fl}/v1/gl-entries?limit=1000`,
    (c) => `${fl}/v1/gl-entries?limit=1000&after=${c}`,
    {},
    Infinity,
    () => {},
  );
  const agentMemory: number[] = [];
  let pages = 0;
  // Every tenth page: reading /proc is the client's work, which should not slow the walk it measures.
  const sample = () => {
    if (pages++ % 10 === 0) agentMemory.push(memory(agent.pid!).rss);
  };
  const deep = Math.min(1_000_000, Math.floor(glLines * 0.9));
  const exportG = await withCpu(
    'export page',
    () =>
      walk(`${gw}/v1/gl-entries?limit=1000`, (c) => `${gw}/v1/gl-entries?limit=1000&cursor=${encodeURIComponent(c)}`, auth, deep, sample),
    () => pages,
  );
  const exportF = await walk(
    `${fl}/v1/gl-entries?limit=1000`,
    (c) => `${fl}/v1/gl-entries?limit=1000&after=${c}`,
    {},
    deep,
    () => {},
  );
  for (const [side, walked] of [
    ['gateway', exportG],
    ['floor', exportF],
  ] as const) {
    if (walked.rows !== glLines) throw new Error(`the ${side} export returned ${walked.rows} rows, the database holds ${glLines}`);
  }
  record('export GL lines (limit 1000)', 'rows/s', 'higher', exportG.rowsPerSecond, exportF.rowsPerSecond);

  log(`first page vs a page ${deep.toLocaleString('en')} rows deep (limit 100, concurrency 1)`);
  const [firstG, deepG, firstF, deepF] = await sequential(
    [
      { base: gw, headers: auth, path: () => '/v1/gl-entries?limit=100' },
      { base: gw, headers: auth, path: () => `/v1/gl-entries?limit=100&cursor=${encodeURIComponent(exportG.deepCursor!)}` },
      { base: fl, headers: {}, path: () => '/v1/gl-entries?limit=100' },
      { base: fl, headers: {}, path: () => `/v1/gl-entries?limit=100&after=${exportF.deepCursor}` },
    ] as const,
    SECONDS,
  );
  record('first page p50', 'ms', 'lower', firstG.p50, firstF.p50);
  record('deep page p50', 'ms', 'lower', deepG.p50, deepF.p50);

  log('1,000 requests in flight');
  // The peak of this scenario, not of the process's life: the export before it holds pages of its own.
  const lifetimePeak = memory(gateway.child.pid!).peak;
  resetPeakMemory(gateway.child.pid!);
  const before = memory(gateway.child.pid!);
  const flood = await load(gw, auth, () => '/v1/customers?limit=100', 1000, SECONDS / 2);
  const after = memory(gateway.child.pid!);

  const result = {
    ranAt: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    scale: SCALE,
    glLines,
    secondsPerScenario: SECONDS,
    rows,
    deepPages,
    derived: {
      throughputRatioList: rows['list customers (limit 100) throughput']!.gateway / rows['list customers (limit 100) throughput']!.floor,
      throughputRatioGet: rows['get customer throughput']!.gateway / rows['get customer throughput']!.floor,
      addedP50ListMs: list1G.p50 - list1F.p50,
      addedP50GetMs: get1G.p50 - get1F.p50,
      deepOverFirstPage: deepG.p50 / firstG.p50,
      exportRowsPerSecond: exportG.rowsPerSecond,
      gatewayPeakRssMB: after.peak,
      gatewayPeakRssBeforeFloodMB: lifetimePeak,
      gatewayRssBeforeFloodMB: before.rss,
      floodErrors: flood.errors,
      // Flat means no growth once warm: the first tenth of the pages fills caches and heaps. RSS
      // rises and falls with each garbage collection (tens of MB), so the tenth is judged by its
      // peak, not by one sample that may fall in a trough.
      agentRssDuringExportMB: {
        first: agentMemory[0],
        peakFirstTenth: Math.max(...agentMemory.slice(0, Math.floor(agentMemory.length / 10) + 1)),
        peakAfterFirstTenth: Math.max(...agentMemory.slice(Math.floor(agentMemory.length / 10) + 1)),
        last: agentMemory.at(-1),
      },
      agentPeakRssMB: memory(agent.pid!).peak,
      cpuMsPer: Object.fromEntries(
        Object.entries(cpuPer).map(([name, spent]) => [name, { gateway: spent.gateway / spent.units, agent: spent.agent / spent.units }]),
      ),
    },
  };
  await system.stop();
  floor.child.kill('SIGTERM');

  // Writes last, on processes and database copies of their own (bench/writes.ts), once the read
  // system has stopped. BENCH_WRITES=0 skips them.
  const writes = process.env.BENCH_WRITES === '0' ? null : await measureWrites(SECONDS);
  const targets = [...targetsOf(result.rows, result.derived, result.deepPages), ...(writes ? writeTargets(writes) : [])];
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify({ ...result, writes, targets }, null, 2)}\n`);
  printTable(result, writes, targets);
  console.log(`\n${deepPagesTable(deepPages)}`);
}

function printTable(
  result: {
    rows: Record<string, { gateway: number; floor: number; unit: string; better: string }>;
    derived: Record<string, unknown>;
    machine: unknown;
    scale: number;
    glLines: number;
    deepPages: readonly DeepPage[];
  },
  writes: WriteResults | null,
  targets: ReadonlyArray<{ name: string; met: boolean; value: string }>,
) {
  const lines = ['| measure | gateway + agent | floor | ratio |', '|---|---:|---:|---:|'];
  for (const [name, r] of Object.entries(result.rows)) {
    const digits = r.unit === 'ms' ? 2 : 0;
    lines.push(
      `| ${name} | ${r.gateway.toFixed(digits)} ${r.unit} | ${r.floor.toFixed(digits)} ${r.unit} | ${(r.gateway / r.floor).toFixed(2)}× |`,
    );
  }
  const d = result.derived as any;
  lines.push(
    '',
    `- added p50 at concurrency 1: list ${d.addedP50ListMs.toFixed(2)} ms, get ${d.addedP50GetMs.toFixed(2)} ms`,
    `- deep page / first page (gateway p50): ${d.deepOverFirstPage.toFixed(2)}×`,
    `- export: ${Math.round(d.exportRowsPerSecond).toLocaleString('en')} rows/s over ${result.glLines.toLocaleString('en')} GL lines`,
    `- gateway peak RSS with 1,000 requests in flight: ${d.gatewayPeakRssMB.toFixed(0)} MB (errors during the flood: ${d.floodErrors}); before the flood, its peak was ${d.gatewayPeakRssBeforeFloodMB.toFixed(0)} MB`,
    `- agent RSS during the export (every 10th page): first page ${d.agentRssDuringExportMB.first?.toFixed(0)} MB, at most ${d.agentRssDuringExportMB.peakFirstTenth.toFixed(0)} MB in the first tenth of the pages, at most ${d.agentRssDuringExportMB.peakAfterFirstTenth.toFixed(0)} MB after it, last ${d.agentRssDuringExportMB.last?.toFixed(0)} MB; agent peak ${d.agentPeakRssMB.toFixed(0)} MB`,
    `- CPU per request at ${CONCURRENCY} connections (ms): list gateway ${d.cpuMsPer.list.gateway.toFixed(3)}, agent ${d.cpuMsPer.list.agent.toFixed(3)}; get gateway ${d.cpuMsPer.get.gateway.toFixed(3)}, agent ${d.cpuMsPer.get.agent.toFixed(3)}; per 1000-row export page: gateway ${d.cpuMsPer['export page'].gateway.toFixed(2)}, agent ${d.cpuMsPer['export page'].agent.toFixed(2)}`,
    `- machine: ${JSON.stringify(result.machine)}, scale ${result.scale}`,
  );
  if (writes) {
    const cpu = writesCpuLines(writes);
    lines.push(
      '',
      `Writes (a fresh copy of the scale-${writes.scale} demo per side, a new Idempotency-Key per write through the gateway):`,
      '',
      '| measure | gateway + agent | floor | ratio |',
      '|---|---:|---:|---:|',
      ...writesTable(writes),
      '',
      ...cpu,
    );
  }
  lines.push(
    '',
    'Targets (issues 8 and 19):',
    ...targets.map(({ name, met, value }) => `- ${met ? 'met' : 'NOT MET'}: ${name} (${value})`),
  );
  console.log(lines.join('\n'));
}

/** Issue 8's targets, each checked against this run. */
function targetsOf(
  rows: Record<string, { gateway: number; floor: number }>,
  d: any,
  deepPages: readonly DeepPage[],
): Array<{ name: string; met: boolean; value: string }> {
  const ratio = (name: string) => rows[name]!.gateway / rows[name]!.floor;
  const listRatio = ratio('list customers (limit 100) throughput');
  const getRatio = ratio('get customer throughput');
  const { peakFirstTenth, peakAfterFirstTenth } = d.agentRssDuringExportMB;
  return [
    {
      name: 'throughput at least 0.5x the floor',
      met: listRatio >= 0.5 && getRatio >= 0.5,
      value: `list ${listRatio.toFixed(2)}x, get ${getRatio.toFixed(2)}x`,
    },
    {
      name: 'added p50 under 1 ms at concurrency 1',
      met: d.addedP50ListMs < 1 && d.addedP50GetMs < 1,
      value: `list ${d.addedP50ListMs.toFixed(2)} ms, get ${d.addedP50GetMs.toFixed(2)} ms`,
    },
    { name: 'deep page within 1.3x the first', met: d.deepOverFirstPage <= 1.3, value: `${d.deepOverFirstPage.toFixed(2)}x` },
    {
      name: `every list's deep page within ${DEEP_PAGE_TARGET}x its first, on GP's indexes (issue 18)`,
      met: deepPages.every((p) => p.ratio <= DEEP_PAGE_TARGET),
      value: deepPages.map((p) => `${p.list} ${p.ratio.toFixed(2)}x`).join(', '),
    },
    {
      name: 'export at least 200,000 rows/s',
      met: d.exportRowsPerSecond >= 200_000,
      value: `${Math.round(d.exportRowsPerSecond).toLocaleString('en')} rows/s`,
    },
    {
      name: 'gateway RSS under 300 MB with 1,000 requests in flight',
      met: d.gatewayPeakRssMB < 300 && d.floodErrors === 0,
      value: `${d.gatewayPeakRssMB.toFixed(0)} MB`,
    },
    // "Flat": after the first tenth of the pages, never more than 10% above that tenth's peak.
    {
      name: 'agent RSS flat during the export',
      met: peakAfterFirstTenth <= peakFirstTenth * 1.1,
      value: `${peakFirstTenth.toFixed(0)} -> at most ${peakAfterFirstTenth.toFixed(0)} MB`,
    },
  ];
}

await main();
process.exit(0);
