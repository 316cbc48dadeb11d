import { z } from 'zod';
import { AgentVersionsSchema } from './agentVersions.ts';
import { CompanySchema } from './resources.ts';
import { ErrorCodeSchema } from './errors.ts';
import { ObjectNameSchema } from './objects.ts';
import { WritableObjectNameSchema } from './writes.ts';
import { WriteCheckSchema } from './writeCheck.ts';
import { ChangeSchema, EventObjectNameSchema, MAX_CHANGES_PER_FRAME } from './changes.ts';

/**
 * Frames between gateway and agent (docs/decisions.md#gateway-and-agent-protocol), one per WebSocket text message.
 *
 * A frame is a JSON header, optionally followed by a newline and a payload. The payload carries row
 * data already serialised by the agent; the gateway validates the header only and splices the payload
 * into the HTTP response untouched, so row data is never parsed and re-serialised on the hot path.
 * JSON.stringify never emits a raw newline, so the first newline always ends the header.
 */
export const PROTOCOL_VERSION = 1;

const V = z.literal(PROTOCOL_VERSION);

/** A frame of `type`: the protocol version and the type that every frame but the hello begins with, then its own fields. */
function frameOf<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ v: V, type: z.literal(type), ...shape });
}

/** What pairs a request with its response, error or cancel, and changes with their ack. */
const FrameId = z.string().max(64);

export const AgentInfoSchema = z.object({
  version: z.string().max(64),
  /** The commit the agent was built from ("source" when run from a checkout); agents before it sent none. */
  commit: z.string().max(64).optional(),
  /** The Node runtime the agent runs on (`process.versions.node`, the one embedded in the program); agents before it sent none. */
  node: z.string().max(32).optional(),
  host: z.string().max(255),
  platform: z.string().max(64),
  dialect: z.enum(['sqlite', 'mssql']),
  /**
   * Whether the customer's IT turned writes on for this agent (`allowWrites`); absent (agents before
   * writes) means off. The gateway sends writes only to agents that say so; the agent refuses them anyway when off.
   */
  allowWrites: z.boolean().optional(),
});
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

/**
 * What the agent last found out about its database, for operators: whether it answers, and GP's
 * version as DYNAMICS..DU000020 records it (a label such as "demo" on the embedded database).
 */
export const AgentHealthSchema = z.object({
  database: z.enum(['ok', 'unavailable']),
  /** Why the database is unavailable, in words safe to show an operator (no connection string). */
  databaseMessage: z.string().max(500).nullable(),
  gpVersion: z.string().max(64).nullable(),
  /** When the agent checked, ISO-8601 UTC by the agent's clock. */
  checkedAt: z.string().max(40),
  /** The last write check (writeCheck.ts), from agents with writes on once it ran; older gateways ignore it. */
  writeCheck: WriteCheckSchema.optional(),
});
export type AgentHealth = z.infer<typeof AgentHealthSchema>;

/**
 * Agent → gateway, first frame after the upgrade. The agent token travels in the upgrade's Authorization header.
 * `health` was added after the first release of protocol 1; gateways that do not know it ignore it.
 */
export const HelloFrameSchema = z.object({
  v: z.number().int(),
  type: z.literal('hello'),
  agent: AgentInfoSchema,
  companies: z.array(CompanySchema).max(1000),
  health: AgentHealthSchema.optional(),
});

/**
 * What a gateway takes beyond the first release of protocol 1, named in its welcome: `changes`, the
 * change feed's frames. An agent sends such frames only to a gateway that names them (an older one
 * would log them as not understood and drop them); an older agent ignores the list (zod strips
 * fields it does not know) and simply sends none.
 */
export const GATEWAY_FEATURES = ['changes'] as const;

/**
 * Gateway → agent, the answer to a hello it accepts. `agentVersions` (the oldest agent the gateway
 * supports, the newest it offers) was added after the first release of protocol 1: older agents drop it.
 */
const WelcomeFrameSchema = frameOf('welcome', {
  connectionId: z.string(),
  features: z.array(z.string().max(32)).max(32).optional(),
  agentVersions: AgentVersionsSchema.optional(),
});

/**
 * Agent → gateway: changes the agent found in one object of one company (docs/decisions.md#change-feed).
 * The gateway stores them as events and acknowledges the frame by its id once they are committed;
 * until then the agent keeps them and its watermark where they were, and sends them again on its
 * next link if this one drops (the store keeps one event per change, so twice is harmless).
 */
