import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeManifest } from '../../apps/agent/build/releaseManifest.ts';
import { signSums } from '../../apps/agent/build/releaseSignature.ts';

/** A stand-in agent program: a script that answers --version as the real one does. */
export const standInProgram = (version: string) => `#!/bin/sh\necho "${version} (commit e2e${version.replaceAll('.', '')})"\n`;

/** A throwaway RSA release key (3072 bits, as the build requires). */
export function throwawayReleaseKey(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * A release folder as `pnpm build:agent` writes one (build/main.ts: SHA256SUMS, its signature and
 * key files, manifest.json, by the build's own functions), with stand-in files for the programs and
 * packages: tests of what the gateway and `gp-agent update` do with a release need no 100 MB build.
 * `linuxProgram` puts real bytes in place of the Linux stand-in (e2e/agentProgram.test.ts).
 */
export function buildRelease(
  dir: string,
  version: string,
  privatePem: string,
  options: { linuxProgram?: Buffer; commit?: string } = {},
): void {
  fs.mkdirSync(dir, { recursive: true });
  const commit = options.commit ?? `e2e${version.replaceAll('.', '')}`;
  const files = [
    { name: 'gp-agent-linux-x64', kind: 'program', platform: 'linux-x64', body: options.linuxProgram ?? standInProgram(version) },
    { name: `gp-agent_${version}_amd64.deb`, kind: 'package', platform: 'linux-x64', body: 'deb' },
    { name: 'gp-agent-win-x64.exe', kind: 'program', platform: 'win-x64', body: 'MZ' },
    { name: `gp-agent-${version}-x64.msi`, kind: 'package', platform: 'win-x64', body: 'msi' },
  ] as const;
  const sums = files.map(({ name, body }) => {
    fs.writeFileSync(path.join(dir, name), body, { mode: 0o755 });
    return `${crypto.createHash('sha256').update(body).digest('hex')}  ${name}\n`;
  });
  fs.writeFileSync(path.join(dir, 'SHA256SUMS'), sums.join(''));
  writeManifest(
    dir,
    { version, commit, node: '22.23.3' },
    files.map(({ name, kind, platform }) => ({ name, kind, platform })),
  );
  signSums(dir, privatePem);
}
