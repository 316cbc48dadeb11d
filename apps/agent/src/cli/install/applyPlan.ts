import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Plan, Step } from './servicePlan.ts';

export interface ApplyOptions {
  /**
   * Write the files under this folder instead of `/`, and run no system command (they are listed
   * instead): for packaging, and for tests on a machine that must not change.
   */
  root?: string;
  /** Runs `gp-agent diagnose` on a configuration file; true when every check passed. */
  diagnose(config: string): Promise<boolean>;
  say(line: string): void;
  /** Where system commands are looked for (tests); by default the system's own folders, never PATH. */
  toolDirs?: string[];
}

/** Where Linux keeps useradd, chown, systemctl: a root shell's PATH may lack /usr/sbin (`sudo -s`, cron). */
export const LINUX_TOOL_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * The absolute path of a system command. A bare name is looked for in the system's folders only
 * (Windows: System32), so that neither a trimmed PATH nor a program planted on it decides what an
 * administrator's install runs. A path (WinSW's) is taken as it is.
 */
export function systemTool(command: string, dirs?: string[]): string {
  if (command.includes('/') || command.includes('\\')) return command;
  const candidates =
    dirs ?? (process.platform === 'win32' ? [path.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32')] : LINUX_TOOL_DIRS);
  const names = process.platform === 'win32' && !command.endsWith('.exe') ? [`${command}.exe`] : [command];
  for (const dir of candidates) for (const name of names) if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  throw new StepFailed(`${command} is not installed (looked in ${candidates.join(', ')})`);
}

/** One line per step, as printed before it is taken. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'mkdir':
      return `create ${step.path}`;
    case 'copy':
      return `copy ${step.from} to ${step.to}`;
    case 'write':
      return `write ${step.path}${step.keep ? ' (kept if it exists)' : ''}`;
    case 'remove':
      return `remove ${step.path}${step.tree ? ' and everything in it' : ''}`;
    case 'run':
      return `run ${commandLine(step.command, step.args)}: ${step.why}`;
    case 'diagnose':
      return `check the installation: gp-agent diagnose --config ${step.config}`;
  }
}

/** Quoted as a Windows or POSIX shell would take them (none of the arguments holds a quote). */
function commandLine(command: string, args: string[]): string {
  return [command, ...args].map((a) => (/^[^\s"']+$/.test(a) ? a : `"${a}"`)).join(' ');
}

export class StepFailed extends Error {}

/** Runs a system command; the exit status, or the reason it could not start. */
function runTool(command: string, args: string[], dirs: string[] | undefined) {
  const run = spawnSync(systemTool(command, dirs), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: run.status, detail: `${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr || run.stdout || '').trim()}` };
}

/**
 * Takes the steps in order. A step that fails undoes what the earlier ones did (files and folders
 * it created, a replaced program put back, an account it created removed, a service it enabled
 * disabled), newest first, and then reports which step failed: install either completes or leaves
 * the machine as it found it. A failed diagnose stops before the service is started (the service must
 * not loop on a configuration that cannot work) and undoes nothing: the configuration is there to be
 * fixed. Returns false when diagnose failed.
 */
export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<boolean> {
  const at = (file: string) => (options.root ? path.join(options.root, file) : file);
  const undo: Array<{ what: string; run: () => void }> = [];
  const done: Array<() => void> = [];
  try {
    for (const step of plan.steps) {
      const skipped = step.kind === 'run' && options.root !== undefined;
      options.say(`${skipped ? '  (not run: --root) ' : '  '}${describeStep(step)}`);
      if (skipped) continue;
      if (step.kind === 'diagnose') {
        if (!(await options.diagnose(at(step.config)))) return false;
        continue;
      }
      takeStep(step, at, options, undo, done);
    }
  } catch (error) {
    if (undo.length) options.say('  a step failed: undoing what this run did');
    for (const { what, run } of undo.reverse()) {
      options.say(`  undo: ${what}`);
      try {
        run();
      } catch (failure) {
        options.say(`    could not: ${(failure as Error).message}`);
      }
    }
    throw error;
  }
  for (const finish of done) finish();
  return true;
}

function takeStep(
  step: Exclude<Step, { kind: 'diagnose' }>,
  at: (file: string) => string,
  options: ApplyOptions,
  undo: Array<{ what: string; run: () => void }>,
  done: Array<() => void>,
): void {
  switch (step.kind) {
    case 'mkdir': {
      const created = fs.mkdirSync(at(step.path), { recursive: true, mode: step.mode });
      fs.chmodSync(at(step.path), step.mode);
      if (created) undo.push({ what: `remove ${created}`, run: () => fs.rmSync(created, { recursive: true, force: true }) });
      break;
    }
    case 'copy': {
      // Copied aside then renamed: a running program (an upgrade over itself) is not written into.
      const target = at(step.to);
      fs.copyFileSync(step.from, `${target}.new`);
      fs.chmodSync(`${target}.new`, step.mode);
      if (fs.existsSync(target)) {
        fs.renameSync(target, `${target}.old`);
        undo.push({ what: `put the previous ${step.to} back`, run: () => fs.renameSync(`${target}.old`, target) });
        done.push(() => fs.rmSync(`${target}.old`, { force: true }));
      } else undo.push({ what: `remove ${step.to}`, run: () => fs.rmSync(target, { force: true }) });
      fs.renameSync(`${target}.new`, target);
      break;
    }
    case 'write':
      if (step.keep && fs.existsSync(at(step.path))) {
        options.say(`    ${step.path} exists: kept as it is (its settings win; edit it, or remove it and install again)`);
        break;
      }
      if (!fs.existsSync(at(step.path))) undo.push({ what: `remove ${step.path}`, run: () => fs.rmSync(at(step.path), { force: true }) });
      fs.mkdirSync(path.dirname(at(step.path)), { recursive: true });
      fs.writeFileSync(at(step.path), step.text, { mode: step.mode });
      fs.chmodSync(at(step.path), step.mode);
      break;
    case 'remove':
      fs.rmSync(at(step.path), { force: true, recursive: step.tree ?? false });
      break;
    case 'run': {
      const run = runTool(step.command, step.args, options.toolDirs);
      if (run.status === 0 && step.undo) {
        const { command, args } = step.undo;
        undo.push({
          what: `run ${commandLine(command, args)}`,
          run: () => {
            const back = runTool(command, args, options.toolDirs);
            if (back.status !== 0) throw new Error(back.detail);
          },
        });
      }
      if (run.status === 0 || (run.status !== null && (step.okCodes ?? []).includes(run.status))) break;
      if (step.tolerated) {
        options.say(`    ${step.tolerated}`);
        break;
      }
      throw new StepFailed(`${describeStep(step)}\n    failed (${run.detail}`);
    }
  }
}
