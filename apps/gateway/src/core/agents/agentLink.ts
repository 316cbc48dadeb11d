import { isUtf8 } from 'node:buffer';
import {
  AgentToGatewayFrameSchema,
  decodeFrame,
  encodeFrame,
  PROTOCOL_VERSION,
  type AgentHealth,
  type AgentInfo,
  type ChangesFrame,
  type Company,
  type ErrorCode,
  type Operation,
  type Position,
  type WriteOutcome,
  objectSpec,
  operationObject,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { AgentLostError, ApiError } from '../../errors/apiError.ts';
import { payloadProblem, RecordFields, type PayloadShape } from './payloadShape.ts';
import { clientDetails, outcomeProblem } from './writeAnswers.ts';
import { inSpan, SpanKind } from '@gp-gateway/telemetry';

/** A way to send frames to one agent and to drop it: a WebSocket, or the built-in agent's worker. */
export interface AgentChannel {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface AgentAnswer {
  /** The agent's serialised data as UTF-8 bytes, written into the HTTP response as they came. */
  payload: Buffer;
  next: Position | null;
  /** What became of a write or outcome operation; null for reads. `not_executed` has an empty payload. */
  outcome: WriteOutcome | null;
}

/**
 * Codes an agent may answer with, and what the client is told for each: our words, never the
 * agent's, which go to the log (an agent's text may hold anything, from SQL Server's words to a
 * rogue agent's). Which of them fits which operation is ANSWERABLE's say.
 */
const AGENT_ERRORS: ReadonlyMap<ErrorCode, (op: Operation) => string> = new Map<ErrorCode, (op: Operation) => string>([
  [
    'VALIDATION_ERROR',
    (op) =>
      op.kind === 'write'
        ? 'GP refused the record: details.issues (fields) or details.gp (GP’s error codes) say why.'
        : 'The connection’s agent refused the request as invalid.',
  ],
  [
    'FORBIDDEN',
    (op) =>
      op.kind === 'write' || op.kind === 'outcome'
        ? 'The connection’s agent may not make this write: it has writes turned off, or its SQL login lacks a permission GP’s procedures need (`gp-agent diagnose` on the agent names it). Both are decided by the IT of the company that runs it, on the agent, not by the API caller.'
        : 'The connection’s agent may not read what this request needs: its SQL login lacks a permission, or GP lacks a table (`gp-agent diagnose` on the agent names it). This is for the IT of the company that runs it, not the API caller.',
  ],
  ['ALREADY_EXISTS', () => 'A record with that id already exists in GP; a create never updates it.'],
  ['NOT_FOUND', (op) => (op.kind === 'get' ? `No record of ${op.object} has that id.` : 'Not found.')],
  ['ERP_UNAVAILABLE', () => 'The connection’s agent is running but cannot reach the GP database.'],
  ['UPSTREAM_TIMEOUT', () => 'The connection’s agent stopped the query: its deadline passed.'],
  ['CONNECTION_OFFLINE', () => 'The connection’s agent is shutting down.'],
  ['INTERNAL_ERROR', () => 'The connection’s agent failed to answer this request.'],
]);
/**
 * The error codes each operation can have from an agent: a read is never ALREADY_EXISTS, a write
 * never NOT_FOUND. Any other code (one the protocol does not know included) is the agent's fault,
 * answered at once as UPSTREAM_ERROR: a client is never shown a status its request cannot have.
 */
const ANY_OPERATION: readonly ErrorCode[] = [
  'VALIDATION_ERROR',
  'ERP_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'CONNECTION_OFFLINE',
  'INTERNAL_ERROR',
];
const ANSWERABLE: Readonly<Record<Operation['kind'], ReadonlySet<ErrorCode>>> = {
  list: new Set([...ANY_OPERATION, 'NOT_FOUND']),
  get: new Set([...ANY_OPERATION, 'NOT_FOUND']),
  write: new Set([...ANY_OPERATION, 'FORBIDDEN', 'ALREADY_EXISTS']),
  outcome: new Set([...ANY_OPERATION, 'FORBIDDEN']),
};

/** What each operation's payload must be: a page, a record, or what a write created (a record, or a journal entry's lines). */
const SHAPES: Readonly<Record<Operation['kind'], PayloadShape>> = { list: 'list', get: 'get', write: 'record', outcome: 'record' };

/** Requests past their deadline remembered to log the agent's confirmation of the cancel; bounded. */
const MAX_EXPIRED = 1000;

interface Pending {
  resolve: (answer: AgentAnswer) => void;
  reject: (error: ApiError) => void;
  timer: NodeJS.Timeout;
  op: Operation;
  sentAt: number;
}

/**
 * Where an agent's changes go (core/events): an agent whose link has none was not offered the
 * `changes` feature in its welcome, and one that sends changes anyway is told they were not kept.
 */
export interface ChangeSink {
  /** The organisation the agent's connection belongs to. */
  orgId: string;
  /** Stores the frame's changes; how many events were new. */
  ingest(frame: ChangesFrame): Promise<number>;
}

export interface AgentHello {
  agent: AgentInfo;
  companies: Company[];
  health?: AgentHealth | undefined;
}

/**
 * The gateway's half of one connected agent: correlates requests and answers by id, gives every
 * request a deadline (and tells the agent to cancel when it passes), fails everything pending the
 * moment the agent goes away, and keeps what the agent reports about itself (health, draining).
 */
export class AgentLink {
  readonly agent: AgentInfo;
  companies: readonly Company[];
  /** Null for agents that predate health reports. */
  health: AgentHealth | null;
  /** The agent is shutting down: it finishes what it has and takes nothing new. */
  draining = false;
  lastSeen = Date.now();
  /** Called when companies, health or draining change (set by the router). */
  onChange: (() => void) | null = null;
  private readonly channel: AgentChannel;
  private readonly log: Logger;
  private readonly pending = new Map<string, Pending>();
  private readonly expired = new Map<string, { object: string | null; at: number }>();
  private nextId = 1;
  private open = true;
  /** Where this agent's changes are stored; null when the gateway keeps none from it (the built-in sandbox agent with SANDBOX_CHANGES_INTERVAL_MS=0). */
  readonly changes: ChangeSink | null;

  constructor(channel: AgentChannel, hello: AgentHello, log: Logger, changes: ChangeSink | null = null) {
    this.channel = channel;
    this.changes = changes;
    this.agent = hello.agent;
    this.companies = hello.companies;
    this.health = hello.health ?? null;
    this.log = log;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Open and not draining: new requests may be sent. */
  get available(): boolean {
    return this.open && !this.draining;
  }

  /**
   * Sends the operation and waits for the answer, at most `timeoutMs`. `signal` abandons it early
   * (the gateway that forwarded it gave up): it is rejected at once and the agent told to cancel.
   */
  request(op: Operation, timeoutMs: number, signal?: AbortSignal): Promise<AgentAnswer> {
    const attributes = { 'gp.operation': op.kind, 'gp.object': operationObject(op) ?? '' };
    return inSpan(`agent ${op.kind}`, SpanKind.CLIENT, attributes, (traceparent) => this.send(op, timeoutMs, signal, traceparent));
  }

  private send(op: Operation, timeoutMs: number, signal: AbortSignal | undefined, traceparent: string | undefined): Promise<AgentAnswer> {
    if (!this.open) return Promise.reject(new AgentLostError('The connection’s agent is offline.', false));
    if (this.draining) return Promise.reject(new AgentLostError('The connection’s agent is shutting down.', false));
    if (signal?.aborted) return Promise.reject(abandoned());
    const id = String(this.nextId++);
    return new Promise<AgentAnswer>((resolve, reject) => {
      const timer = setTimeout(() => this.expire(id), timeoutMs);
      const onAbort = () => this.abandon(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (answer) => (done(), resolve(answer)),
        reject: (error) => (done(), reject(error)),
        timer,
        op,
        sentAt: Date.now(),
      });
      // The trace context rides in the frame; agents from before it ignore the field.
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id, timeoutMs, op, ...(traceparent ? { traceparent } : {}) }));
    });
  }

  /** A frame from the agent: a WebSocket message's bytes, or text from the built-in agent's thread. */
  receive(data: string | Buffer): void {
    this.lastSeen = Date.now();
    const decoded = decodeFrame(AgentToGatewayFrameSchema, data);
    if (!decoded.ok) {
      this.log.warn({ reason: decoded.error }, 'agent sent a frame the gateway does not understand');
      // An answer the gateway cannot read (an error code it does not know, a position out of bounds)
      // still ends its request now, not at the deadline.
      const id = answeredId(data);
      const pending = id === null ? undefined : this.pending.get(id);
      if (pending) {
        this.pending.delete(id!);
        clearTimeout(pending.timer);
        pending.reject(new ApiError('UPSTREAM_ERROR', 'The connection’s agent sent an answer the gateway cannot read.'));
      }
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'response':
      case 'error': {
        const pending = this.pending.get(frame.id);
        if (!pending)
          return this.late(frame.id, frame.type === 'error' ? frame.code : 'answered', frame.type === 'error' ? frame.message : null);
        this.pending.delete(frame.id);
        clearTimeout(pending.timer);
        if (frame.type === 'error') {
          this.log.info(
            { id: frame.id, object: operationObject(pending.op), code: frame.code, agentMessage: frame.message },
            'agent answered with an error',
          );
          if (!ANSWERABLE[pending.op.kind].has(frame.code) || !AGENT_ERRORS.has(frame.code)) {
            this.log.warn(
              { id: frame.id, kind: pending.op.kind, code: frame.code },
              'agent answered with an error its request cannot have',
            );
            pending.reject(new ApiError('UPSTREAM_ERROR', 'The connection’s agent answered with an error this request cannot have.'));
            return;
          }
          const code = frame.code;
          const message = AGENT_ERRORS.get(code)!(pending.op);
          // An agent answers CONNECTION_OFFLINE only for work it did not do (it is stopping).
          pending.reject(
            code === 'CONNECTION_OFFLINE'
              ? new AgentLostError(message, false)
              : new ApiError(code, message, clientDetails(pending.op, frame.details)),
          );
          return;
        }
        const problem = outcomeProblem(pending.op, frame.outcome, decoded.payload !== null);
        if (problem !== null) {
          this.log.warn({ id: frame.id, kind: pending.op.kind, problem }, 'agent sent an answer that does not fit the operation');
          pending.reject(
            new ApiError(
              'UPSTREAM_ERROR',
              decoded.payload === null
                ? 'The connection’s agent sent an answer without data.'
                : 'The connection’s agent sent an answer that is not valid data.',
            ),
          );
        } else if (decoded.payload === null) {
          pending.resolve({ payload: Buffer.alloc(0), next: null, outcome: frame.outcome ?? null });
        } else if (typeof decoded.payload !== 'string' && !isUtf8(decoded.payload)) {
          // The bytes go to the client as they are: a binary frame (which the WebSocket does not
          // check, unlike text) must not put anything but UTF-8 into a JSON response.
          this.log.warn({ id: frame.id }, 'agent sent an answer that is not UTF-8');
          pending.reject(new ApiError('UPSTREAM_ERROR', 'The connection’s agent sent an answer that is not valid text.'));
        } else {
          const payload = typeof decoded.payload === 'string' ? Buffer.from(decoded.payload) : decoded.payload;
          const problem = payloadProblem(payload, SHAPES[pending.op.kind], recordFieldsOf(pending.op));
          if (problem === null) pending.resolve({ payload, next: frame.next, outcome: frame.outcome ?? null });
          else {
            this.log.warn(
              { id: frame.id, object: operationObject(pending.op), problem, bytes: payload.length },
              'agent sent malformed data',
            );
            pending.reject(new ApiError('UPSTREAM_ERROR', 'The connection’s agent sent an answer that is not valid data.'));
          }
        }
        return;
      }
      case 'draining':
        if (!this.draining) {
          this.draining = true;
          this.log.info(
            { host: this.agent.host, inFlight: this.pending.size, graceMs: frame.graceMs },
            'agent is draining; no new requests go to it',
          );
          this.onChange?.();
        }
        return;
      case 'status':
        this.companies = frame.companies;
        this.health = frame.health;
        this.log.info(
          { host: this.agent.host, database: frame.health.database, gpVersion: frame.health.gpVersion, companies: frame.companies.length },
          'agent status changed',
        );
        this.onChange?.();
        return;
      case 'ping':
        this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: frame.at, now: Date.now() }));
        return;
      case 'changes':
        void this.storeChanges(frame);
        return;
      case 'pong':
      case 'hello':
        return;
    }
  }

  /**
   * Stores an agent's changes and acknowledges the frame once they are committed, or says they were
   * not: the agent keeps them, and its watermark, until an acknowledgement without error.
   */
  private async storeChanges(frame: ChangesFrame): Promise<void> {
    let ack: { stored: number; error?: string };
    if (!this.changes) {
      ack = { stored: 0, error: 'this gateway keeps no changes from this agent' };
    } else {
      try {
        ack = { stored: await this.changes.ingest(frame) };
      } catch (error) {
        this.log.warn({ err: error, object: frame.object, changes: frame.changes.length }, 'could not store the changes an agent reported');
        ack = { stored: 0, error: 'the gateway could not store the changes; send them again' };
      }
    }
    if (!this.open) return;
    try {
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'changes-ack', id: frame.id, ...ack }));
    } catch {
      // The agent is going away; it sends the changes again on its next link.
    }
  }

  /** The agent is gone: every request waiting on it fails now, not at its deadline. */
  closed(): void {
    if (!this.open) return;
    this.open = false;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.expired.clear();
    for (const p of waiting) {
      clearTimeout(p.timer);
      p.reject(new AgentLostError('The connection’s agent went offline during the request.', true));
    }
  }

  close(code: number, reason: string): void {
    this.channel.close(code, reason);
    this.closed();
  }

  /** The deadline passed: the client gets 504 now, and the agent is told to stop the query. */
  private expire(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    const ms = Date.now() - pending.sentAt;
    pending.reject(new ApiError('UPSTREAM_TIMEOUT', `The agent did not answer within ${ms} ms; the query was cancelled.`));
    if (this.expired.size >= MAX_EXPIRED) this.expired.delete(this.expired.keys().next().value!);
    this.expired.set(id, { object: operationObject(pending.op), at: Date.now() });
    this.log.warn(
      { id, object: operationObject(pending.op), host: this.agent.host, ms },
      'request deadline passed; asking the agent to cancel it',
    );
    try {
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'cancel', id, reason: 'deadline' }));
    } catch {
      // The agent is going away anyway.
    }
  }

  /** Whoever asked gave up: the request fails now and the agent is told to stop the query. */
  private abandon(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(abandoned());
    this.log.info(
      { id, object: operationObject(pending.op), host: this.agent.host },
      'request abandoned by its sender; asking the agent to cancel it',
    );
    try {
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'cancel', id, reason: 'abandoned' }));
    } catch {
      // The agent is going away anyway.
    }
  }

  /** An answer to a request that already has its 504: the agent confirming the cancel, or finishing just too late. */
  private late(id: string, outcome: string, message: string | null): void {
    const expired = this.expired.get(id);
    if (!expired) return;
    this.expired.delete(id);
    this.log.info(
      { id, object: expired.object, host: this.agent.host, outcome, message, afterDeadlineMs: Date.now() - expired.at },
      'agent answered a request after its deadline',
    );
  }
}

