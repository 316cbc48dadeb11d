import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDeb } from './debPackage.ts';

/**
 * The .deb as dpkg sees it (`dpkg-deb -I`, `-c`), and its maintainer scripts run as dpkg runs them
 * for a `--root` install: in a temporary folder ($DPKG_ROOT), with stand-ins for useradd, systemctl
 * and the rest that record what they were asked. Nothing on this machine is installed or changed.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-deb-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const program = path.join(dir, 'gp-agent-linux-x64');
fs.writeFileSync(program, '#!/bin/sh\necho stand-in for the single-file program\n', { mode: 0o755 });
const request = { program, version: '0.1.0', example: path.join(ROOT, 'deploy/gp-agent.conf.example'), epoch: 1_700_000_000 };
const deb = buildDeb({ ...request, outDir: path.join(dir, 'dist') });
const dpkgDeb = (...args: string[]) => execFileSync('dpkg-deb', args, { encoding: 'utf8' });

test('the package names itself, depends on what postinst uses, and holds the program, the unit and the example, owned by root', () => {
  assert.equal(path.basename(deb), 'gp-agent_0.1.0_amd64.deb');
  const info = dpkgDeb('-I', deb);
  assert.match(info, /^ Package: gp-agent$/m);
  assert.match(info, /^ Version: 0\.1\.0$/m);
  assert.match(info, /^ Architecture: amd64$/m);
  assert.match(info, /^ Depends: passwd$/m);
  for (const script of ['postinst', 'prerm', 'postrm'])
    assert.match(info, new RegExp(`^ +\\d+ bytes, +\\d+ lines +\\* +${script} +#!/bin/sh$`, 'm'));
  const files = dpkgDeb('-c', deb)
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/))
    .filter((f) => !f[0]!.startsWith('d'))
    .map(([mode, owner, , , , name]) => `${mode} ${owner} ${name}`);
  assert.deepEqual(files.sort(), [
    '-rw-r--r-- root/root ./lib/systemd/system/gp-agent.service',
    '-rw-r--r-- root/root ./usr/share/doc/gp-agent/gp-agent.conf.example',
    '-rwxr-xr-x root/root ./opt/gp-agent/gp-agent',
  ]);
  dpkgDeb('-x', deb, path.join(dir, 'x'));
  assert.equal(
    fs.readFileSync(path.join(dir, 'x/lib/systemd/system/gp-agent.service'), 'utf8'),
    fs.readFileSync(path.join(ROOT, 'deploy/systemd/gp-agent.service'), 'utf8'),
    'the unit is the one gp-agent install writes',
  );
});

test('built twice, the package is the same bytes', () => {
  const again = buildDeb({ ...request, outDir: path.join(dir, 'again') });
  assert.ok(fs.readFileSync(again).equals(fs.readFileSync(deb)));
});

/** Runs a maintainer script under $DPKG_ROOT with recording stand-ins; `users` is what getent knows. */
function maintainerScript(name: string, args: string[], options: { systemd: boolean; users: string[]; root: string }) {
  const scripts = path.join(dir, 'control');
  if (!fs.existsSync(scripts)) dpkgDeb('-e', deb, scripts);
  const bin = path.join(options.root, '.stand-ins');
  const log = path.join(options.root, '.calls');
  fs.mkdirSync(bin, { recursive: true });
  for (const tool of ['useradd', 'userdel', 'systemctl', 'chown'])
    fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(bin, 'getent'),
    `#!/bin/sh\nfor u in ${options.users.join(' ')}; do [ "$2" = "$u" ] && exit 0; done\nexit 2\n`,
    { mode: 0o755 },
  );
  if (options.systemd) fs.mkdirSync(path.join(options.root, 'run/systemd/system'), { recursive: true });
  const run = spawnSync(path.join(scripts, name), args, {
    env: { PATH: `${bin}:/usr/bin:/bin`, DPKG_ROOT: options.root },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  const calls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
  fs.rmSync(log, { force: true });
  return { calls, out: run.stdout };
}

test('postinst creates the account and the private configuration folder, and starts the service only once a configuration exists', () => {
  const root = path.join(dir, 'root-systemd');
  const first = maintainerScript('postinst', ['configure'], { systemd: true, users: [], root });
  assert.deepEqual(first.calls, [
    'useradd --system --user-group --home-dir /opt/gp-agent --no-create-home --shell /usr/sbin/nologin gp-agent',
    `chown root:gp-agent ${root}/etc/gp-agent`,
    'systemctl daemon-reload',
  ]);
  assert.equal(fs.statSync(path.join(root, 'etc/gp-agent')).mode & 0o777, 0o750);
  assert.match(first.out, /installed, NOT started: write \/etc\/gp-agent\/gp-agent\.conf/);
  fs.writeFileSync(path.join(root, 'etc/gp-agent/gp-agent.conf'), 'GP_GATEWAY_URL = https://gw\n');
  const second = maintainerScript('postinst', ['configure', '0.1.0'], { systemd: true, users: ['gp-agent'], root });
  assert.deepEqual(second.calls, [
    `chown root:gp-agent ${root}/etc/gp-agent`,
    `chown root:gp-agent ${root}/etc/gp-agent/gp-agent.conf`,
    'systemctl daemon-reload',
    'systemctl enable gp-agent.service',
    'systemctl restart gp-agent.service',
  ]);
  assert.equal(fs.statSync(path.join(root, 'etc/gp-agent/gp-agent.conf')).mode & 0o777, 0o640);
});

test('without systemd postinst starts nothing and prints the command that runs the agent', () => {
  const { calls, out } = maintainerScript('postinst', ['configure'], { systemd: false, users: [], root: path.join(dir, 'root-plain') });
  assert.ok(!calls.some((c) => c.startsWith('systemctl')), calls.join('\n'));
  assert.match(
    out,
    /NOT started \(this machine does not run systemd\)[\s\S]*runuser -u gp-agent -- \/opt\/gp-agent\/gp-agent run --config/,
  );
});

test('remove stops the service and takes the program update kept; purge removes the configuration (it holds the token) and the account, and reminds to revoke the token', () => {
  const root = path.join(dir, 'root-purge');
  fs.mkdirSync(path.join(root, 'etc/gp-agent'), { recursive: true });
  fs.writeFileSync(path.join(root, 'etc/gp-agent/gp-agent.conf'), 'GP_AGENT_TOKEN = secret\n');
  assert.deepEqual(maintainerScript('prerm', ['remove'], { systemd: true, users: ['gp-agent'], root }).calls, [
    'systemctl disable --now gp-agent.service',
  ]);
  assert.deepEqual(maintainerScript('prerm', ['upgrade', '0.2.0'], { systemd: true, users: ['gp-agent'], root }).calls, []);
  assert.ok(fs.existsSync(path.join(root, 'etc/gp-agent/gp-agent.conf')), 'remove keeps the configuration');
  // What dpkg leaves of /opt/gp-agent after an update: the program update replaced, which no package owns.
  fs.mkdirSync(path.join(root, 'opt/gp-agent'), { recursive: true });
  fs.writeFileSync(path.join(root, 'opt/gp-agent/gp-agent.previous'), 'the program before the last update');
  maintainerScript('postrm', ['remove'], { systemd: true, users: ['gp-agent'], root });
  assert.ok(!fs.existsSync(path.join(root, 'opt/gp-agent')), 'remove takes the previous program and its folder');
  assert.ok(fs.existsSync(path.join(root, 'etc/gp-agent/gp-agent.conf')), 'and keeps the configuration');
  const purge = maintainerScript('postrm', ['purge'], { systemd: true, users: ['gp-agent'], root });
  assert.deepEqual(purge.calls, ['systemctl daemon-reload', 'userdel gp-agent']);
  assert.ok(!fs.existsSync(path.join(root, 'etc/gp-agent')));
  assert.match(purge.out, /revoke-token/);
});
