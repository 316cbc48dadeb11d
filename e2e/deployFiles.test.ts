import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { readConfigFile, SETTINGS } from '../apps/agent/src/cli/runConfig.ts';
import { ROOT, waitFor } from './support/processes.ts';

/**
 * The service files in deploy/, tested as far as this Linux machine allows: the systemd unit is
 * verified by systemd itself, the WinSW file is checked for the elements the Windows service relies
 * on, and the command both run is run here, with a configuration file and a log file, as installed.
 * PowerShell and WinSW cannot run here; install.ps1 is exercised by hand on Windows (README).
 */
const DEPLOY = path.join(ROOT, 'deploy');
const INSTALLED = '/opt/gp-agent';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-deploy-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const unit = fs.readFileSync(path.join(DEPLOY, 'systemd/gp-agent.service'), 'utf8');
const directive = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(unit)?.[1];
/** ExecStart as arguments, with the install folder mapped onto this checkout. */
const execStart = directive('ExecStart')!
  .split(' ')
  .map((a) => a.replace(INSTALLED, ROOT));

const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
test(
  'the systemd unit passes systemd-analyze verify',
  { skip: !systemdAnalyze && 'SKIPPED LOUDLY: systemd-analyze is not installed here; the unit was NOT verified' },
  () => {
    const file = path.join(tmp, 'gp-agent.service');
    // This machine has no gp-agent user and no /opt/gp-agent: the unit is verified against this checkout.
    fs.writeFileSync(
      file,
      unit
        .replaceAll(INSTALLED, ROOT)
        .replace(/^User=.*$/m, 'User=root')
        .replace(/^Group=.*$/m, 'Group=root'),
    );
    const run = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr.trim(), '', 'no warnings');
  },
);

test('the unit stops with SIGTERM, gives the drain room, and does not restart after a configuration error or a refused token', () => {
  assert.equal(directive('KillSignal'), 'SIGTERM');
  assert.ok(Number(directive('TimeoutStopSec')) > 30, 'longer than the 30 s drain grace period');
  assert.equal(directive('Restart'), 'always');
  assert.equal(directive('RestartPreventExitStatus'), '1 2');
  // The heap floor is every launcher's (docs/decisions.md "Speed", launchers.test.ts).
  assert.deepEqual(execStart.slice(0, 4), ['/usr/bin/node', '--initial-old-space-size=128', '--import', 'tsx']);
  assert.ok(fs.existsSync(execStart[4]!), `${execStart[4]} is the agent's CLI`);
  assert.deepEqual(execStart.slice(5), ['run', '--config', '/etc/gp-agent/gp-agent.conf']);
});

test('the WinSW file runs the same command, stops gracefully and rolls its logs', () => {
  const xml = fs.readFileSync(path.join(DEPLOY, 'windows/gp-agent.xml'), 'utf8');
  const element = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
  assert.equal(element('id'), 'gp-agent');
  assert.match(element('executable')!, /\\node\.exe$/);
  const args = element('arguments')!
    .match(/"[^"]*"|\S+/g)!
    .map((a) => a.replace(/^"|"$/g, ''));
  const cli = args[3]!.replace('C:\\Program Files\\gp-agent\\', '').replaceAll('\\', '/');
  assert.deepEqual(
    [...args.slice(0, 3), cli, ...args.slice(4, 6)],
    [...execStart.slice(1, 4), 'apps/agent/src/cli/main.ts', 'run', '--config'],
  );
  assert.equal(path.join(ROOT, cli), execStart[4], 'the same CLI as the systemd unit');
  assert.ok(Number(/^(\d+) sec$/.exec(element('stoptimeout')!)?.[1]) > 30, 'stoptimeout longer than the drain grace period');
  assert.match(xml, /<log mode="roll-by-size">\s*<sizeThreshold>\d+<\/sizeThreshold>\s*<keepFiles>\d+<\/keepFiles>\s*<\/log>/);
  assert.equal((xml.match(/<onfailure action="restart"/g) ?? []).length, 3);
  for (const ps1 of ['install.ps1', 'uninstall.ps1']) assert.ok(fs.existsSync(path.join(DEPLOY, 'windows', ps1)));
});

