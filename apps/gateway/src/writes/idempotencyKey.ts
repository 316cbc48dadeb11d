import { createHash } from 'node:crypto';
import type { ValidationIssue } from '@gp-gateway/protocol';

/** An Idempotency-Key (docs/api.md#idempotency): 1 to 255 printable ASCII characters, spaces included. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The issue of a malformed Idempotency-Key, or null when it is absent or well-formed. */
export function idempotencyKeyIssue(key: string | undefined): ValidationIssue | null {
  if (key === undefined || KEY_PATTERN.test(key)) return null;
  return { path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' };
}

/** JSON with every object's keys sorted: two bodies that differ only in the order of their fields are one body. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What makes two writes "the same request" for an Idempotency-Key: where they go, and the body as sent. */
export interface WriteIdentity {
  object: string;
  connectionId: string;
  /** The company the request named (X-Company or the connection's default), upper-cased. */
  company: string;
  body: unknown;
}

/** The sha256 (hex) of a write's identity; the store compares it, never reads it. */
export function writeFingerprint(identity: WriteIdentity): string {
  const text = canonicalJson([identity.object, identity.connectionId, identity.company, identity.body]);
  return createHash('sha256').update(text).digest('hex');
}
