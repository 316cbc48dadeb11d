import type { ApiKey } from '../../infrastructure/store/store.ts';
import { sameDigest } from './secrets.ts';

/**
 * Whether a secret whose sha256 is `hash` opens `key` at `nowMs`: the key's current secret, or the
 * one it replaced while the rotation's overlap lasts (docs/decisions.md#rotation-with-an-overlap).
 * The end is compared here, on every request, rather than in the store's lookup, so that a key
 * remembered from before the end (infrastructure/store/engines/*KeyMemory.ts) still stops opening
 * at the end: nothing in the store changes then, and nobody is told.
 */
export function secretOpens(key: ApiKey, hash: string, nowMs: number): boolean {
  if (key.revokedAt !== null) return false;
  if (sameDigest(key.secretHash, hash)) return true;
  return (
    key.previousSecretHash !== null &&
    key.previousSecretUntil !== null &&
    sameDigest(key.previousSecretHash, hash) &&
    nowMs < Date.parse(key.previousSecretUntil)
  );
}
