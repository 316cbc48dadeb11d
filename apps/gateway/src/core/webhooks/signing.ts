import { Webhook } from 'standardwebhooks';

/**
 * The `webhook-signature` header of a delivery, made with the Standard Webhooks reference library:
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>` for each secret, space-separated (during a
 * rotation's overlap the new and the old secret both sign, as the specification allows, and a
 * receiver holding either verifies).
 */
function signatureHeader(secrets: readonly string[], webhookId: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(webhookId, timestamp, body)).join(' ');
}

/** The Standard Webhooks headers of one attempt. */
export function deliveryHeaders(secrets: readonly string[], webhookId: string, timestamp: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'gp-gateway-webhooks/1',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, webhookId, timestamp, body),
  };
}
