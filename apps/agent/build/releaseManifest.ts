import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RELEASE_MANIFEST_FILE, ReleaseManifestSchema, type ReleaseFile, type ReleaseManifest } from '@gp-gateway/protocol';

/**
 * Writes `dir`/manifest.json: the version, commit and Node runtime of the release and, for each file
 * a customer or an agent fetches, its kind, platform, SHA-256 and size. The gateway serves it with
 * the files (docs/operations.md, "Updating agents"); the files' checksums are also in the signed
 * SHA256SUMS, which is what an agent trusts.
 */
export function writeManifest(
  dir: string,
  release: { version: string; commit: string; node: string },
  files: Array<Pick<ReleaseFile, 'name' | 'kind' | 'platform'>>,
): ReleaseManifest {
  const manifest = ReleaseManifestSchema.parse({
    ...release,
    files: files.map((file) => {
      const bytes = fs.readFileSync(path.join(dir, file.name));
      return { ...file, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
    }),
  });
  fs.writeFileSync(path.join(dir, RELEASE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
