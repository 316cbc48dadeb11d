/**
 * `pnpm build:agent`: the agent as one program per platform, in dist/ (docs/decisions.md#the-agent-as-one-program).
 * 1. esbuild bundles the CLI, its worker threads and its dependencies (mssql/tedious included) into one
 *    script; better-sqlite3 is replaced by Node's built-in node:sqlite (nodeSqliteDatabase.ts).
 * 2. The pinned Node 22 runtime makes the single-executable-application blob from it.
 * 3. postject injects the blob into a copy of each platform's runtime; a SHA-256 file goes beside each.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleAgent } from './bundle.ts';
import { makeBlob, makeProgram, runtimeVersions, TARGETS } from './sea.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIST = path.join(ROOT, 'dist');

/** The commit built, marked when the working tree has changes: what `--version` and the hello frame report. */
function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head}-modified` : head;
  } catch {
    return 'unknown';
  }
}

/** `<sha256>  <name>`, the form `sha256sum -c` and PowerShell users (Get-FileHash) can compare. */
function writeChecksum(file: string): string {
  const sum = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  fs.writeFileSync(`${file}.sha256`, `${sum}  ${path.basename(file)}\n`);
  return sum;
}

async function main(): Promise<void> {
  const versions = new Set(Object.values(runtimeVersions()));
  if (versions.size !== 1)
    throw new Error(`the pinned runtimes differ (${JSON.stringify(runtimeVersions())}): pin one Node version for all`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-agent-build-'));
  try {
    const commit = commitOf();
    const script = await bundleAgent({ commit, outDir: work });
    const blob = makeBlob(script, work);
    fs.mkdirSync(DIST, { recursive: true });
    for (const target of TARGETS) {
      const output = path.join(DIST, target.name);
      await makeProgram(target, blob, output);
      const sum = writeChecksum(output);
      const mb = (fs.statSync(output).size / 1e6).toFixed(1);
      console.log(`${path.relative(ROOT, output)}  ${mb} MB  sha256 ${sum}`);
    }
    console.log(`agent ${commit}, Node ${[...versions][0]}, script ${(fs.statSync(script).size / 1e6).toFixed(2)} MB`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`build:agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
