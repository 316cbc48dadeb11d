import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSide, customerPaths, loadTurn, measuredTurn } from './cpuTurns.ts';
import { DATA, ensureDatabase, log, ROOT, sampleCustomerIds, startGatewayAndAgent } from './system.ts';

/**
 * `pnpm bench:ab <git ref> [get|list] [turns]`: is this working tree's gateway cheaper than <ref>'s?
 *
 * Back-to-back runs on this shared machine differ by ±25%, more than most changes being judged. So
 * <ref> is extracted beside this tree (git archive, node_modules hard-linked), both systems run at
 * once, and the 16-connection load alternates between them in 1 s turns (A B B A …) so that both see
 * the same machine. Prints each side's requests per second and gateway and agent CPU per request,
 * and the ratios of this tree to <ref>.
 */
const [ref, scenario = 'get', turnsArg] = process.argv.slice(2);
const TURNS = Number(turnsArg ?? 16);
if (!ref || !['get', 'list'].includes(scenario) || !(TURNS > 0)) {
  console.error('usage: pnpm bench:ab <git ref> [get|list] [turns]');
  process.exit(1);
}

/** <ref>'s files in a temporary folder, runnable: this tree's node_modules hard-linked, the bench data shared. */
function checkout(gitRef: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ab-'));
  execSync(`git archive ${JSON.stringify(gitRef)} | tar -x -C ${JSON.stringify(dir)}`, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const modules = execFileSync(
    'find',
    ['.', '-maxdepth', '3', '-name', 'node_modules', '-type', 'd', '-not', '-path', '*/node_modules/*'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  // A package this tree has and <ref> had not (a newer workspace package) has nowhere to go: skipped.
  for (const folder of modules.split('\n').filter(Boolean))
    if (fs.existsSync(path.join(dir, path.dirname(folder)))) execFileSync('cp', ['-al', path.join(ROOT, folder), path.join(dir, folder)]);
  fs.symlinkSync(DATA, path.join(dir, 'bench', '.data'));
  return dir;
}

ensureDatabase();
const ids = sampleCustomerIds();
log(`extracting ${ref}`);
const baseDir = checkout(ref);
const base = (await import(path.join(baseDir, 'bench', 'system.ts'))) as { startGatewayAndAgent: typeof startGatewayAndAgent };
const sides = [cpuSide(ref, await base.startGatewayAndAgent()), cpuSide('this tree', await startGatewayAndAgent())];
const nextPath = customerPaths(scenario, ids);
try {
  for (const side of sides) await loadTurn(side.system, nextPath, 2);
  log(`${TURNS} turns of 1 s on each side, ${scenario}, 16 connections`);
  for (let turn = 0; turn < TURNS; turn++) {
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) await measuredTurn(side, nextPath);
  }
  for (const s of sides) {
    console.log(
      `${s.name}: ${(s.requests / TURNS).toFixed(0)} req/s, CPU per request: gateway ${(s.gateway / s.requests).toFixed(4)} ms, agent ${(s.agent / s.requests).toFixed(4)} ms`,
    );
  }
  const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]];
  console.log(
    `this tree / ${ref}: throughput ${(b.requests / a.requests).toFixed(3)}x, gateway CPU per request ${(b.gateway / b.requests / (a.gateway / a.requests)).toFixed(3)}x`,
  );
} finally {
  for (const side of sides) await side.system.stop();
  fs.rmSync(baseDir, { recursive: true, force: true });
}
