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
      return `remove ${step.path}`;
    case 'run':
      // Quoted as a Windows or POSIX shell would take them (none of the arguments holds a quote).
      return `run ${[step.command, ...step.args].map((a) => (/^[^\s"']+$/.test(a) ? a : `"${a}"`)).join(' ')}: ${step.why}`;
    case 'diagnose':
      return `check the installation: gp-agent diagnose --config ${step.config}`;
  }
}

export class StepFailed extends Error {}

/**
 * Takes the steps in order and stops at the first failure, saying which. A failed diagnose stops
 * before the service is started: the service must not loop on a configuration that cannot work.
 * Returns false when diagnose failed.
 */
export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<boolean> {
  const at = (file: string) => (options.root ? path.join(options.root, file) : file);
  for (const step of plan.steps) {
    const skipped = step.kind === 'run' && options.root !== undefined;
    options.say(`${skipped ? '  (not run: --root) ' : '  '}${describeStep(step)}`);
    if (skipped) continue;
    switch (step.kind) {
      case 'mkdir':
        fs.mkdirSync(at(step.path), { recursive: true, mode: step.mode });
        fs.chmodSync(at(step.path), step.mode);
        break;
      case 'copy':
        // Copied aside then renamed: a running program (an upgrade over itself) is not written into.
        fs.copyFileSync(step.from, `${at(step.to)}.new`);
        fs.chmodSync(`${at(step.to)}.new`, step.mode);
        fs.renameSync(`${at(step.to)}.new`, at(step.to));
        break;
      case 'write':
        if (step.keep && fs.existsSync(at(step.path))) {
          options.say(`    ${step.path} exists: kept as it is (its settings win; edit it, or remove it and install again)`);
          break;
        }
        fs.mkdirSync(path.dirname(at(step.path)), { recursive: true });
        fs.writeFileSync(at(step.path), step.text, { mode: step.mode });
        fs.chmodSync(at(step.path), step.mode);
        break;
      case 'remove':
        fs.rmSync(at(step.path), { force: true });
        break;
      case 'run': {
        const run = spawnSync(step.command, step.args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        const ok = run.status === 0 || (run.status !== null && (step.okCodes ?? []).includes(run.status));
        if (!ok)
          throw new StepFailed(
            `${describeStep(step)}\n    failed (${run.error?.message ?? `exit ${run.status}`}): ${(run.stderr || run.stdout || '').trim()}`,
          );
        break;
      }
      case 'diagnose':
        if (!(await options.diagnose(at(step.config)))) return false;
        break;
    }
  }
  return true;
}
