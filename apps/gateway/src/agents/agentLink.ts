import {
  AgentToGatewayFrameSchema,
  decodeFrame,
  encodeFrame,
  PROTOCOL_VERSION,
  type AgentInfo,
  type Company,
  type ErrorCode,
  type Operation,
  type Position,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { ApiError } from '../http/apiError.ts';

/** A way to send frames to one agent and to drop it: a WebSocket, or the built-in agent's worker. */
export interface AgentChannel {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface AgentAnswer {
  /** The agent's serialised data, spliced into the HTTP response as is. */
  payload: string;
  next: Position | null;
}

/** Codes an agent may answer with; anything else from an agent is reported as an internal error. */
const AGENT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set(['VALIDATION_ERROR', 'NOT_FOUND', 'ERP_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'INTERNAL_ERROR']);

interface Pending {
  resolve: (answer: AgentAnswer) => void;
  reject: (error: ApiError) => void;
  timer: NodeJS.Timeout;
}

/**
 * The gateway's half of one connected agent: correlates requests and answers by id, gives every
 * request a deadline, and fails everything pending the moment the agent goes away.
 */
export class AgentLink {
  readonly agent: AgentInfo;
  readonly companies: readonly Company[];
  private readonly channel: AgentChannel;
  private readonly log: Logger;
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private open = true;
  lastSeen = Date.now();

  constructor(channel: AgentChannel, hello: { agent: AgentInfo; companies: Company[] }, log: Logger) {
    this.channel = channel;
    this.agent = hello.agent;
    this.companies = hello.companies;
    this.log = log;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  request(op: Operation, timeoutMs: number): Promise<AgentAnswer> {
    if (!this.open) return Promise.reject(new ApiError('CONNECTION_OFFLINE', 'The connection’s agent is offline.'));
    const id = String(this.nextId++);
    return new Promise<AgentAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError('UPSTREAM_TIMEOUT', `The agent did not answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'request', id, timeoutMs, op }));
    });
  }

  receive(text: string): void {
    this.lastSeen = Date.now();
    const decoded = decodeFrame(AgentToGatewayFrameSchema, text);
    if (!decoded.ok) {
      this.log.warn({ reason: decoded.error }, 'agent sent a frame the gateway does not understand');
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'response':
      case 'error': {
        const pending = this.pending.get(frame.id);
        if (!pending) return; // answered after its deadline: the client already has its 504
        this.pending.delete(frame.id);
        clearTimeout(pending.timer);
        if (frame.type === 'error') {
          const code = AGENT_ERROR_CODES.has(frame.code) ? frame.code : 'INTERNAL_ERROR';
          pending.reject(new ApiError(code, frame.message));
        } else if (decoded.payload === null) {
          pending.reject(new ApiError('INTERNAL_ERROR', 'The agent sent an answer without data.'));
        } else {
          pending.resolve({ payload: decoded.payload, next: frame.next });
        }
        return;
      }
      case 'ping':
        this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: frame.at }));
        return;
      case 'pong':
      case 'hello':
        return;
    }
  }

  /** The agent is gone: every request waiting on it fails now, not at its deadline. */
  closed(): void {
    if (!this.open) return;
    this.open = false;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) {
      clearTimeout(p.timer);
      p.reject(new ApiError('CONNECTION_OFFLINE', 'The connection’s agent went offline during the request.'));
    }
  }

  close(code: number, reason: string): void {
    this.channel.close(code, reason);
    this.closed();
  }
}
