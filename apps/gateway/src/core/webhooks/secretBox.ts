import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest (docs/decisions.md#webhooks). A webhook's secret must be usable to sign,
 * so a hash cannot stand for it as it does for API keys: it is kept sealed with AES-256-GCM under a
 * key that is not in the database (WEBHOOK_SECRETS_KEY, or a file in the data folder), so a copy
 * of the database alone (a backup, a replica, a SQL injection elsewhere) reveals no secret.
 * A sealed secret is `v1.<iv>.<tag>.<ciphertext>`, base64url; the organisation is
 * bound as additional data, so a sealed secret copied to another organisation's endpoint does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the webhook secrets key must be 32 bytes');
    this.key = key;
  }

  seal(secret: string, binding: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(binding));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** The secret; throws when it was sealed under another key or for another binding. */
  open(sealed: string, binding: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(binding));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error("the webhook secret cannot be opened with this gateway's key: every instance must have the same WEBHOOK_SECRETS_KEY");
    }
  }
}

/** A new signing secret as the Standard Webhooks specification writes it: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
