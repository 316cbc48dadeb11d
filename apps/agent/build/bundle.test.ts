import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleAgent } from './bundle.ts';
import { releasePublicKeyPem } from './releaseSignature.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-bundle-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test("the bundled agent carries the release key's public half, which gp-agent update trusts, and never the private key", async () => {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicPem = releasePublicKeyPem(privatePem);
  const script = fs.readFileSync(await bundleAgent({ commit: 'test', outDir: dir, releasePublicKey: publicPem }), 'utf8');
  // The PEM's base64 lines, however the minifier quotes the string (a template literal keeps real newlines).
  const lines = (pem: string) => pem.trim().split('\n').slice(1, -1);
  for (const line of lines(publicPem)) assert.ok(script.includes(line), `the public key's line ${line}`);
  for (const line of lines(privatePem)) assert.ok(!script.includes(line), 'nothing of the private key');
});
