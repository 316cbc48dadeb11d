import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { throwawayCertificate } from '@gp-gateway/testing';
import { signAuthenticode, verifyAuthenticode } from './authenticode.ts';
import { buildMsi } from './msiPackage.ts';

/**
 * The MSI as Windows Installer would read it, inspected with msitools (`msiinfo`, `msiextract`):
 * built from stand-in programs, since what is checked is the package, not the programs in it.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-msi-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const program = path.join(dir, 'gp-agent-win-x64.exe');
const winsw = path.join(dir, 'winsw.exe');
fs.writeFileSync(program, 'MZ stand-in for the agent');
fs.writeFileSync(winsw, 'MZ stand-in for WinSW');
const msi = buildMsi({ program, winsw, version: '0.1.0', outDir: path.join(dir, 'dist') });
/** A table's rows, as msiinfo exports them (tab-separated; the first three lines are its header). */
const rows = (table: string) =>
  execFileSync('msiinfo', ['export', msi, table], { encoding: 'utf8' })
    .trim()
    .split(/\r?\n/)
    .slice(3)
    .map((line) => line.split('\t'));

test('the MSI installs the program, WinSW and its service file into Program Files, and keeps a folder in ProgramData', () => {
  assert.equal(path.basename(msi), 'gp-agent-0.1.0-x64.msi');
  assert.deepEqual(
    rows('File')
      .map((r) => r[2])
      .sort(),
    ['gp-agent-service.exe', 'gp-agent-service.xml', 'gp-agent.exe'],
  );
  const directories = new Map(rows('Directory').map((r) => [r[0], r[2]]));
  assert.equal(directories.get('INSTALLDIR'), 'gp-agent');
  assert.equal(directories.get('CONFIGDIR'), 'gp-agent');
  const out = path.join(dir, 'extracted');
  fs.mkdirSync(out);
  execFileSync('msiextract', ['-C', out, msi], { stdio: 'ignore' });
  // msiextract lays the files out by their folder names (INSTALLDIR is gp-agent).
  const installed = path.join(out, 'gp-agent');
  assert.ok(fs.readFileSync(path.join(installed, 'gp-agent.exe')).equals(fs.readFileSync(program)));
  assert.ok(fs.readFileSync(path.join(installed, 'gp-agent-service.exe')).equals(fs.readFileSync(winsw)));
  assert.equal(
    fs.readFileSync(path.join(installed, 'gp-agent-service.xml'), 'utf8'),
    fs.readFileSync(path.join(ROOT, 'deploy/windows/gp-agent-service.xml'), 'utf8'),
    'the service file is the one gp-agent install writes',
  );
});

test('uninstall also removes what gp-agent update leaves beside the program', () => {
  assert.deepEqual(
    rows('RemoveFile')
      .map(([key, component, name, folder, mode]) => [key, component, name, folder, mode])
      .sort(),
    [
      ['PreviousProgram', 'Program', 'gp-agent.previous.exe', 'INSTALLDIR', '2'],
      ['FailedProgram', 'Program', 'gp-agent.exe.failed', 'INSTALLDIR', '2'],
    ].sort(),
  );
  // RemoveFiles is in the sequence that runs on uninstall.
  assert.ok(rows('InstallExecuteSequence').some(([action]) => action === 'RemoveFiles'));
});

test('the service is registered for LocalService, automatic, and stopped and removed on uninstall', () => {
  const [service] = rows('ServiceInstall');
  // ServiceType 16: own process; StartType 2: automatic; ErrorControl 1: normal.
  assert.deepEqual(
    [service![1], service![3], service![4], service![5], service![8]],
    ['gp-agent', '16', '2', '1', 'NT AUTHORITY\\LocalService'],
  );
  const [control] = rows('ServiceControl');
  // Events: 0x2 stop on install, 0x20 stop on uninstall, 0x80 delete on uninstall; no start (the configuration comes first).
  assert.equal(control![1], 'gp-agent');
  assert.equal(Number(control![2]) & 0x1, 0, 'not started by the MSI itself');
  assert.equal(Number(control![2]) & 0xa2, 0xa2);
});

test('given GATEWAY, a deferred custom action runs gp-agent install --in-place as the system, and a failure rolls the install back', () => {
  const [action] = rows('CustomAction');
  assert.equal(action![0], 'Configure');
  const type = Number(action![1]);
  assert.equal(type & 0x3f, 18, 'runs a file the MSI installs');
  assert.ok(type & 0x400, 'deferred');
  assert.ok(type & 0x800, 'not impersonated: runs as LocalSystem, which may lock the folder');
  assert.equal(type & 0x40, 0, 'its exit status is checked');
  assert.match(
    action![3]!,
    /^install --in-place --gateway "\[GATEWAY\]" --token-file "\[TOKENFILE\]" --mssql "\[MSSQL\]" --mssql-password-file "\[SQLPASSWORDFILE\]"/,
  );
  const sequence = rows('InstallExecuteSequence').find((r) => r[0] === 'Configure');
  assert.equal(sequence![1], 'GATEWAY AND NOT REMOVE');
  const secure = rows('Property').find((r) => r[0] === 'SecureCustomProperties');
  assert.match(secure![1]!, /GATEWAY;TOKENFILE;MSSQL;SQLPASSWORDFILE/);
  assert.doesNotMatch(
    rows('Property')
      .map((r) => r.join('='))
      .join('\n'),
    /PASSWORD=|lb_agent_/,
    'no secret is in the package',
  );
});

test('with a certificate configured the MSI is Authenticode-signed, and osslsigncode verifies it', () => {
  const certificate = throwawayCertificate(dir, { name: 'code-signing', extensions: ['extendedKeyUsage=codeSigning'] });
  const signed = path.join(dir, 'signed.msi');
  fs.copyFileSync(msi, signed);
  signAuthenticode(signed, { certFile: certificate.certFile, keyFile: certificate.keyFile }, 'GP gateway agent', 1_700_000_000);
  assert.match(verifyAuthenticode(signed, { caFile: certificate.certFile, publisher: /code-signing/ }), /CN=code-signing/);
  assert.throws(
    () => verifyAuthenticode(msi, { caFile: certificate.certFile, publisher: /./ }),
    /does not verify/,
    'the unsigned MSI is not taken for signed',
  );
});
