import crypto from 'node:crypto';
import fs from 'node:fs';
import {
  RELEASE_MANIFEST_FILE,
  RELEASE_SIGNATURE_FILE,
  RELEASE_SUMS_FILE,
  ReleaseManifestSchema,
  type ReleasePlatform,
} from '@gp-gateway/protocol';
import { downloadTo, fetchSmall } from './gatewayDownloads.ts';
import { downloadPathOf, startsAs, rollBack, swapIn } from './replaceProgram.ts';
import { chooseProgram, isNewer, sumsSignedBy, VerificationError } from './verifyRelease.ts';

export interface UpdateRequest {
  gatewayUrl: string;
  /** The program to replace (the running one's path, in the single-file program). */
  program: string;
  /** This agent's version. */
  current: string;
  platform: ReleasePlatform;
  /** The release key (releaseKey.ts); not needed for `check`. */
  key: crypto.KeyObject | null;
  say(line: string): void;
  /** The operating system, for how the program is swapped (replaceProgram.ts). */
  os?: NodeJS.Platform;
}

export type UpdateOutcome =
  | { result: 'up-to-date'; offered: string }
  | { result: 'available'; offered: string }
  | { result: 'updated'; offered: string; previous: string };

/** `--check`: the version the gateway's release names, against this agent's; nothing is verified or written. */
export async function checkForUpdate(request: Omit<UpdateRequest, 'key' | 'program'>): Promise<UpdateOutcome> {
  const manifest = ReleaseManifestSchema.safeParse(JSON.parse((await fetchSmall(request.gatewayUrl, RELEASE_MANIFEST_FILE)).toString()));
  if (!manifest.success) throw new VerificationError("the gateway's manifest.json is not a release manifest");
  const offered = manifest.data.version;
  return { result: isNewer(offered, request.current) ? 'available' : 'up-to-date', offered };
}

/**
 * The update itself: the release's SHA256SUMS and its signature, checked with the release key; the
 * platform's program chosen from the manifest but trusted only through the signed sums; downloaded
 * beside the program, its SHA-256 compared; swapped in (the old one kept); run once with --version,
 * and put back if it does not say the version it should. Nothing is written before the signature
 * verifies, and a refused download is deleted, leaving the old program as it was.
 */
export async function runUpdate(request: UpdateRequest): Promise<UpdateOutcome> {
  const { gatewayUrl, program, say } = request;
  if (!request.key) throw new VerificationError('no release key to verify with');
  const [manifestText, sums, signature] = await Promise.all([
    fetchSmall(gatewayUrl, RELEASE_MANIFEST_FILE),
    fetchSmall(gatewayUrl, RELEASE_SUMS_FILE),
    fetchSmall(gatewayUrl, RELEASE_SIGNATURE_FILE, 64 * 1024),
  ]);
  if (!sumsSignedBy(sums, signature, request.key))
    throw new VerificationError(
      `the signature of ${RELEASE_SUMS_FILE} does not verify with the release key: this is not a genuine release (or it was changed on the way); nothing was installed`,
    );
  say(`${RELEASE_SUMS_FILE}: signed with the release key (verified)`);
  const chosen = chooseProgram(manifestText.toString('utf8'), sums, request.platform);
  say(`Release offered: ${chosen.version} (commit ${chosen.commit}); this agent: ${request.current}`);
  if (!isNewer(chosen.version, request.current)) return { result: 'up-to-date', offered: chosen.version };

  const downloaded = downloadPathOf(program);
  try {
    const got = await downloadTo(gatewayUrl, chosen.name, downloaded);
    if (got.sha256 !== chosen.sha256)
      throw new VerificationError(
        `${chosen.name} downloaded, but its SHA-256 is ${got.sha256}, not ${chosen.sha256} as the signed ${RELEASE_SUMS_FILE} says: refused, nothing was installed`,
      );
    say(`Downloaded ${chosen.name} (${(got.bytes / 1e6).toFixed(1)} MB); its SHA-256 matches the signed ${RELEASE_SUMS_FILE}`);
    const { previous } = swapIn(program, downloaded, request.os);
    const started = startsAs(program, chosen.version);
    if (!started.ok) {
      rollBack(program, previous, request.os);
      throw new VerificationError(
        `the new program did not start as ${chosen.version} (it said: ${started.said || 'nothing'}); the previous program is back in place`,
      );
    }
    say(`Installed: ${program} is now ${chosen.version}; the previous program is kept as ${previous}`);
    return { result: 'updated', offered: chosen.version, previous };
  } finally {
    fs.rmSync(downloaded, { force: true });
  }
}
