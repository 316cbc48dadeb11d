import path from 'node:path';
import sea from 'node:sea';
import type { Command } from 'commander';
import { releasePlatformOf } from '@gp-gateway/protocol';
import { AGENT_VERSION, AGENT_VERSION_LINE } from '../../version.ts';
import { DownloadError } from '../../update/gatewayDownloads.ts';
import { ReleaseKeyError, trustedReleaseKey } from '../../update/releaseKey.ts';
import { programVersion, rollBack } from '../../update/replaceProgram.ts';
import { checkForUpdate, runUpdate } from '../../update/runUpdate.ts';
import { VerificationError } from '../../update/verifyRelease.ts';
import { StepFailed } from '../install/applyPlan.ts';
import { findServiceManager, restartService } from '../install/serviceRestart.ts';
import { ConfigError, loadGatewayUrl } from '../runConfig.ts';

interface UpdateFlags {
  config?: string;
  gateway?: string;
  check?: boolean;
  restart?: boolean;
  program?: string;
  releaseKey?: string;
}

/** `--check`'s exit status when a newer release exists: scripts and monitoring tell it from "up to date" (0) and a failure (1). */
const EXIT_UPDATE_AVAILABLE = 3;

/** The program to replace: --program, else the running single file; a checkout has none. */
function programOf(flags: UpdateFlags): string {
  if (flags.program) return path.resolve(flags.program);
  if (!sea.isSea())
    throw new Error(
      'run from a checkout (node + tsx) there is no program to replace: update the checkout with git, or pass --program <the gp-agent file to replace>',
    );
  return process.execPath;
}

/**
 * GP_AGENT_TEST_SYSTEM_ROOT, read from the environment only and only by update: a folder standing for
 * `/` where the restart looks for systemd, the unit and systemctl (install/serviceRestart.ts), so the
 * tests restart through a recording stand-in. Said aloud when set, so it is never in effect unseen.
 */
function testSystemRoot(say: (line: string) => void): string | undefined {
  const root = process.env.GP_AGENT_TEST_SYSTEM_ROOT;
  if (!root) return undefined;
  say(`(test-only) GP_AGENT_TEST_SYSTEM_ROOT: the service is looked for under ${root}, not /`);
  return path.resolve(root);
}

/**
 * Restarts the service onto the new program. When the service manager refuses the restart, the
 * previous program is put back and the service restarted on it, and the update fails saying so: a
 * service left stopped on a new program is worse than an agent one version behind.
 */
function restartOnto(program: string, previous: string, say: (line: string) => void): void {
  const found = findServiceManager(program, { systemRoot: testSystemRoot(say) });
  if ('none' in found) {
    say(`Not restarted: ${found.none}.`);
    return;
  }
  const { manager } = found;
  const restarted = restartService(manager);
  if (restarted.ok) {
    say(`Restarted the service: ${manager.shown}`);
    return;
  }
  rollBack(program, previous);
  const version = programVersion(program) ?? 'version unknown';
  const again = restartService(manager);
  throw new Error(
    `${manager.shown} failed (${restarted.detail}), so the update was rolled back: ${program} is the previous program again (${version}). ` +
      (again.ok
        ? `The service was restarted on it (${manager.shown}).`
        : `The service did not restart on it either (${again.detail}): ${process.platform === 'win32' ? 'see services.msc and the logs in C:\\ProgramData\\gp-agent\\logs' : 'see journalctl -u gp-agent'}.`),
  );
}

/** What to say when a write beside the program is refused: who may update it. */
function permissionHint(error: NodeJS.ErrnoException, program: string): Error {
  if (error.code !== 'EACCES' && error.code !== 'EPERM') return error;
  return new Error(
    `cannot write in ${path.dirname(program)} (${error.code}): run the update as an administrator (Linux: sudo gp-agent update; Windows: a PowerShell opened with "Run as administrator")`,
  );
}

