import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '@gp-gateway/testing';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '@gp-gateway/gp-demo';
import { readConfigFile } from '../apps/agent/src/cli/config/configFile.ts';
import { SETTINGS } from '../apps/agent/src/cli/config/settings.ts';
import { installPlan } from '../apps/agent/src/cli/install/servicePlan.ts';
import { ROOT, waitFor } from './support/processes.ts';

/**
 * The service files in deploy/, tested as far as this Linux machine allows: they are the files
 * `gp-agent install` writes (by default), the systemd unit is verified by systemd itself, the WinSW
 * file is checked for the elements the Windows service relies on, and the command both run is run
 * here, with a configuration file and a log file, as installed (from source; e2e/agentProgram.test.ts
 * runs the single-file program). WinSW cannot run here.
 */
const DEPLOY = path.join(ROOT, 'deploy');
const PROGRAM = '/opt/gp-agent/gp-agent';
const AGENT_CLI = path.join(ROOT, 'apps/agent/src/cli/main.ts');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-deploy-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const unit = fs.readFileSync(path.join(DEPLOY, 'systemd/gp-agent.service'), 'utf8');
const directive = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(unit)?.[1];
const execStart = directive('ExecStart')!.split(' ');
/** What `gp-agent install` would write, by platform. */
const written = (platform: 'linux' | 'win32', file: RegExp) => {
  const plan = installPlan({
    platform,
    program: 'gp-agent',
    winsw: 'WinSW-x64.exe',
    settings: { gatewayUrl: 'https://gw', token: 'lb_agent_x', database: { kind: 'sqlite', dir: 'demo' } },
  });
  const step = plan.steps.find((s) => s.kind === 'write' && file.test(s.path));
  return step?.kind === 'write' ? step.text : undefined;
};

test('deploy/ holds the service files `gp-agent install` writes', () => {
  assert.equal(written('linux', /gp-agent\.service$/), unit);
  assert.equal(written('win32', /gp-agent-service\.xml$/), fs.readFileSync(path.join(DEPLOY, 'windows/gp-agent-service.xml'), 'utf8'));
});

const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
test(
  'the systemd unit passes systemd-analyze verify',
  { skip: !systemdAnalyze && 'SKIPPED LOUDLY: systemd-analyze is not installed here; the unit was NOT verified' },
  () => {
    const file = path.join(tmp, 'gp-agent.service');
    // This machine has no gp-agent user and no /opt/gp-agent: the unit is verified with node in the program's place.
    fs.writeFileSync(
      file,
      unit
        .replace(PROGRAM, process.execPath)
        .replaceAll('/opt/gp-agent', ROOT)
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
  assert.deepEqual(execStart, [PROGRAM, 'run', '--config', '/etc/gp-agent/gp-agent.conf']);
});

test('the WinSW file runs the same command, stops gracefully and rolls its logs', () => {
  const xml = fs.readFileSync(path.join(DEPLOY, 'windows/gp-agent-service.xml'), 'utf8');
  const element = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
  assert.equal(element('id'), 'gp-agent');
  assert.equal(element('executable'), 'C:\\Program Files\\gp-agent\\gp-agent.exe');
  const args = element('arguments')!
    .match(/"[^"]*"|\S+/g)!
    .map((a) => a.replace(/^"|"$/g, ''));
  assert.deepEqual(args, ['run', '--config', 'C:\\ProgramData\\gp-agent\\gp-agent.conf'], 'the same command as the systemd unit');
  assert.ok(Number(/^(\d+) sec$/.exec(element('stoptimeout')!)?.[1]) > 30, 'stoptimeout longer than the drain grace period');
  assert.match(xml, /<log mode="roll-by-size">\s*<sizeThreshold>\d+<\/sizeThreshold>\s*<keepFiles>\d+<\/keepFiles>\s*<\/log>/);
  assert.equal((xml.match(/<onfailure action="restart"/g) ?? []).length, 3);
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
  const child = spawn(process.execPath, ['--import', 'tsx', AGENT_CLI, ...args], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
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
