/**
 * `pnpm build:agent`: the agent as one program per platform, in dist/ (docs/decisions.md#the-agent-as-one-program).
 * 1. esbuild bundles the CLI, its worker threads and its dependencies (mssql/tedious included) into one
 *    script; better-sqlite3 is replaced by Node's built-in node:sqlite (nodeSqliteDatabase.ts).
 * 2. The pinned Node 22 runtimes are fetched (or taken from the cache) and checked against their
 *    pinned SHA-512 (runtimes.ts); the Linux one makes the single-executable-application blob.
 * 3. postject injects the blob into a copy of each platform's runtime.
 * 4. The Windows program is signed (Authenticode) when GP_AGENT_SIGN_CERT/GP_AGENT_SIGN_KEY name a
 *    certificate; WinSW (pinned, from node-windows) goes beside it as gp-agent-service.exe and both into
 *    an MSI (msiPackage.ts, signed too); the Linux program goes into a .deb (debPackage.ts).
 * 5. SHA256SUMS lists them all and, when GP_AGENT_RELEASE_KEY names the release key, is signed
 *    (releaseSignature.ts); the key's public half is built into the programs, for `gp-agent update`.
 * 6. manifest.json names the version, commit and each file's platform: the gateway serves the folder
 *    as its release folder (RELEASE_DIR) and names the version to its agents.
 * Built twice from one commit, the programs are the same bytes (the blob names no temporary folder).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_VERSION } from '../src/version.ts';
import { bundleAgent } from './bundle.ts';
import { signAuthenticode, signingCertificateFromEnv } from './authenticode.ts';
import { buildDeb } from './debPackage.ts';
import { buildMsi } from './msiPackage.ts';
import { fetchWinsw } from './winsw.ts';
import { PUBLIC_KEY_PEM, PUBLIC_KEY_XML, releasePublicKeyPem, SIGNATURE_FILE, signSums } from './releaseSignature.ts';
import { writeManifest } from './releaseManifest.ts';
import { extractRuntime, fetchRuntimeTarball, NODE_VERSION, runtimeCacheDir } from './runtimes.ts';
import { makeBlob, makeProgram, TARGETS } from './sea.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the programs go: dist/, or the folder after `--out` (how the e2e test builds a second time to compare). */
function outputDir(args: string[]): string {
  const at = args.indexOf('--out');
  if (at === -1) return path.join(ROOT, 'dist');
  const dir = args[at + 1];
  if (!dir) throw new Error('--out needs a folder');
  return path.resolve(dir);
}

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

/** The commit's time, in seconds: every file of the .deb carries it, so two builds give the same bytes. */
function commitEpoch(): number {
  try {
    return Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: ROOT, encoding: 'utf8' }).trim());
  } catch {
    return 0;
  }
}

function sha256Of(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

async function main(): Promise<void> {
  const DIST = outputDir(process.argv.slice(2));
  const cache = runtimeCacheDir();
  const tarballs = TARGETS.map((target) => fetchRuntimeTarball(target.runtime, cache, (line) => console.log(line)));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-agent-build-'));
  try {
    const runtimes = await Promise.all(TARGETS.map((target, i) => extractRuntime(target.runtime, tarballs[i]!, work)));
    const commit = commitOf();
    const epoch = commitEpoch();
    const signing = signingCertificateFromEnv(process.env);
    const releaseKey = process.env.GP_AGENT_RELEASE_KEY;
    const releaseKeyPem = releaseKey ? fs.readFileSync(releaseKey, 'utf8') : null;
    const script = await bundleAgent({ commit, outDir: work, releasePublicKey: releaseKeyPem ? releasePublicKeyPem(releaseKeyPem) : null });
    const blob = makeBlob(script, work, runtimes[0]!);
    fs.mkdirSync(DIST, { recursive: true });
    // `<sha256>  <name>` lines, which `sha256sum -c SHA256SUMS` checks and Get-FileHash users compare.
    const sums: string[] = [];
    const record = (file: string) => {
      sums.push(`${sha256Of(file)}  ${path.basename(file)}\n`);
      console.log(`${path.relative(ROOT, file)}  ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
    };
    for (const [i, target] of TARGETS.entries()) {
      const output = path.join(DIST, target.name);
      await makeProgram(target, runtimes[i]!, blob, output);
      if (signing && output.endsWith('.exe')) signAuthenticode(output, signing, 'GP gateway agent', epoch);
      const sum = sha256Of(output);
      sums.push(`${sum}  ${target.name}\n`);
      const mb = (fs.statSync(output).size / 1e6).toFixed(1);
      console.log(`${path.relative(ROOT, output)}  ${mb} MB  sha256 ${sum}`);
    }
    const deb = buildDeb({
      program: path.join(DIST, TARGETS[0]!.name),
      version: AGENT_VERSION,
      example: path.join(ROOT, 'deploy/gp-agent.conf.example'),
      outDir: DIST,
      epoch,
    });
    record(deb);
    const winsw = path.join(DIST, 'gp-agent-service.exe');
    fs.copyFileSync(await fetchWinsw(cache, work, (line) => console.log(line)), winsw);
    record(winsw);
    const msi = buildMsi({ program: path.join(DIST, TARGETS[1]!.name), winsw, version: AGENT_VERSION, outDir: DIST });
    if (signing) signAuthenticode(msi, signing, 'GP gateway agent', epoch);
    record(msi);
    fs.writeFileSync(path.join(DIST, 'SHA256SUMS'), sums.join(''));
    writeManifest(DIST, { version: AGENT_VERSION, commit, node: NODE_VERSION }, [
      { name: TARGETS[0]!.name, kind: 'program', platform: 'linux-x64' },
      { name: path.basename(deb), kind: 'package', platform: 'linux-x64' },
      { name: TARGETS[1]!.name, kind: 'program', platform: 'win-x64' },
      { name: path.basename(msi), kind: 'package', platform: 'win-x64' },
      { name: path.basename(winsw), kind: 'service-wrapper', platform: 'win-x64' },
    ]);
    if (releaseKeyPem) {
      const { fingerprints } = signSums(DIST, releaseKeyPem);
      console.log(`SHA256SUMS signed; the README must publish: pem ${fingerprints.pem}, xml ${fingerprints.xml}`);
    } else {
      // A signature left by an earlier build would now sign other sums.
      for (const file of [SIGNATURE_FILE, PUBLIC_KEY_PEM, PUBLIC_KEY_XML]) fs.rmSync(path.join(DIST, file), { force: true });
      console.log(
        'SHA256SUMS not signed, and gp-agent update will refuse updates (set GP_AGENT_RELEASE_KEY to the release key, a PEM file)',
      );
    }
    if (!signing) console.log('the Windows program is not Authenticode-signed (set GP_AGENT_SIGN_CERT and GP_AGENT_SIGN_KEY)');
    console.log(
      `agent ${commit}, Node ${NODE_VERSION}, script ${(fs.statSync(script).size / 1e6).toFixed(2)} MB; checksums in ${path.relative(ROOT, DIST) || '.'}/SHA256SUMS`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`build:agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
