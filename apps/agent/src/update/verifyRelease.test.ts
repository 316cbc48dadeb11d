import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { chooseProgram, isNewer, sumsSignedBy, VerificationError } from './verifyRelease.ts';

const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 });
const hex = (c: string) => c.repeat(64);
const sums = Buffer.from(
  `${hex('a')}  gp-agent-linux-x64\n${hex('b')}  gp-agent-win-x64.exe\n${hex('c')}  gp-agent_0.2.0_amd64.deb\n${hex('d')}  gp-agent-0.2.0-x64.msi\n`,
);
const manifest = (version: string, linuxSha = hex('e')) =>
  JSON.stringify({
    version,
    commit: 'abc',
    node: '22.23.3',
    files: [
      { name: 'gp-agent-linux-x64', kind: 'program', platform: 'linux-x64', sha256: linuxSha, bytes: 1 },
      { name: 'gp-agent-win-x64.exe', kind: 'program', platform: 'win-x64', sha256: hex('b'), bytes: 1 },
    ],
  });

test("the signature verifies for exactly the signed bytes and the release key's, nothing else", () => {
  const signature = crypto.sign('sha256', sums, { key: privateKey, padding: crypto.constants.RSA_PKCS1_PADDING });
  assert.equal(sumsSignedBy(sums, signature, publicKey), true);
  const changed = Buffer.from(sums);
  changed[0] = 'f'.charCodeAt(0);
  assert.equal(sumsSignedBy(changed, signature, publicKey), false);
  const other = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey;
  assert.equal(sumsSignedBy(sums, signature, other), false);
  assert.equal(sumsSignedBy(sums, Buffer.from('not a signature'), publicKey), false);
});

test("the program's checksum comes from the signed sums, never from the unsigned manifest", () => {
  const chosen = chooseProgram(manifest('0.2.0'), sums, 'linux-x64');
  assert.deepEqual(chosen, { version: '0.2.0', commit: 'abc', name: 'gp-agent-linux-x64', sha256: hex('a') });
  assert.equal(chooseProgram(manifest('0.2.0'), sums, 'win-x64').name, 'gp-agent-win-x64.exe');
});

test('a manifest claiming a version the signed packages do not carry is refused (an old signed release passed off as new)', () => {
  assert.throws(() => chooseProgram(manifest('9.9.9'), sums, 'linux-x64'), {
    name: 'Error',
    message: /the manifest says version 9\.9\.9, but the signed SHA256SUMS lists no package of that version/,
  });
  assert.throws(() => chooseProgram('{"version": "0.2.0"}', sums, 'linux-x64'), VerificationError);
  assert.throws(() => chooseProgram('not json', sums, 'linux-x64'), /not a release manifest/);
});

test('only a newer version is an update', () => {
  assert.equal(isNewer('0.2.0', '0.1.0'), true);
  assert.equal(isNewer('0.10.0', '0.9.0'), true);
  assert.equal(isNewer('0.1.0', '0.1.0'), false);
  assert.equal(isNewer('0.1.0', '0.2.0'), false);
});
