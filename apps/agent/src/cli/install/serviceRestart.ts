import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LINUX_TOOL_DIRS, systemTool } from './applyPlan.ts';

/**
 * How `gp-agent update` restarts the service onto the program it has just swapped in: through what
 * `gp-agent install` (or the .deb, or the MSI) registered. systemd's gp-agent unit on Linux,
 * WinSW's gp-agent-service.exe beside the program on Windows. Nothing is restarted that does not run
 * the program that was updated, and no restart is claimed where there is no service manager.
 */

/** Where systemd units named gp-agent live, first match wins as in systemd: `gp-agent install`'s, then the .deb's. */
const UNITS = ['/etc/systemd/system/gp-agent.service', '/lib/systemd/system/gp-agent.service', '/usr/lib/systemd/system/gp-agent.service'];

export interface ServiceManager {
  /** The absolute path of the command, and its arguments. */
  command: string;
  args: string[];
  /** The command as a person would type it, for what update says. */
  shown: string;
}

export interface ServiceLookup {
  platform?: NodeJS.Platform;
  /**
   * Test-only (GP_AGENT_TEST_SYSTEM_ROOT, docs/decisions.md, "Agent updates"): a folder standing
   * for `/`, under which the systemd marker, the unit and systemctl are looked for, so that a test
   * can restart through a recording stand-in instead of this machine's systemd.
   */
  systemRoot?: string;
}

/** The service manager that restarts the agent at `program`, or, when there is none, what the operator should do instead. */
export function findServiceManager(program: string, lookup: ServiceLookup = {}): { manager: ServiceManager } | { none: string } {
  const platform = lookup.platform ?? process.platform;
  const manual = `stop the agent that runs now and start it again the way it was started (${program} run --config <its configuration file>); until then it runs the previous program`;
  if (platform === 'win32') {
    const winsw = path.join(path.dirname(program), 'gp-agent-service.exe');
    if (!fs.existsSync(winsw))
      return { none: `no Windows service beside ${program} (no gp-agent-service.exe), so none was restarted: ${manual}` };
    const xml = path.join(path.dirname(program), 'gp-agent-service.xml');
    const runs = fs.existsSync(xml) ? serviceExecutable(fs.readFileSync(xml, 'utf8'), 'winsw') : null;
    if (runs && path.win32.resolve(runs).toLowerCase() !== path.win32.resolve(program).toLowerCase())
      return { none: `the gp-agent service runs ${runs}, not ${program}, so it was not restarted` };
    return { manager: { command: winsw, args: ['restart'], shown: `"${winsw}" restart` } };
  }
  const at = (file: string) => (lookup.systemRoot ? path.join(lookup.systemRoot, file) : file);
  if (!fs.existsSync(at('/run/systemd/system')))
    return { none: `this machine does not run systemd, so no service was restarted: ${manual}` };
  const unit = UNITS.find((file) => fs.existsSync(at(file)));
  if (!unit) return { none: `no gp-agent service is registered with systemd (no ${UNITS.join(', ')}), so none was restarted: ${manual}` };
  const runs = serviceExecutable(fs.readFileSync(at(unit), 'utf8'), 'systemd');
  if (runs && path.resolve(runs) !== path.resolve(program))
    return { none: `the gp-agent service (${unit}) runs ${runs}, not ${program}, so it was not restarted` };
  const dirs = LINUX_TOOL_DIRS.map(at);
  let systemctl: string;
  try {
    systemctl = systemTool('systemctl', dirs);
  } catch {
    // Said as "not restarted", not as an error: the new program is in place by now.
    return { none: `systemctl is not in ${dirs.join(', ')}, so the service was not restarted: ${manual}` };
  }
  return { manager: { command: systemctl, args: ['restart', 'gp-agent'], shown: 'systemctl restart gp-agent' } };
}

/** The program a service definition starts: ExecStart's first word, or WinSW's <executable>. */
function serviceExecutable(text: string, kind: 'systemd' | 'winsw'): string | null {
  if (kind === 'systemd') return /^ExecStart=[-@:+!]*(\S+)/m.exec(text)?.[1] ?? null;
  return /<executable>([^<]+)<\/executable>/.exec(text)?.[1]?.replaceAll('&amp;', '&').trim() ?? null;
}

/**
 * Runs the restart. Its exit status is what is judged: `systemctl restart` fails when the unit cannot
 * be started, WinSW's restart when the service control manager does not start it. A program that
 * starts and dies later is not seen here; update has already run it once (`--version`) before.
 */
export function restartService(manager: ServiceManager): { ok: true } | { ok: false; detail: string } {
  // The stop drains (up to 30 s, 45 s before systemd or WinSW end it); the start follows.
  const run = spawnSync(manager.command, manager.args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  if (run.status === 0) return { ok: true };
  const said = (run.stderr || run.stdout || '').trim();
  return { ok: false, detail: run.error?.message ?? (said ? `exit ${run.status}: ${said}` : `exit ${run.status}`) };
}
