import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Replacing the agent's own program (docs/decisions.md, "Agent updates"). The new program is
 * downloaded beside the old one (same folder, so same file system: a rename is atomic), checked,
 * swapped in, and the old one is kept as `<name>.previous` for a rollback by hand
 * (docs/operations.md, "Updating agents"). Whatever fails, the old program is left where it was.
 */

/** Where the program being replaced is kept: `gp-agent.previous`, `gp-agent.previous.exe` (still runnable on Windows). */
export function previousPathOf(program: string): string {
  const ext = path.extname(program).toLowerCase() === '.exe' ? '.exe' : '';
  return path.join(path.dirname(program), `${path.basename(program, ext)}.previous${ext}`);
}

/** A fresh name in the program's folder for the download; a leftover of an interrupted update never collides. */
export function downloadPathOf(program: string): string {
  return path.join(path.dirname(program), `.${path.basename(program)}.update-${crypto.randomBytes(4).toString('hex')}`);
}

/**
 * Puts `downloaded` in place of `program`, keeping the old one as its previous copy, and gives the new
 * one the old one's permissions (and owner, when run as root). On Linux `program` never goes missing
 * (the old file gets a second name, then the new one is renamed over it); Windows cannot rename a file
 * over a running program, but can rename the running program aside, which is done first.
 */
export function swapIn(program: string, downloaded: string, platform: NodeJS.Platform = process.platform): { previous: string } {
  const previous = previousPathOf(program);
  const stat = fs.statSync(program);
  fs.chmodSync(downloaded, stat.mode & 0o7777);
  if (process.getuid?.() === 0) fs.chownSync(downloaded, stat.uid, stat.gid);
  fs.rmSync(previous, { force: true });
  if (platform === 'win32') {
    fs.renameSync(program, previous);
    try {
      fs.renameSync(downloaded, program);
    } catch (error) {
      fs.renameSync(previous, program);
      throw error;
    }
  } else {
    fs.linkSync(program, previous);
    fs.renameSync(downloaded, program);
  }
  return { previous };
}

/** Puts the previous program back (after a new one that does not start). */
export function rollBack(program: string, previous: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') {
    const failed = `${program}.failed`;
    fs.rmSync(failed, { force: true });
    fs.renameSync(program, failed);
    fs.renameSync(previous, program);
    // Windows refuses to delete a program that still runs (a service that came up on it); the name
    // beside is harmless, and the next rollback removes it first.
    try {
      fs.rmSync(failed, { force: true });
    } catch {}
  } else {
    fs.renameSync(previous, program);
  }
}

/**
 * Whether the program at `program` starts and says it is `version` (`--version` prints
 * `0.2.0 (commit …)`): a download that is the right bytes but cannot run here (a wrong platform, a
 * missing loader) is found before the service is restarted onto it.
 */
export function startsAs(program: string, version: string): { ok: boolean; said: string } {
  const run = spawnSync(program, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const said = (run.stdout || run.stderr || run.error?.message || `exit ${run.status}`).trim().split('\n')[0] ?? '';
  return { ok: run.status === 0 && said.startsWith(`${version} `), said };
}

/** The version the program at `program` reports (`--version`), or null when it does not answer like an agent. */
export function programVersion(program: string): string | null {
  const run = spawnSync(program, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return run.status === 0 ? (/^(\d+\.\d+\.\d+)\s/.exec(run.stdout)?.[1] ?? null) : null;
}
