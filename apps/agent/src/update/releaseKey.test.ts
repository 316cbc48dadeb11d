import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReleaseKeyError, trustedReleaseKey } from './releaseKey.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-release-key-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const pem = (key: crypto.KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
const builtIn = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey;
const other = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey;
const otherFile = path.join(dir, 'other.pem');
fs.writeFileSync(otherFile, pem(other));

test('a program built with a release key trusts that key and refuses any other given on the command line', () => {
  assert.ok(trustedReleaseKey(undefined, pem(builtIn)).equals(builtIn));
  assert.throws(() => trustedReleaseKey(otherFile, pem(builtIn)), /trusts only the release key it was built with/);
});

test('a program built without one needs --release-key, and only an RSA public key in PEM', () => {
  assert.throws(() => trustedReleaseKey(undefined, null), ReleaseKeyError);
  assert.throws(() => trustedReleaseKey(undefined, null), /built without a release key/);
  assert.ok(trustedReleaseKey(otherFile, null).equals(other));
  const notKey = path.join(dir, 'not-a-key.pem');
  fs.writeFileSync(notKey, 'hello');
  assert.throws(() => trustedReleaseKey(notKey, null), /not an RSA public key in PEM/);
});
