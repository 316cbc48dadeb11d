import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemdUnit, winswXml } from './serviceFiles.ts';
import { findServiceManager, restartService } from './serviceRestart.ts';

/**
 * Which service `gp-agent update` restarts, found in a folder standing for `/` (the test-only
 * GP_AGENT_TEST_SYSTEM_ROOT), and the restart run through stand-ins for systemctl and WinSW that
 * record their arguments: this machine's services are never touched.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-restart-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A stand-in command: records its arguments in `<file>.calls`, says something on stderr and exits as told. */
function standIn(file: string, exit: number): () => string[] {
  const calls = `${file}.calls`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "$*" >> '${calls}'\necho "told to exit ${exit}" >&2\nexit ${exit}\n`, { mode: 0o755 });
  return () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : []);
}

/** A system root with, as asked, systemd running and the unit `gp-agent install` writes for `program`. */
function systemRoot(name: string, options: { systemd: boolean; unitFor?: string; unitAt?: string }): string {
  const root = path.join(dir, name);
  fs.mkdirSync(root, { recursive: true });
  if (options.systemd) fs.mkdirSync(path.join(root, 'run/systemd/system'), { recursive: true });
  if (options.unitFor) {
    const unit = path.join(root, options.unitAt ?? 'etc/systemd/system/gp-agent.service');
    fs.mkdirSync(path.dirname(unit), { recursive: true });
    const layout = {
      program: options.unitFor,
      installDir: path.dirname(options.unitFor),
      config: '/etc/gp-agent/gp-agent.conf',
      user: 'gp-agent',
    };
    fs.writeFileSync(unit, systemdUnit(layout));
  }
  return root;
}

const PROGRAM = '/opt/gp-agent/gp-agent';

test('without systemd nothing is restarted, and the operator is told how to restart the agent by hand', () => {
  const found = findServiceManager(PROGRAM, {
    platform: 'linux',
    systemRoot: systemRoot('no-systemd', { systemd: false, unitFor: PROGRAM }),
  });
  assert.ok('none' in found);
  assert.match(found.none, /^this machine does not run systemd, so no service was restarted: stop the agent that runs now/);
  assert.match(found.none, /\/opt\/gp-agent\/gp-agent run --config <its configuration file>/);
});

test('with systemd but no gp-agent unit, nothing is restarted and the places looked in are named', () => {
  const found = findServiceManager(PROGRAM, { platform: 'linux', systemRoot: systemRoot('no-unit', { systemd: true }) });
  assert.ok('none' in found);
  assert.match(
    found.none,
    /^no gp-agent service is registered with systemd \(no \/etc\/systemd\/system\/gp-agent\.service, \/lib\/systemd/,
  );
});

test('a unit that runs another program than the one updated is not restarted', () => {
  const root = systemRoot('other-program', { systemd: true, unitFor: '/srv/elsewhere/gp-agent' });
  const found = findServiceManager(PROGRAM, { platform: 'linux', systemRoot: root });
  assert.ok('none' in found);
  assert.equal(
    found.none,
    `the gp-agent service (/etc/systemd/system/gp-agent.service) runs /srv/elsewhere/gp-agent, not ${PROGRAM}, so it was not restarted`,
  );
});

test("the .deb's unit (in /lib) running the program is restarted with systemctl, found by absolute path", () => {
  const root = systemRoot('deb', { systemd: true, unitFor: PROGRAM, unitAt: 'lib/systemd/system/gp-agent.service' });
  const calls = standIn(path.join(root, 'usr/bin/systemctl'), 0);
  const found = findServiceManager(PROGRAM, { platform: 'linux', systemRoot: root });
  assert.ok('manager' in found, JSON.stringify(found));
  assert.equal(found.manager.command, path.join(root, 'usr/bin/systemctl'));
  assert.deepEqual(restartService(found.manager), { ok: true });
  assert.deepEqual(calls(), ['restart gp-agent']);
});

test('a refused restart is reported with what the service manager said', () => {
  const root = systemRoot('refused', { systemd: true, unitFor: PROGRAM });
  standIn(path.join(root, 'usr/sbin/systemctl'), 1);
  const found = findServiceManager(PROGRAM, { platform: 'linux', systemRoot: root });
  assert.ok('manager' in found);
  assert.deepEqual(restartService(found.manager), { ok: false, detail: 'exit 1: told to exit 1' });
});

test('systemctl missing from the system folders: nothing restarted, said plainly (the new program is already in place)', () => {
  const root = systemRoot('no-systemctl', { systemd: true, unitFor: PROGRAM });
  const found = findServiceManager(PROGRAM, { platform: 'linux', systemRoot: root });
  assert.ok('none' in found);
  assert.match(found.none, /^systemctl is not in .*\/usr\/sbin, .*, so the service was not restarted: stop the agent that runs now/);
});

test('on Windows, WinSW beside the program restarts the service whose <executable> is the program', () => {
  const folder = path.join(dir, 'windows');
  const program = path.join(folder, 'gp-agent.exe');
  const calls = standIn(path.join(folder, 'gp-agent-service.exe'), 0);
  const layout = {
    program,
    installDir: folder,
    config: 'C:\\ProgramData\\gp-agent\\gp-agent.conf',
    logDir: 'C:\\ProgramData\\gp-agent\\logs',
  };
  fs.writeFileSync(path.join(folder, 'gp-agent-service.xml'), winswXml(layout));
  const found = findServiceManager(program, { platform: 'win32' });
  assert.ok('manager' in found, JSON.stringify(found));
  assert.deepEqual(restartService(found.manager), { ok: true });
  assert.deepEqual(calls(), ['restart']);

  fs.writeFileSync(path.join(folder, 'gp-agent-service.xml'), winswXml({ ...layout, program: 'D:\\other\\gp-agent.exe' }));
  const other = findServiceManager(program, { platform: 'win32' });
  assert.ok('none' in other);
  assert.match(other.none, /runs D:\\other\\gp-agent\.exe, not /);

  const alone = path.join(dir, 'alone', 'gp-agent.exe');
  const none = findServiceManager(alone, { platform: 'win32' });
  assert.ok('none' in none);
  assert.match(none.none, /^no Windows service beside .* \(no gp-agent-service\.exe\), so none was restarted: stop the agent/);
});
