import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PUBLIC_KEY_PEM, PUBLIC_KEY_XML, SIGNATURE_FILE, signSums } from './releaseSignature.ts';

/**
 * SHA256SUMS signed with a throwaway release key, then checked the way the README tells a customer:
 * the key file's SHA-256 against the published one, the signature with openssl (Linux), and the
 * XML key as .NET's RSA.FromXmlString reads it (Windows PowerShell; rebuilt here from its modulus
 * and exponent, PowerShell not being on this machine).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-release-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 });
const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const sums = 'a'.repeat(64) + '  gp-agent-linux-x64\n' + 'b'.repeat(64) + '  gp-agent-win-x64.exe\n';
fs.writeFileSync(path.join(dir, 'SHA256SUMS'), sums);
const signed = signSums(dir, keyPem);

/** The README's Linux one-liner, as a customer pastes it (with the fingerprint the README publishes). */
const linuxCheck = (fingerprint: string) =>
  spawnSync(
    'sh',
    [
      '-c',
      `[ "$(sha256sum ${PUBLIC_KEY_PEM} | cut -d' ' -f1)" = "${fingerprint}" ] && openssl dgst -sha256 -verify ${PUBLIC_KEY_PEM} -signature ${SIGNATURE_FILE} SHA256SUMS`,
    ],
    { cwd: dir, encoding: 'utf8' },
  );

test('the signature verifies with openssl once the key file matches the published fingerprint, and fails for changed sums or another key', () => {
  const ok = linuxCheck(signed.fingerprints.pem);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /Verified OK/);
  assert.notEqual(linuxCheck('0'.repeat(64)).status, 0, 'a key file other than the published one is refused');
  fs.writeFileSync(path.join(dir, 'SHA256SUMS'), sums.replace('a', 'c'));
  try {
    assert.notEqual(linuxCheck(signed.fingerprints.pem).status, 0, 'changed sums fail');
  } finally {
    fs.writeFileSync(path.join(dir, 'SHA256SUMS'), sums);
  }
});

test('the XML key PowerShell reads is the same key, and its fingerprint is its file SHA-256', () => {
  const xml = fs.readFileSync(path.join(dir, PUBLIC_KEY_XML), 'utf8');
  assert.equal(crypto.createHash('sha256').update(xml).digest('hex'), signed.fingerprints.xml);
  const [, modulus, exponent] = /^<RSAKeyValue><Modulus>([^<]+)<\/Modulus><Exponent>([^<]+)<\/Exponent><\/RSAKeyValue>$/.exec(xml)!;
  const key = crypto.createPublicKey({
    key: {
      kty: 'RSA',
      n: Buffer.from(modulus!, 'base64').toString('base64url'),
      e: Buffer.from(exponent!, 'base64').toString('base64url'),
    },
    format: 'jwk',
  });
  const signature = fs.readFileSync(path.join(dir, SIGNATURE_FILE));
  assert.ok(crypto.verify('sha256', Buffer.from(sums), { key, padding: crypto.constants.RSA_PKCS1_PADDING }, signature));
});

test('a weak release key is refused, and signing twice gives the same signature (builds stay reproducible)', () => {
  const weak = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  assert.throws(() => signSums(dir, weak), /at least 3072 bits/);
  const first = fs.readFileSync(signed.signature);
  signSums(dir, keyPem);
  assert.ok(fs.readFileSync(signed.signature).equals(first));
});
