import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { InstallSteps } from './installSteps.ts';

/**
 * What a form's answer shows on the page it redirects to (post/redirect/get,
 * docs/decisions.md#post-redirect-get-and-secrets-shown-once): a notice or a problem, and perhaps a
 * secret made by the form, shown by that one view and never again.
 */
export interface Flash {
  /** The page (`keys`, `connections`, `users`) it is shown on. */
  page: string;
  notice?: string;
  problem?: string;
  secret?: { title: string; value: string; explanation: string };
  install?: InstallSteps;
  createdId?: string;
}

const INFO = 'gp-gateway dashboard flash\u0000';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key a session's messages are sealed with: derived from the session id, which only the
 * browser's cookie holds (the store keeps its sha256), so the store holds a secret shown once only in
 * a form that nothing it holds can open.
 */
function keyOf(sessionId: string): Buffer {
  return createHmac('sha256', INFO).update(sessionId).digest();
}

/** The message sealed (AES-256-GCM) for the session: base64url of IV, tag and ciphertext. */
export function sealFlash(sessionId: string, flash: Flash): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionId), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(flash), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The message, or null when it was not sealed for this session or was altered. */
export function openFlash(sessionId: string, sealed: string): Flash | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionId), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Flash;
  } catch {
    return null;
  }
}
