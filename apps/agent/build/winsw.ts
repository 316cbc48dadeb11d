import crypto from 'node:crypto';
import fs from 'node:fs';
import { extractRuntime, fetchRuntimeTarball, type Runtime } from './runtimes.ts';

/**
 * WinSW, the wrapper that answers Windows' service control manager for the agent, taken from the npm
 * package that ships it (node-windows) the way the Node runtimes are: fetched with `npm pack`, the
 * tarball checked against the registry's SHA-512, and the program against its own pinned SHA-256.
 * It is WinSW 1.17 (.NET Framework 2.0/4.x, present on every supported Windows Server); the service
 * file (install/serviceFiles.ts) uses only elements that version reads.
 */
const WINSW: Runtime = {
  pkg: 'node-windows',
  version: '1.0.0-beta.8',
  integrity: 'sha512-uLekXnSeem3nW5escID224Fd0U/1VtvE796JpSpOY+c73Cslz/Qn2WUHRJyPQJEMrNGAy/FMRFjjhh4z1alZTA==',
  file: 'package/bin/winsw/winsw.exe',
};
const WINSW_SHA256 = '5859b114d96800a2b98ef9d19eaa573a786a422dad324547ef25be181389df01';

/** WinSW's program, extracted into `workDir` from the checked tarball (cached in `cacheDir`). */
export async function fetchWinsw(cacheDir: string, workDir: string, log: (line: string) => void): Promise<string> {
  const exe = await extractRuntime(WINSW, fetchRuntimeTarball(WINSW, cacheDir, log), workDir);
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(exe)).digest('hex');
  if (sha256 !== WINSW_SHA256)
    throw new Error(`${WINSW.pkg}@${WINSW.version} ships a winsw.exe with SHA-256 ${sha256}, not the pinned ${WINSW_SHA256}`);
  return exe;
}
