import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import type { KeyMode } from '../../infrastructure/store/store.ts';

/**
 * Secrets handed out by the gateway (docs/api.md#key-format): API keys `lb_live_`/`lb_test_` and agent tokens
 * `lb_agent_`, each followed by 32 random base62 characters. Only their sha256 is ever stored.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
const KEY_PREFIX_LENGTH = 12;

const KEY_FORMAT = /^lb_(live|test)_[0-9A-Za-z]{32}$/;
const AGENT_TOKEN_FORMAT = /^lb_agent_[0-9A-Za-z]{32}$/;

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export function newApiKeySecret(mode: KeyMode): string {
  return `lb_${mode}_${randomBase62(SECRET_LENGTH)}`;
}

export function newAgentToken(): string {
  return `lb_agent_${randomBase62(SECRET_LENGTH)}`;
}

/** A new API key: the secret for its owner, and what the store keeps of it (prefix and hash). */
export function mintApiKey(mode: KeyMode): { secret: string; prefix: string; secretHash: string } {
  const secret = newApiKeySecret(mode);
  return { secret, prefix: keyPrefix(secret), secretHash: sha256Hex(secret) };
}

/** A new agent token, and the hash the store keeps of it. */
export function mintAgentToken(): { token: string; tokenHash: string } {
  const token = newAgentToken();
  return { token, tokenHash: sha256Hex(token) };
}

/** A one-time sign-in link's token (first password, invitation), and the hash the store keeps. */
export function mintSignInToken(): { token: string; tokenHash: string } {
  const token = `lb_link_${randomBase62(SECRET_LENGTH)}`;
  return { token, tokenHash: sha256Hex(token) };
}

/** A dashboard session's id for its cookie, and the hash the store keeps. */
export function mintSessionId(): { id: string; idHash: string } {
  const id = randomBase62(SECRET_LENGTH + 11);
  return { id, idHash: sha256Hex(id) };
}

/**
 * OAuth's secrets (docs/decisions.md#oauth-for-mcp): access tokens `lb_oat_`, refresh tokens
 * `lb_ort_`, authorization codes `lb_oac_`, each with 32 random base62 characters (190 bits), kept
 * only as their sha256 like every other secret here. Opaque rather than signed (JWT): every use reads
 * the store anyway, which is what makes a revocation take effect on the next request.
 */
const OAUTH_PREFIXES = { access: 'lb_oat_', refresh: 'lb_ort_', code: 'lb_oac_' } as const;
export type OAuthSecretKind = keyof typeof OAUTH_PREFIXES;

export function mintOAuthSecret(kind: OAuthSecretKind): { secret: string; hash: string } {
  const secret = `${OAUTH_PREFIXES[kind]}${randomBase62(SECRET_LENGTH)}`;
  return { secret, hash: sha256Hex(secret) };
}

/** Whether a bearer credential is (shaped as) an OAuth access token rather than an API key. */
export function isOAuthAccessToken(secret: string): boolean {
  return secret.startsWith(OAUTH_PREFIXES.access);
}

/** Every request hashes its key: the one-shot `hash` takes 0.3 us where a Hash object took 0.8. */
export function sha256Hex(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** The mode of a well-formed API key, or null for anything else. */
export function apiKeyMode(secret: string): KeyMode | null {
  const m = KEY_FORMAT.exec(secret);
  return m ? (m[1] as KeyMode) : null;
}

export function isAgentToken(secret: string): boolean {
  return AGENT_TOKEN_FORMAT.test(secret);
}

/** The part of a key that may be shown and logged: enough to recognise it, too little to use it. */
function keyPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX_LENGTH);
}

/** Constant-time comparison of two hex digests (lookups are by hash; this re-checks the row found). */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
