import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * The release key `gp-agent update` trusts (docs/decisions.md, "Agent updates"): the public half of
 * the key that signs SHA256SUMS, built into the program by `pnpm build:agent` when GP_AGENT_RELEASE_KEY
 * is set. Never taken from the gateway: a gateway that was broken into must not be able to hand its
 * agents a program of its own making.
 */
declare const GP_AGENT_RELEASE_PUBLIC_KEY: string | null | undefined;
const BUILT_IN: string | null = typeof GP_AGENT_RELEASE_PUBLIC_KEY === 'string' ? GP_AGENT_RELEASE_PUBLIC_KEY : null;

export class ReleaseKeyError extends Error {}

/**
 * The key to verify with: the built-in one; or, for a program built without one (run from a
 * checkout, a test build), the PEM file an administrator names with --release-key. A program that
 * has a built-in key refuses any other, so no flag talks it into trusting someone else's release.
 */
export function trustedReleaseKey(file: string | undefined, builtIn: string | null = BUILT_IN): crypto.KeyObject {
  if (builtIn) {
    if (file)
      throw new ReleaseKeyError(
        'this program trusts only the release key it was built with; leave out --release-key (it is for builds without one)',
      );
    return crypto.createPublicKey(builtIn);
  }
  if (!file)
    throw new ReleaseKeyError(
      "this program was built without a release key, so it cannot tell a genuine release from another: install the release by hand (docs/operations.md, 'Verifying a release'), or pass --release-key <the release's public key, PEM>",
    );
  try {
    const key = crypto.createPublicKey(fs.readFileSync(file, 'utf8'));
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not an RSA key');
    return key;
  } catch (error) {
    throw new ReleaseKeyError(`--release-key ${file}: not an RSA public key in PEM (${(error as Error).message})`);
  }
}
