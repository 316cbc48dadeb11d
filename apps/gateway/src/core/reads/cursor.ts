import { createHmac, timingSafeEqual } from 'node:crypto';
import { PositionSchema, type FilterValues, type Position } from '@gp-gateway/protocol';

/** What a cursor is only valid for: the same organisation, connection, company, object and filters. */
export interface CursorBinding {
  orgId: string;
  connectionId: string;
  company: string | null;
  object: string;
  filters: FilterValues;
}

/**
 * Opaque cursors: the agent's keyset position, signed with HMAC-SHA256 over the position and its
 * binding. A cursor that was altered, or is used with other filters, another connection, company or
 * organisation, does not verify. The binding is not stored in the cursor, only covered by the MAC.
 */
export class CursorCodec {
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new Error('the cursor secret must be at least 32 bytes');
    this.secret = secret;
  }

  encode(binding: CursorBinding, position: Position): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${body}.${this.mac(binding, body).toString('base64url')}`;
  }

  /** The position, or null when the cursor is malformed, tampered with or bound to something else. */
  decode(cursor: string, binding: CursorBinding): Position | null {
    const dot = cursor.indexOf('.');
    if (dot <= 0) return null;
    const body = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.mac(binding, body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const parsed = PositionSchema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  private mac(binding: CursorBinding, body: string): Buffer {
    const filters = Object.keys(binding.filters)
      .sort()
      .map((k) => [k, binding.filters[k]]);
    const bound = JSON.stringify([1, binding.orgId, binding.connectionId, binding.company, binding.object, filters, body]);
    return createHmac('sha256', this.secret).update(bound).digest();
  }
}
