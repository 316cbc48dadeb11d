import fs from 'node:fs';
import path from 'node:path';
import { ensureDatabase, load, log, ROOT, sampleCustomerIds, startGatewayAndAgent } from './system.ts';
import { walk } from './walk.ts';
import { ensureWritesDatabase, freshCopy, references, WRITE_OBJECTS, writes, type Measured } from './writes.ts';

/**
 * `pnpm bench:profile <list|get|export|sales-orders|gl-entries> [seconds]`: where the time goes.
 * Starts the gateway and an agent as `pnpm bench` does (for writes, with writes on and a fresh copy
 * of the writes database), but under `node --cpu-prof`, drives one scenario for `seconds`
 * (default 10), stops both (each thread writes its profile on exit) and prints each process's CPU
 * per request or page and, per thread, the functions that used the most of it. The profiles stay
 * in bench/.profiles/<time>/ for Chrome DevTools or speedscope.
 */
const [scenario = '', secondsArg] = process.argv.slice(2);
const SECONDS = Number(secondsArg ?? 10);
const WRITES: readonly string[] = WRITE_OBJECTS;
if (!['list', 'get', 'export', ...WRITES].includes(scenario) || !(SECONDS > 0)) {
  console.error(`usage: pnpm bench:profile <list|get|export|${WRITES.join('|')}> [seconds]`);
  process.exit(1);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in one profile, as shares of the thread's busy time. */
function hottest(file: string, count: number): { busyMs: number; rows: string[] } {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byNode = new Map<number, number>();
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const us = byNode.get(node.id) ?? 0;
    if (!us || functionName === '(idle)') continue;
    busy += us;
    const where = url
      ? `${url
          .replace(/^file:\/\//, '')
          .replace(`${ROOT}/`, '')
          .replace(/^.*node_modules\//, '')}:${lineNumber + 1}`
      : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const rows = [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `${((us / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
  return { busyMs: busy / 1000, rows };
}

async function main() {
  const writing = WRITES.includes(scenario) ? (scenario as Measured) : null;
  // Writes go to a fresh copy of the writes database (bench/writes.ts), at 16 connections as in `pnpm bench`.
  let writesDir: string | null = null;
  if (writing) {
    ensureWritesDatabase();
    writesDir = freshCopy('profile');
  } else ensureDatabase();
  const dir = path.join(ROOT, 'bench', '.profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  fs.mkdirSync(dir, { recursive: true });
  const system = await startGatewayAndAgent(
    ['--cpu-prof', '--cpu-prof-dir', dir],
    writesDir ? { dir: writesDir, writes: WRITE_OBJECTS } : {},
  );
  const pids = { gateway: system.gateway.child.pid!, agent: system.agent.pid! };
  const before = system.cpu();
  log(`profiling ${scenario} for ${SECONDS} s`);
  let units = 0;
  let unit = 'request';
  if (scenario === 'export') {
    unit = '1000-row page';
    const until = performance.now() + SECONDS * 1000;
    const first = `${system.url}/v1/gl-entries?limit=1000`;
    await walk(
      first,
      (c) => `${first}&cursor=${encodeURIComponent(c)}`,
      system.auth,
      Infinity,
      () => {
        units++;
        return performance.now() < until;
      },
    );
  } else if (writing) {
    unit = 'write';
    units = (await load(system.url, system.auth, writes(writing, references(writesDir!), true), 16, SECONDS)).requests;
  } else {
    const ids = sampleCustomerIds();
    let i = 0;
    const pathOf =
      scenario === 'list' ? () => '/v1/customers?limit=100' : () => `/v1/customers/${encodeURIComponent(ids[i++ % ids.length]!)}`;
    units = (await load(system.url, system.auth, pathOf, 16, SECONDS)).requests;
  }
  const after = system.cpu();
  const used = { gateway: after.gateway - before.gateway, agent: after.agent - before.agent };
  // SIGINT: both processes exit cleanly, which is when --cpu-prof writes the profiles.
  await system.stop('SIGINT');
  if (writesDir) fs.rmSync(writesDir, { recursive: true, force: true });

  console.log(`${scenario}: ${units} ${unit}s in ${SECONDS} s`);
  for (const side of ['gateway', 'agent'] as const) console.log(`  ${side} CPU per ${unit}: ${(used[side] / units).toFixed(3)} ms`);
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()) {
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile; thread 0 is the main thread.
    const [, , , pid, thread] = file.split('.');
    const owner = Number(pid) === pids.gateway ? 'gateway' : Number(pid) === pids.agent ? 'agent' : `pid ${pid}`;
    const { busyMs, rows } = hottest(path.join(dir, file), 12);
    if (busyMs < 50) continue;
    console.log(
      `\n${owner}, thread ${thread} (${Number(thread) === 0 ? 'main' : "a worker, or tsx's loader at start-up"}): ${busyMs.toFixed(0)} ms busy`,
    );
    for (const row of rows) console.log(`  ${row}`);
  }
  console.log(`\nprofiles: ${path.relative(ROOT, dir)}`);
}

await main();
process.exit(0);
