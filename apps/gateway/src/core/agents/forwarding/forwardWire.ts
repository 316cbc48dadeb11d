import type { Company, ErrorCode, Operation, Position, WriteOutcome } from '@gp-gateway/protocol';

/**
 * What gateway instances say to each other over NATS when one holds a connection's agent and
 * another received the client's request (docs/decisions.md#several-gateway-instances). Every
 * message is a JSON header line, then (for answers) the page's bytes exactly as the agent sent
 * them: the forwarding instance reads the header and never parses the page.
 */

/** Sent to the connection's subject by the instance that received the client's request. */
export type ForwardRequest =
  /** `traceparent`: the forwarder's span (W3C), when it traces; instances from before it ignore it. */
  | { t: 'request'; id: string; op: Operation; timeoutMs: number; traceparent?: string }
  | { t: 'companies' }
  /** The forwarder gave up (its deadline passed): the holder cancels the request at its agent. */
  | { t: 'cancel'; id: string };

/** Sent back, on the request's reply subject, by the instance holding the agent. */
export type ForwardReply =
  /** Still working; `cancel` is where to send a cancel for this request. */
  | { t: 'alive'; cancel: string }
  /** The answer's first part; `size` bytes of page follow in this and further `more` messages. */
  | { t: 'answer'; next: Position | null; size: number; outcome?: WriteOutcome | null }
  | { t: 'more' }
  /**
   * `lost`: the agent went away before answering (AgentLostError); `dropped`: while it had the
   * request, so a write may have committed (AgentLostError.dropped).
   */
  | {
      t: 'error';
      code: ErrorCode;
      message: string;
      details?: Record<string, unknown>;
      retryAfterSeconds?: number;
      lost?: boolean;
      dropped?: boolean;
    }
  /** `allowsWrites`: whether an agent of the connection on that instance has writes turned on. */
  | { t: 'companies'; companies: readonly Company[] | null; allowsWrites?: boolean };

const NEWLINE = 0x0a;

/** The NATS subject of one connection's agents; base64url keeps ids clear of NATS's `.`, `*` and `>`. */
export function connectionSubject(prefix: string, agentKey: string): string {
  return `${prefix}.agents.${Buffer.from(agentKey).toString('base64url')}`;
}

/**
 * The connection's subject for writes that change something: only instances holding an agent of it
 * with writes on answer here, so such a write (and the question whether one may be made) never
 * lands, by the queue group's turn, on an instance whose agents would refuse it.
 */
export function writersSubject(prefix: string, agentKey: string): string {
  return `${connectionSubject(prefix, agentKey)}.writers`;
}

/** Where one instance takes cancels for the requests it is serving for others. */
export function cancelSubject(prefix: string, instanceId: string): string {
  return `${prefix}.cancel.${instanceId}`;
}

export function encodeMessage(header: ForwardRequest | ForwardReply, body?: Buffer): Uint8Array {
  const line = Buffer.from(`${JSON.stringify(header)}\n`);
  return body && body.length ? Buffer.concat([line, body]) : line;
}

/** The header and the bytes after it (a view, not a copy); null for anything that is not our message. */
export function decodeMessage<T extends ForwardRequest | ForwardReply>(data: Uint8Array): { header: T; body: Buffer } | null {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) return null;
  try {
    const header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as T;
    if (typeof header !== 'object' || header === null || typeof (header as { t?: unknown }).t !== 'string') return null;
    return { header, body: bytes.subarray(end + 1) };
  } catch {
    return null;
  }
}
