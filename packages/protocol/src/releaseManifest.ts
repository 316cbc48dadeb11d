import { z } from 'zod';

/**
 * The release folder's manifest (docs/decisions.md, "Agent updates"): what `pnpm build:agent` wrote,
 * read by the gateway (the latest agent version, the dashboard's download links) and by
 * `gp-agent update` (which file is its platform's program). The manifest itself is not signed:
 * everything an agent installs is checked against SHA256SUMS, whose signature is, and the version
 * it claims must be the one the signed package names carry (agent/src/update/verifyRelease.ts).
 */
export const RELEASE_MANIFEST_FILE = 'manifest.json';
/** Where a gateway serves its release folder: stable, because installed agents fetch their updates there. */
export const RELEASE_DOWNLOADS_PATH = '/downloads';
/** The checksums, their detached RSA signature, and the public key in the two forms people check it with. */
export const RELEASE_SUMS_FILE = 'SHA256SUMS';
export const RELEASE_SIGNATURE_FILE = 'SHA256SUMS.sig';
export const RELEASE_PUBLIC_KEY_FILES = ['gp-agent-release.pub.pem', 'gp-agent-release.pub.xml'] as const;

/** The platforms the agent is built for, as `${process.platform}-${process.arch}` names them (win32 → win). */
export const RELEASE_PLATFORMS = ['linux-x64', 'win-x64'] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

/** A plain file name: letters, digits, dot, dash, underscore; never a path. */
export const ReleaseFileNameSchema = z
  .string()
  .max(128)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]*$/, 'a release file is a plain file name');

const ReleaseFileSchema = z.object({
  name: ReleaseFileNameSchema,
  /** `program`: the agent itself; `package`: the .deb or the MSI; `service-wrapper`: WinSW, for installs without the MSI. */
  kind: z.enum(['program', 'package', 'service-wrapper']),
  platform: z.enum(RELEASE_PLATFORMS),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type ReleaseFile = z.infer<typeof ReleaseFileSchema>;

export const ReleaseManifestSchema = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a release version is x.y.z'),
  commit: z.string().max(64),
  /** The Node runtime the programs embed. */
  node: z.string().max(32),
  files: z.array(ReleaseFileSchema).max(64),
});
export type ReleaseManifest = z.infer<typeof ReleaseManifestSchema>;

/** This machine's platform as the release names it; null where no program is built for it. */
export function releasePlatformOf(platform: string, arch: string): ReleasePlatform | null {
  const name = `${platform === 'win32' ? 'win' : platform}-${arch}`;
  return (RELEASE_PLATFORMS as readonly string[]).includes(name) ? (name as ReleasePlatform) : null;
}

/** `<sha256>  <name>` lines (sha256sum's format) as a map from name to checksum; lines of another shape are ignored. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *]([^\s/\\]+)$/.exec(line.trim());
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}