/** The id of a frame that claims to answer a request (`response` or `error`), read from its header alone; null otherwise. */
function answeredId(data: string | Buffer): string | null {
  const newline = typeof data === 'string' ? data.indexOf('\n') : data.indexOf(0x0a);
  const end = newline === -1 ? data.length : newline;
  const head = typeof data === 'string' ? data.slice(0, end) : data.toString('utf8', 0, end);
  try {
    const header = JSON.parse(head) as { type?: unknown; id?: unknown } | null;
    return (header?.type === 'response' || header?.type === 'error') && typeof header.id === 'string' ? header.id : null;
  } catch {
    return null;
  }
}

const recordFields = new Map<string, RecordFields>();
/** The fields a read's records must have, exactly (its object's resource); none for writes, whose previews differ. */
function recordFieldsOf(op: Operation): RecordFields | undefined {
  if (op.kind !== 'list' && op.kind !== 'get') return undefined;
  let fields = recordFields.get(op.object);
  if (!fields) {
    fields = new RecordFields(Object.keys(objectSpec(op.object)!.resource.shape));
    recordFields.set(op.object, fields);
  }
  return fields;
}

function abandoned(): ApiError {
  return new ApiError('UPSTREAM_TIMEOUT', 'The request was cancelled before the agent answered.');
}