test('the example configuration names only real settings, and documents every one', () => {
  const example = path.join(DEPLOY, 'gp-agent.conf.example');
  readConfigFile(example);
  const text = fs.readFileSync(example, 'utf8');
  for (const { name } of Object.values(SETTINGS)) assert.match(text, new RegExp(`^#? ?${name} = `, 'm'), `${name} is documented`);
});

const logrotate = spawnSync('logrotate', ['--version']).status === 0;
test(
  'the logrotate file parses',
  { skip: !logrotate && 'SKIPPED LOUDLY: logrotate is not installed here; gp-agent.logrotate was NOT checked' },
  () => {
    // No gp-agent user here: the same file with root in the `su` line.
    const file = path.join(tmp, 'gp-agent.logrotate');
    fs.writeFileSync(
      file,
      fs.readFileSync(path.join(DEPLOY, 'systemd/gp-agent.logrotate'), 'utf8').replace('su gp-agent gp-agent', 'su root root'),
    );
    const run = spawnSync('logrotate', ['--debug', '--state', path.join(tmp, 'logrotate.state'), file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /^error:/m);
    assert.match(run.stderr, /rotating pattern: \/var\/log\/gp-agent\/\*\.log/);
  },
);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test('the service command runs the agent from its configuration file; it keeps retrying an absent gateway, reopens its log on SIGHUP and stops with exit 0', async () => {
  const site = path.join(tmp, 'demo');
  generateDemo({ dir: site, scale: 1, seed: 3 });
  const log = path.join(tmp, 'logs', 'agent.log');
  const conf = path.join(tmp, 'gp-agent.conf');
  fs.writeFileSync(
    conf,
    [
      `GP_GATEWAY_URL = http://127.0.0.1:${await freePort()}`,
      `GP_AGENT_TOKEN = lb_agent_${'x'.repeat(32)}`,
      'GP_SQLITE_DIR = demo',
      'GP_AGENT_LOG_FILE = logs/agent.log',
      'GP_AGENT_BACKOFF_MIN_MS = 20',
      'GP_AGENT_BACKOFF_MAX_MS = 80',
    ].join('\n'),
  );
  const args = execStart.slice(1).map((a) => (a === '/etc/gp-agent/gp-agent.conf' ? conf : a));
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore', env: { ...process.env, LOG_LEVEL: 'info' } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const lines = (file: string) =>
      fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [];
    const retries = await waitFor(
      'five retries in the log file',
      () => {
        const r = lines(log).filter((l) => l.msg === 'not connected to the gateway; retrying');
        return r.length >= 5 ? r : null;
      },
      20_000,
    );
    const started = lines(log).find((l) => l.msg === 'agent starting');
    assert.equal(started.configFile, conf);
    assert.deepEqual(started.database, { kind: 'sqlite', dir: path.join(tmp, 'demo') });
    assert.deepEqual(
      retries.slice(0, 5).map((r) => r.attempt),
      [1, 2, 3, 4, 5],
    );
    assert.ok(
      retries.every((r) => r.retryInMs <= 80 && /ECONNREFUSED/.test(r.reason)),
      JSON.stringify(retries),
    );
    assert.ok(!fs.readFileSync(log, 'utf8').includes('x'.repeat(32)), 'the token is never logged');

    // What logrotate does: move the file away, then SIGHUP; the agent carries on in a new file.
    fs.renameSync(log, `${log}.1`);
    child.kill('SIGHUP');
    await waitFor(
      'the reopened log file',
      () => (lines(log).some((l) => l.msg === 'not connected to the gateway; retrying') ? true : null),
      10_000,
    );
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.ok(lines(log).some((l) => l.msg === 'agent stopped'));
  } finally {
    child.kill('SIGKILL');
  }
});