export const ChangesFrameSchema = frameOf('changes', {
  id: FrameId,
  object: EventObjectNameSchema,
  company: z.string().max(5),
  changes: z.array(ChangeSchema).min(1).max(MAX_CHANGES_PER_FRAME),
});

/**
 * Gateway → agent: the changes of frame `id` are stored (`stored`: events new to the store, the
 * rest it already had), or could not be (`error`: the agent sends them again later).
 */
export const ChangesAckFrameSchema = frameOf('changes-ack', {
  id: FrameId,
  stored: z.number().int().nonnegative(),
  error: z.string().max(500).optional(),
});

/**
 * Agent → gateway, whenever its health or company list changes and every few minutes besides,
 * so that operators see the current state without waiting for a reconnect.
 */
export const StatusFrameSchema = frameOf('status', {
  companies: z.array(CompanySchema).max(1000),
  health: AgentHealthSchema,
});

/**
 * Agent → gateway: the agent is shutting down. It finishes the requests it has (within its grace
 * period) and accepts no new ones; the gateway sends new requests to another agent of the
 * connection, or answers 503 at once.
 */
export const DrainingFrameSchema = frameOf('draining', { graceMs: z.number().int().nonnegative() });

/**
 * Gateway → agent: stop working on a request, because its deadline passed (the client has its 504)
 * or nobody waits for the answer any more. The agent cancels the running statement and answers
 * with an error frame, which the gateway only logs.
 */
export const CancelFrameSchema = frameOf('cancel', {
  id: FrameId,
  reason: z.enum(['deadline', 'abandoned']),
});

/** A position in a keyset walk, produced and interpreted by the agent only; the gateway signs it into the cursor. */
export const PositionSchema = z
  .array(z.union([z.number(), z.string().max(256)]))
  .min(1)
  .max(8);
export type Position = z.infer<typeof PositionSchema>;

const ListOperationSchema = z.object({
  kind: z.literal('list'),
  object: ObjectNameSchema,
  /** Company database (INTERID); null for objects of the system database. */
  company: z.string().max(5).nullable(),
  filters: z.record(z.string(), z.unknown()),
  limit: z.number().int().min(1).max(1000),
  after: PositionSchema.nullable(),
});
/** The longest record id a get may name; the gateway refuses longer ones before they reach an agent. */
export const MAX_RECORD_ID_LENGTH = 512;

const GetOperationSchema = z.object({
  kind: z.literal('get'),
  object: ObjectNameSchema,
  company: z.string().max(5).nullable(),
  id: z.string().min(1).max(MAX_RECORD_ID_LENGTH),
});
/** An operation id: names one write for its whole life, in the gateway's idempotency record and the agent's journal. */
export const OperationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'an operation id');

/**
 * Create one record (docs/decisions.md#writes). The body was validated by the gateway; the agent
 * validates it again with the same schema (it trusts no gateway) and checks references against GP.
 * A write is sent once and never retried by the gateway; the agent runs an operation id at most
 * once, recording it in its journal in the same transaction as the document.
 */
export const WriteOperationSchema = z.object({
  kind: z.literal('write'),
  object: WritableObjectNameSchema,
  company: z.string().max(5),
  operationId: OperationIdSchema,
  body: z.record(z.string(), z.unknown()),
  /** Run every check and GP's own validation, then roll back: nothing changes. */
  validateOnly: z.boolean(),
});

/**
 * What became of a write whose answer never arrived (the link dropped): the agent settles it from
 * its journal. If the operation id is not there, the agent records it as abandoned in the same
 * step, so that the lost write can no longer commit; the answer is then `not_executed`.
 */
export const OutcomeOperationSchema = z.object({
  kind: z.literal('outcome'),
  company: z.string().max(5),
  operationId: OperationIdSchema,
});

/** The operations a read service answers. */
export const ReadOperationSchema = z.discriminatedUnion('kind', [ListOperationSchema, GetOperationSchema]);
export const OperationSchema = z.discriminatedUnion('kind', [
  ListOperationSchema,
  GetOperationSchema,
  WriteOperationSchema,
  OutcomeOperationSchema,
]);
export type ListOperation = z.infer<typeof ListOperationSchema>;
export type GetOperation = z.infer<typeof GetOperationSchema>;
export type WriteOperation = z.infer<typeof WriteOperationSchema>;
export type OutcomeOperation = z.infer<typeof OutcomeOperationSchema>;
export type ReadOperation = z.infer<typeof ReadOperationSchema>;
export type Operation = z.infer<typeof OperationSchema>;

