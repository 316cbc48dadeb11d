import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReleaseFolder } from './releaseFolder.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-releases-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const sha = 'a'.repeat(64);

function writeRelease(version: string): void {
  fs.writeFileSync(path.join(dir, 'gp-agent-linux-x64'), version);
  fs.writeFileSync(path.join(dir, 'SHA256SUMS'), `${sha}  gp-agent-linux-x64\n`);
  const files = [{ name: 'gp-agent-linux-x64', kind: 'program', platform: 'linux-x64', sha256: sha, bytes: version.length }];
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ version, commit: 'c', node: '22.23.3', files }));
}

test('no folder, or one without a valid manifest, is no release: nothing served, no latest version', () => {
  assert.equal(new ReleaseFolder(path.join(dir, 'missing')).latestVersion(), null);
  fs.writeFileSync(path.join(dir, 'manifest.json'), '{"version": "one"}');
  const folder = new ReleaseFolder(dir);
  assert.equal(folder.current(), null);
  assert.equal(folder.servedPath('manifest.json'), null);
});

test('a release copied in is read without a restart, and a newer one replaces it', () => {
  const folder = new ReleaseFolder(dir);
  writeRelease('0.2.0');
  assert.equal(folder.latestVersion(), '0.2.0');
  assert.equal(folder.current()?.signed, false);
  writeRelease('0.10.0');
  assert.equal(folder.latestVersion(), '0.10.0');
});

test('only the files the release declares are served', () => {
  const folder = new ReleaseFolder(dir);
  writeRelease('0.2.0');
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'private');
  assert.equal(folder.servedPath('gp-agent-linux-x64'), path.join(dir, 'gp-agent-linux-x64'));
  assert.equal(folder.servedPath('SHA256SUMS'), path.join(dir, 'SHA256SUMS'));
  assert.equal(folder.servedPath('SHA256SUMS.sig'), null, 'declared, but not there');
  for (const name of ['notes.txt', '../gateway.sqlite', '/etc/passwd', 'gp-agent-win-x64.exe'])
    assert.equal(folder.servedPath(name), null, name);
});
