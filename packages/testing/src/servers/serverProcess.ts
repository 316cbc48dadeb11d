import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A server program (redis-server, nats-server) started by a test on a free loopback port in a
 * temporary folder, never as a system service, and stopped after it.
 */
export interface ServerProcess {
  port: number;
  dir: string;
  child: ChildProcess;
  /** Stops it for good (SIGKILL if it does not stop within a second) and removes its folder. */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP) until `resume`: a server that accepts nothing and answers nothing. */
  pause(): void;
  resume(): void;
}

/** Debian puts redis-server in /usr/bin and nats-server in /usr/sbin, which not every PATH has. */
const EXTRA_DIRS = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];

/** The program's path, or null when it is not installed. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Says loudly, once per test file, that a suite is skipped because `program` is missing (as
 * e2e/mssql.test.ts does); returns the skip reason for node:test, or false when it is there.
 */
export function skipWithout(program: string, what: string): string | false {
  if (findProgram(program)) return false;
  console.warn(
    `\n*** SKIPPED: ${what}. ${program} is not installed (Debian package ${debianPackage(program)}; .ci/run installs it). ***\n`,
  );
  return `${program} is not installed`;
}

function debianPackage(program: string): string {
  return program === 'promtool' ? 'prometheus' : program;
}

/** A loopback port nothing listens on now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port; rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it listened`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** Starts `program` with the arguments `argsFor(port, dir)` returns, and waits until it listens. */
export async function startServerProcess(
  program: string,
  argsFor: (port: number, dir: string) => string[],
  port?: number,
): Promise<ServerProcess> {
  const binary = findProgram(program);
  if (!binary) throw new Error(`${program} is not installed`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${program}-`));
  const chosen = port ?? (await freePort());
  const child = spawn(binary, argsFor(chosen, dir), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    await waitForPort(chosen, 10_000, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${program} did not start: ${(error as Error).message}\n${stderr}`);
  }
  let stopped = false;
  return {
    port: chosen,
    dir,
    child,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 1_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
