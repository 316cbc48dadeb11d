import crypto from 'node:crypto';
import { isOlderVersion, parseSums, ReleaseManifestSchema, type ReleaseManifest, type ReleasePlatform } from '@gp-gateway/protocol';

/**
 * What `gp-agent update` checks before it installs anything (docs/decisions.md, "Agent updates"),
 * the same checks docs/operations.md's one-liners make by hand: SHA256SUMS carries the release
 * key's signature (RSA, SHA-256, PKCS#1 v1.5, as releaseSignature.ts signs it), and the program's
 * SHA-256 is the one SHA256SUMS lists.
 */
export class VerificationError extends Error {}

/** Whether `signature` is the release key's signature of exactly these SHA256SUMS bytes. */
export function sumsSignedBy(sums: Buffer, signature: Buffer, key: crypto.KeyObject): boolean {
  try {
    return crypto.verify('sha256', sums, { key, padding: crypto.constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    return false;
  }
}

export interface ChosenProgram {
  /** The release's version, as the signed package names confirm it. */
  version: string;
  commit: string;
  /** The program's file name in the release, and its checksum from the signed SHA256SUMS. */
  name: string;
  sha256: string;
}

/** The .deb's and the MSI's names carry the version (build/debPackage.ts, build/msiPackage.ts). */
const PACKAGE_NAMES = (version: string) => [`gp-agent_${version}_amd64.deb`, `gp-agent-${version}-x64.msi`];

/**
 * The program for `platform` in a release whose SHA256SUMS is already verified. The manifest is not
 * signed, so nothing is taken from it on trust: the program's checksum is SHA256SUMS', and the
 * version it claims must be the one the signed package names carry, so a gateway cannot pass an old
 * signed release off as a new one (a downgrade to a version with a known flaw).
 */
export function chooseProgram(manifestText: string, verifiedSums: Buffer, platform: ReleasePlatform): ChosenProgram {
  let manifest: ReleaseManifest;
  try {
    manifest = ReleaseManifestSchema.parse(JSON.parse(manifestText));
  } catch {
    throw new VerificationError("the gateway's manifest.json is not a release manifest");
  }
  const sums = parseSums(verifiedSums.toString('utf8'));
  if (!PACKAGE_NAMES(manifest.version).some((name) => sums.has(name)))
    throw new VerificationError(
      `the manifest says version ${manifest.version}, but the signed SHA256SUMS lists no package of that version: the release folder mixes two releases`,
    );
  const program = manifest.files.find((file) => file.kind === 'program' && file.platform === platform);
  if (!program) throw new VerificationError(`the release has no program for ${platform}`);
  const sha256 = sums.get(program.name);
  if (!sha256) throw new VerificationError(`the signed SHA256SUMS does not list ${program.name}`);
  return { version: manifest.version, commit: manifest.commit, name: program.name, sha256 };
}

/** Whether `offered` is newer than `current`: what --check reports and what update installs. */
export function isNewer(offered: string, current: string): boolean {
  return isOlderVersion(current, offered);
}