/** The object an operation is about, for logs; an outcome names none. */
export function operationObject(op: Operation): string | null {
  return op.kind === 'outcome' ? null : op.object;
}

export const RequestFrameSchema = frameOf('request', {
  id: FrameId,
  /** Milliseconds the agent has before the gateway gives up on the answer. */
  timeoutMs: z.number().int().positive(),
  op: OperationSchema,
  /**
   * The W3C trace context of the gateway's span for this request, when the gateway traces
   * (docs/operations.md#traces): the agent's spans continue the trace. Optional both ways: an agent
   * from before it drops the unknown key, and a gateway from before it sends none. Only bounded
   * here: one the agent cannot read (a later version of the format) starts a new trace, it never
   * costs the request.
   */
  traceparent: z.string().max(256).optional(),
});

/**
 * What a write or outcome answer reports: `created` (committed now), `validated` (validate-only,
 * rolled back), `replayed` (the journal already held the operation id: its first answer), or
 * `not_executed` (outcome only: the write never committed and now never will).
 */
export const WriteOutcomeSchema = z.enum(['created', 'validated', 'replayed', 'not_executed']);
export type WriteOutcome = z.infer<typeof WriteOutcomeSchema>;

/**
 * Agent → gateway. Payload: a JSON array of resource objects (list), one object (get), or the
 * created record as read back from GP (write, outcome; for gl-entries the array of the entry's
 * lines). Writes and outcomes carry `outcome`; `not_executed` has no payload.
 */
export const ResponseFrameSchema = frameOf('response', {
  id: FrameId,
  next: PositionSchema.nullable(),
  outcome: WriteOutcomeSchema.optional(),
});

