import { verifyNodeRuntime } from './authenticode.ts';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'postject';
import { rcdataSize, withoutSignature } from './peImage.ts';
import { RUNTIMES, type Runtime } from './runtimes.ts';

/** The fuse Node's own binaries carry; postject flips it so the runtime looks for the blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The name Node looks for: an ELF note on Linux, a PE resource (RT_RCDATA) on Windows. */
const SEA_RESOURCE = 'NODE_SEA_BLOB';

export interface Target {
  /** The program's file name under dist/. */
  name: string;
  /** The pinned Node runtime it is made from (runtimes.ts). */
  runtime: Runtime;
}

export const TARGETS: Target[] = [
  { name: 'gp-agent-linux-x64', runtime: RUNTIMES.linux },
  { name: 'gp-agent-win-x64.exe', runtime: RUNTIMES.windows },
];

/**
 * Node flags of the programs, as every other launcher passes them: the heap floor of
 * docs/decisions.md "Speed" (launchers.test.ts keeps them equal). V8 flags are not allowed in
 * NODE_OPTIONS, so the blob carries them (Node 22's `execArgv` of the blob's configuration).
 */
export const EXEC_ARGV = ['--initial-old-space-size=128'];

/**
 * The application blob, made by `generator`: the Linux runtime, which runs here and is the Windows
 * one's version (Node requires the blob's maker to be the version it goes into). With neither code
 * cache nor snapshot it holds only the script, and so is the same for every platform (Node's
 * single-executable-applications docs, on cross-platform builds): one blob serves both.
 *
 * The blob records the script's path as the configuration names it, so the script is named relative
 * to the work folder (the generator runs there): an absolute path would carry the random temporary
 * folder into the programs, and two builds of one commit would differ.
 */
export function makeBlob(script: string, workDir: string, generator: string): string {
  if (path.dirname(script) !== workDir) throw new Error(`the script must be in the work folder ${workDir}, not at ${script}`);
  const blob = path.join(workDir, 'gp-agent.blob');
  const config = path.join(workDir, 'sea-config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      main: path.basename(script),
      output: path.basename(blob),
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
      execArgv: EXEC_ARGV,
    }),
  );
  const run = spawnSync(generator, ['--experimental-sea-config', path.basename(config)], { cwd: workDir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node --experimental-sea-config failed:\n${run.stdout}${run.stderr}`);
  return blob;
}

/**
 * Copies the runtime (`executable`, extracted from the target's checked tarball) to `output` and
 * injects the blob into it. Windows: the runtime's signature
 * (Node's) is verified, then removed, as Node's docs advise (`signtool remove /s`), because the
 * injected file no longer matches it; main.ts signs the program when a certificate is configured.
 */
export async function makeProgram(target: Target, executable: string, blob: string, output: string): Promise<void> {
  const windows = target.name.endsWith('.exe');
  // Node's own signature is checked (chain to a trusted root, signed by the OpenJS Foundation) before
  // it is cut: the pinned SHA-512 says the file is the one pinned, this says who made it.
  if (windows) verifyNodeRuntime(executable);
  const runtime = fs.readFileSync(executable);
  fs.writeFileSync(output, windows ? withoutSignature(runtime) : runtime, { mode: 0o755 });
  const data = fs.readFileSync(blob);
  await inject(output, SEA_RESOURCE, data, { sentinelFuse: SEA_FUSE });
  if (windows) {
    const size = rcdataSize(fs.readFileSync(output), SEA_RESOURCE);
    if (size !== data.length)
      throw new Error(`${target.name}: the ${SEA_RESOURCE} resource holds ${size} bytes, not the blob's ${data.length}`);
  }
}
