import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './serverProcess.ts';

/**
 * A throwaway PostgreSQL server for tests: Debian's `postgresql` package run from a temporary folder
 * (data and unix socket inside it) on a free loopback port, never as a system service. Root may not
 * run PostgreSQL (initdb refuses), so as root the server runs as the `postgres` user the package
 * creates, through `setpriv`, which execs rather than forks: the process we hold is the postmaster
 * itself, and a signal to it stops the server.
 */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the maintenance database. */
  url: string;
  port: number;
  /** A new, empty database on the server; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown: open connections are dropped) and removes its folder. */
  stop(): Promise<void>;
  /** Stops the server as `stop` does but keeps its folder: an outage, until `restart`. */
  halt(): Promise<void>;
  /** Starts it again (after `halt`) on the same port with the same data; resolves once it accepts connections. */
  restart(): Promise<void>;
}

const ROOT_DIR = '/usr/lib/postgresql';

/** The newest installed server's bin folder, or null with why not (the tests then skip, saying so). */
export function findPostgresBinaries(): { bin: string } | { missing: string } {
  const versions = fs.existsSync(ROOT_DIR)
    ? fs
        .readdirSync(ROOT_DIR)
        .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(ROOT_DIR, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) return { missing: `no PostgreSQL server in ${ROOT_DIR}/<version>/bin (apt-get install postgresql)` };
  return { bin: path.join(ROOT_DIR, versions[0]!, 'bin') };
}

type Owner = { uid: number; gid: number } | null;

/** As root, the `postgres` user the server runs as; null when we are not root and run it ourselves. */
function serverOwner(): Owner {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
  return { uid: uid!, gid: gid! };
}

/** The command line that runs `args` as `owner`. */
function asOwner(owner: Owner, args: string[]): { command: string; args: string[] } {
  if (!owner) return { command: args[0]!, args: args.slice(1) };
  return { command: 'setpriv', args: [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--init-groups', ...args] };
}

let databases = 0;

export async function startPostgresServer(): Promise<PostgresServer> {
  const found = findPostgresBinaries();
  if ('missing' in found) throw new Error(found.missing);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  const data = path.join(dir, 'data');
  const sockets = path.join(dir, 'sock');
  fs.mkdirSync(sockets);
  const owner = serverOwner();
  if (owner) for (const p of [dir, sockets]) fs.chownSync(p, owner.uid, owner.gid);
  try {
    const initdb = asOwner(owner, [path.join(found.bin, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    execFileSync(initdb.command, initdb.args, { cwd: dir, stdio: 'pipe' });
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      try {
        return await run(owner, found.bin, dir, data, sockets, port);
      } catch (error) {
        // Another process took the port between freePort and the server's bind: try another.
        if (attempt >= 3 || !/could not (bind|create listen socket)/i.test((error as Error).message)) throw error;
      }
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

interface Postmaster {
  child: ChildProcess;
  exited: Promise<void>;
  log: () => string;
}

function spawnPostgres(owner: Owner, bin: string, dir: string, data: string, sockets: string, port: number): Postmaster {
  // Durability is not what tests need: fsync off makes CREATE DATABASE and commits fast.
  const server = asOwner(owner, [
    path.join(bin, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    sockets,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    // The store contract keeps every store it opens until its end (10 connections each): past
    // PostgreSQL's default of 100 a test fails with "too many clients" for no fault of its own.
    '-c',
    'max_connections=400',
    '-c',
    'full_page_writes=off',
  ]);
  const child: ChildProcess = spawn(server.command, server.args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, log: () => log };
}

const running = (postmaster: Postmaster) => postmaster.child.exitCode === null && postmaster.child.signalCode === null;

/** Resolves once the server accepts connections; rejects, with its log, when it exits or does not within 30 s. */
async function accepting(postmaster: Postmaster, url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!running(postmaster)) throw new Error(`PostgreSQL exited before accepting connections:\n${postmaster.log()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 30 s:\n${postmaster.log()}`);
      await sleep(50);
    }
  }
}

async function run(owner: Owner, bin: string, dir: string, data: string, sockets: string, port: number): Promise<PostgresServer> {
  let postmaster = spawnPostgres(owner, bin, dir, data, sockets, port);
  // A test run that dies must not leave a server behind.
  const killOnExit = () => postmaster.child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const halt = async () => {
    if (running(postmaster)) postmaster.child.kill('SIGINT');
    await postmaster.exited;
  };
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await halt();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await accepting(postmaster, url);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    port,
    async createDatabase() {
      const name = `test_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
    halt,
    async restart() {
      await halt();
      postmaster = spawnPostgres(owner, bin, dir, data, sockets, port);
      await accepting(postmaster, url);
    },
  };
}