export const ErrorFrameSchema = frameOf('error', {
  id: FrameId,
  code: ErrorCodeSchema,
  message: z.string().max(2000),
  /** The error envelope's `details`: the issues of a refused write (`issues`, `gp`). */
  details: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Application-level ping: `at` is the sender's clock, echoed back. The gateway's pong also carries
 * `now`, its own clock, so that `gp-agent diagnose` can measure round trip and clock skew (and the
 * agent versions, so that it can say whether the agent is outdated). A ping
 * may come before the hello: that is how diagnose probes a gateway without becoming an agent.
 * (Liveness itself uses WebSocket-level pings in both directions, answered by the socket library.)
 */
export const PingFrameSchema = frameOf('ping', { at: z.number() });
export const PongFrameSchema = frameOf('pong', {
  at: z.number(),
  now: z.number().optional(),
  /** In the gateway's answer to a ping before the hello: the agent versions, as the welcome names them, for diagnose (older gateways send none). */
  agentVersions: AgentVersionsSchema.optional(),
});

export const AgentToGatewayFrameSchema = z.discriminatedUnion('type', [
  HelloFrameSchema,
  ResponseFrameSchema,
  ErrorFrameSchema,
  PingFrameSchema,
  PongFrameSchema,
  StatusFrameSchema,
  DrainingFrameSchema,
  ChangesFrameSchema,
]);
export const GatewayToAgentFrameSchema = z.discriminatedUnion('type', [
  WelcomeFrameSchema,
  RequestFrameSchema,
  CancelFrameSchema,
  PingFrameSchema,
  PongFrameSchema,
  ChangesAckFrameSchema,
]);
export type AgentToGatewayFrame = z.infer<typeof AgentToGatewayFrameSchema>;
export type GatewayToAgentFrame = z.infer<typeof GatewayToAgentFrameSchema>;
export type HelloFrame = z.infer<typeof HelloFrameSchema>;
export type RequestFrame = z.infer<typeof RequestFrameSchema>;
export type ResponseFrame = z.infer<typeof ResponseFrameSchema>;
export type ErrorFrame = z.infer<typeof ErrorFrameSchema>;
export type StatusFrame = z.infer<typeof StatusFrameSchema>;
export type DrainingFrame = z.infer<typeof DrainingFrameSchema>;
export type CancelFrame = z.infer<typeof CancelFrameSchema>;
export type ChangesFrame = z.infer<typeof ChangesFrameSchema>;
export type ChangesAckFrame = z.infer<typeof ChangesAckFrameSchema>;

/** Close codes the gateway uses when it refuses an agent; the agent stops instead of retrying. */
export const CLOSE_TOKEN_REJECTED = 4401;
export const CLOSE_VERSION_UNSUPPORTED = 4426;
export const CLOSE_PROTOCOL_ERROR = 4400;
/** The connection already has as many agents as the gateway accepts for one connection. */
export const CLOSE_TOO_MANY_AGENTS = 4429;
/** The agent is going away on purpose (drained, stopped); the gateway has nothing to retry. */
export const CLOSE_AGENT_STOPPING = 1001;
/** The gateway is restarting (a deploy): reconnect, to any instance (RFC 6455 §7.4.1, "Service Restart"). */
export const CLOSE_SERVICE_RESTART = 1012;
/** The gateway has as many agents connecting as its handshake cap allows this second: try again later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/**
 * When to reconnect, as the gateway says it at the end of a 1012 or 1013 close reason (a close frame
 * has no headers): "(spread over N ms)" spreads the agents of a stopping instance over a window
 * (the gateway sizes it from how many it holds and its handshake cap), "retry after N ms" books a
 * refused agent a later turn, like HTTP's Retry-After.
 */
export interface ReconnectHint {
  withinMs?: number;
  afterMs?: number;
}

export function withReconnectHint(reason: string, hint: ReconnectHint): string {
  if (hint.afterMs !== undefined) return `${reason}; retry after ${Math.round(hint.afterMs)} ms`;
  if (hint.withinMs !== undefined) return `${reason} (spread over ${Math.round(hint.withinMs)} ms)`;
  return reason;
}

/** The hint at the end of a close reason; {} when there is none (an older gateway, another code). */
export function reconnectHint(reason: string): ReconnectHint {
  const after = /; retry after (\d{1,9}) ms$/.exec(reason);
  if (after) return { afterMs: Number(after[1]) };
  const within = / \(spread over (\d{1,9}) ms\)$/.exec(reason);
  if (within) return { withinMs: Number(within[1]) };
  return {};
}

/**
 * The largest frame either side sends or accepts: the largest legal page (1,000 rows of the widest
 * object, every character of every text column at its full GP width and escaped, is 2.8 MiB;
 * apps/agent/src/connection/frameBounds.test.ts keeps it below this) with headroom. A gateway accepts
 * no larger message from an agent, so a rogue one cannot make it buffer 64 MiB per socket.
 */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;
/** A hello (up to 1,000 companies) is far smaller; a socket that has not said hello may not buffer more. */
export const MAX_HELLO_BYTES = 256 * 1024;

const NEWLINE = 0x0a;

export function encodeFrame(header: object, payload?: string): string;
export function encodeFrame(header: object, payload: string | Buffer): string | Buffer;
/** A frame as text, or as bytes when its payload is bytes (JSON already in UTF-8: no round trip). */
export function encodeFrame(header: object, payload?: string | Buffer): string | Buffer {
  const head = JSON.stringify(header);
  if (payload === undefined) return head;
  return typeof payload === 'string' ? `${head}\n${payload}` : Buffer.concat([Buffer.from(`${head}\n`), payload]);
}

export type DecodedFrame<T, P = string> = { ok: true; frame: T; payload: P | null } | { ok: false; error: string };

/**
 * A frame's header, validated, and its payload untouched. From a Buffer (a WebSocket message as
 * received) only the header is decoded: the payload stays bytes, which the gateway writes into the
 * HTTP response without ever turning them into a string.
 */
export function decodeFrame<T>(schema: z.ZodType<T>, data: string): DecodedFrame<T, string>;
export function decodeFrame<T>(schema: z.ZodType<T>, data: Buffer): DecodedFrame<T, Buffer>;
export function decodeFrame<T>(schema: z.ZodType<T>, data: string | Buffer): DecodedFrame<T, string | Buffer>;
export function decodeFrame<T>(schema: z.ZodType<T>, data: string | Buffer): DecodedFrame<T, string | Buffer> {
  const text = typeof data === 'string';
  const newline = text ? data.indexOf('\n') : data.indexOf(NEWLINE);
  const end = newline === -1 ? data.length : newline;
  const head = text ? data.slice(0, end) : data.toString('utf8', 0, end);
  let json: unknown;
  try {
    json = JSON.parse(head);
  } catch {
    return { ok: false, error: 'frame header is not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `invalid frame: ${parsed.error.issues[0]?.message ?? 'unknown'}` };
  const payload = newline === -1 ? null : text ? data.slice(newline + 1) : data.subarray(newline + 1);
  return { ok: true, frame: parsed.data, payload };
}
