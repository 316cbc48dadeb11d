import { hkdfSync } from 'node:crypto';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';

/**
 * The key that seals webhook signing secrets (core/webhooks/secretBox.ts, docs/decisions.md#webhooks):
 * WEBHOOK_SECRETS_KEY when set (several instances, or the CLI beside a PostgreSQL store, must all
 * have it), else a file in the data folder made on first use, as the cursor key is.
 */
export function loadWebhookSecretsKey(configured: Buffer | null, file: string): Buffer {
  if (configured) return hkdfOf(configured);
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}

/** 32 bytes for AES-256 from a configured secret of any length of at least 32 bytes. */
export function hkdfOf(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'gp-gateway webhook secrets', 32));
}
