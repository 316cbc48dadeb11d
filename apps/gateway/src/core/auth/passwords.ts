import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Dashboard passwords, hashed with scrypt (memory-hard, in Node's own crypto: no native module to
 * build). N = 2^15, r = 8 costs 32 MiB and about 0.1 s per hash on a build-machine core, which is what
 * OWASP's password storage guidance asks of scrypt. The parameters travel with each hash, so they can
 * be raised later without invalidating stored passwords.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, cost: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128 * N * r bytes, with room to spare.
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...cost, maxmem: 256 * cost.N! * cost.r! }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether the password is the one hashed; false for anything that is not a hash of ours. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every(Number.isSafeInteger)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), cost);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Why a new password is not acceptable, or null when it is. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `the password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `the password may have at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}