async function update(flags: UpdateFlags, say: (line: string) => void): Promise<number> {
  const { gatewayUrl, configFile } = loadGatewayUrl({ config: flags.config, gateway: flags.gateway }, process.env);
  const platform = releasePlatformOf(process.platform, process.arch);
  if (!platform) throw new Error(`no agent program is released for ${process.platform}-${process.arch}`);
  say(`Gateway: ${gatewayUrl}${configFile ? ` (from ${configFile})` : ''}`);
  if (flags.check) {
    say(`This agent: ${AGENT_VERSION_LINE}`);
    const outcome = await checkForUpdate({ gatewayUrl, current: AGENT_VERSION, platform, say });
    if (outcome.result === 'available') {
      say(`An update is available: ${outcome.offered}. Run \`gp-agent update\` as administrator to install it (it is verified first).`);
      return EXIT_UPDATE_AVAILABLE;
    }
    say(`Up to date: the gateway offers ${outcome.offered}.`);
    return 0;
  }
  const program = programOf(flags);
  // Another program than this one (--program) is asked its version; one that does not answer gets any release.
  const current = flags.program ? (programVersion(program) ?? '0.0.0') : AGENT_VERSION;
  say(`This agent: ${flags.program ? current : AGENT_VERSION_LINE} at ${program}`);
  const key = trustedReleaseKey(flags.releaseKey);
  let outcome;
  try {
    outcome = await runUpdate({ gatewayUrl, program, current, platform, key, say });
  } catch (error) {
    throw permissionHint(error as NodeJS.ErrnoException, program);
  }
  if (outcome.result !== 'updated') {
    say(`Up to date: nothing to install.`);
    return 0;
  }
  if (flags.restart === false) {
    say(
      'Not restarted (--no-restart): the service still runs the previous program until it restarts ' +
        (process.platform === 'win32' ? '("C:\\Program Files\\gp-agent\\gp-agent-service.exe" restart).' : '(systemctl restart gp-agent).'),
    );
  } else {
    restartOnto(program, outcome.previous, say);
  }
  say(
    `To go back: stop the service, put ${outcome.previous} back in place of ${program}, and start it (docs/operations.md, "Updating agents").`,
  );
  return 0;
}

export function registerUpdateCommand(program: Command): void {
  program
    .command('update')
    .description(
      'Install the newest agent from the gateway this agent is configured for: verified (signature and checksum), swapped in with the old program kept, and the service restarted.',
    )
    .option('--config <file>', 'the configuration file the service uses (env GP_AGENT_CONFIG), for the gateway URL')
    .option('--gateway <url>', 'gateway base URL (env GP_GATEWAY_URL), instead of the configuration file')
    .option('--check', 'only say whether a newer release exists (exit 0: up to date; exit 3: an update is available); changes nothing')
    .option('--no-restart', 'install the new program but leave the service running the old one until it is restarted')
    .option('--program <file>', 'the gp-agent program to replace; by default the one running this command')
    .option(
      '--release-key <file>',
      "the release's public key (PEM), only for a program built without one; a program built with one refuses any other",
    )
    .addHelpText(
      'after',
      '\nWhat it does, step by step (nothing is changed until every check has passed):\n' +
        '  1. reads <gateway>/downloads/manifest.json, SHA256SUMS and SHA256SUMS.sig, through the same proxy\n' +
        "     (HTTPS_PROXY, NO_PROXY) and trusted certificates as the agent's own connection;\n" +
        '  2. verifies the signature of SHA256SUMS with the release key built into this program;\n' +
        "  3. downloads this platform's program beside the current one and compares its SHA-256 with SHA256SUMS;\n" +
        '  4. swaps it in, keeping the current program as gp-agent.previous (gp-agent.previous.exe on Windows),\n' +
        '     runs it once with --version, and puts the previous one back if it does not start;\n' +
        '  5. restarts the service: `systemctl restart gp-agent` on Linux, gp-agent-service.exe restart on Windows;\n' +
        '     if that fails, the previous program is put back and the service restarted on it. Without a service\n' +
        '     (no systemd, nothing registered) it says so and restarts nothing.\n' +
        'A refused signature or checksum leaves the current program exactly as it was.\n' +
        '\nRun it as administrator (root on Linux, an elevated PowerShell on Windows), on the server where the agent runs.\n' +
        '\nExamples:\n' +
        '  gp-agent update --check --config /etc/gp-agent/gp-agent.conf\n' +
        '  sudo /opt/gp-agent/gp-agent update --config /etc/gp-agent/gp-agent.conf\n' +
        '  & "C:\\Program Files\\gp-agent\\gp-agent.exe" update --config "C:\\ProgramData\\gp-agent\\gp-agent.conf"\n' +
        '\nTo go back to the previous program: stop the service, rename gp-agent.previous to gp-agent, start it\n' +
        '(docs/operations.md, "Updating agents").\n',
    )
    .action(async (flags: UpdateFlags) => {
      try {
        process.exitCode = await update(flags, (line) => console.log(line));
      } catch (error) {
        if (error instanceof ConfigError) throw new Error(`the configuration is incomplete:\n  - ${error.issues.join('\n  - ')}`);
        if (
          error instanceof VerificationError ||
          error instanceof ReleaseKeyError ||
          error instanceof DownloadError ||
          error instanceof StepFailed
        )
          throw new Error(`update refused: ${error.message}`);
        throw error;
      }
    });
}
