import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { ValidationIssue } from '@gp-gateway/protocol';

/** An Idempotency-Key (docs/api.md#idempotency): 1 to 255 printable ASCII characters, spaces included. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The issue of a malformed Idempotency-Key, or null when it is absent or well-formed. */
export function idempotencyKeyIssue(key: string | undefined): ValidationIssue | null {
  if (key === undefined || KEY_PATTERN.test(key)) return null;
  return { path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' };
}

/**
 * JSON with every object's keys sorted (safe-stable-stringify): two bodies that differ only in the
 * order of their fields are one body. Strict, since a parsed JSON body holds nothing else.
 */
const canonicalJson = configure({ deterministic: true, strict: true, bigint: false, circularValue: TypeError });

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
  const text = canonicalJson([identity.object, identity.connectionId, identity.company, identity.body])!;
  return createHash('sha256').update(text).digest('hex');
}
