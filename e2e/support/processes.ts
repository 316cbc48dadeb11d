import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@gp-gateway/testing';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GATEWAY_CLI = path.join(ROOT, 'apps/gateway/src/frontends/cli/main.ts');
const AGENT_CLI = path.join(ROOT, 'apps/agent/src/cli/main.ts');
const DEMO_CLI = path.join(ROOT, 'packages/gp-demo/src/cli/main.ts');

export interface Started {
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs one of our CLIs as a real process (node + tsx), collecting its output for assertions and failures. */
function run(cli: string, args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Polls `probe` until it returns a value. 50 ms between probes: a probe that is an API request
 * spends from its key's quota (docs/api.md#rate-limits: 100 per 10 s), which faster polling would empty while waiting.
 */
export function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | Promise<T | null | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  return pollUntil(what, probe, { timeoutMs, everyMs: 50 });
}

/** How many of a process's JSON log lines carry this message (`"msg":"request started"`…). */
export function countLogged(output: string, msg: string): number {
  return output.split('\n').filter((line) => line.includes(`"msg":${JSON.stringify(msg)}`)).length;
}

/** Starts `gp-gateway start` and waits for its printed URL and test key. */
export async function startGatewayProcess(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Started & { url: string; testKey: string }> {
  const started = run(GATEWAY_CLI, ['start'], { DATA_DIR: dataDir, PORT: '0', ...env });
  const [url, testKey] = await waitFor('the gateway to print its URL and test key', () => {
    const out = started.output();
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const key = /^(lb_test_[0-9A-Za-z]{32})$/m.exec(out)?.[1];
    if (started.child.exitCode !== null) throw new Error(`the gateway exited:\n${out}`);
    return url && key ? ([url, key] as const) : null;
  });
  return { ...started, url, testKey };
}

export function startAgentProcess(
  gatewayUrl: string,
  token: string,
  sqliteDir: string,
  env: NodeJS.ProcessEnv = {},
  extraArgs: string[] = [],
): Started {
  return run(AGENT_CLI, ['run', '--gateway', gatewayUrl, '--token', token, '--sqlite-dir', sqliteDir, ...extraArgs], env);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one `gp-gateway` operator command (org, key, connection …) to completion, as an operator would. */
export function runGatewayCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return runToCompletion(GATEWAY_CLI, args, env);
}

/** Runs one `gp-agent` command (diagnose, companies, query …) to completion, as support would. */
export function runAgentCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return runToCompletion(AGENT_CLI, args, env);
}

/** Runs one `gp-demo` command (generate, churn …) to completion, as a person trying the sandbox would. */
export function runDemoCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runToCompletion(DEMO_CLI, args, env);
}

function runToCompletion(cli: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
