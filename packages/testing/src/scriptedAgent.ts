import WebSocket from 'ws';
import { encodeFrame, type Change, type Operation, type WriteOperation } from '@gp-gateway/protocol';
import { testAgentHello } from './testAgentHello.ts';

/**
 * What the scripted agents of one customer database share: the write journal (operation id → the
 * record written, or `abandoned`), as the real agent keeps it in the company database. Agents that
 * reconnect, or a second agent of the connection, see the same journal.
 */
export class ScriptedJournal {
  readonly entries = new Map<string, string | 'abandoned'>();

  /** The record a write creates: its body as JSON, a journal entry its lines (what a GET would return, near enough). */
  static recordOf(op: WriteOperation): string {
    return JSON.stringify(op.object === 'gl-entries' ? op.body.lines : op.body);
  }

  /** Commits a write: the journal row and the "document" together, as the agent's transaction does. */
  commit(op: WriteOperation): string {
    const record = ScriptedJournal.recordOf(op);
    if (!this.entries.has(op.operationId)) this.entries.set(op.operationId, record);
    return record;
  }

  /** Documents written (entries that are not abandoned). */
  get written(): number {
    return [...this.entries.values()].filter((e) => e !== 'abandoned').length;
  }
}

export interface ScriptedRequest {
  id: string;
  op: Operation;
}

/** How a scripted agent answers a request; the default answers as a correct agent with writes on would. */
export type Script = (request: ScriptedRequest, agent: ScriptedAgent) => void;

export interface ScriptedAgentOptions {
  allowWrites?: boolean;
  host?: string;
  journal?: ScriptedJournal;
  script?: Script;
}

/**
 * A hand-written agent over a real WebSocket, for gateway tests of writes: it says hello (with or
 * without `allowWrites`), records every request the gateway sends it, and answers as its script
 * says: by default writes commit into the shared journal and outcomes are answered from it (an
 * unknown operation is recorded as abandoned and answered `not_executed`), as the protocol requires.
 */
export class ScriptedAgent {
  readonly requests: ScriptedRequest[] = [];
  readonly journal: ScriptedJournal;
  /** What the gateway's welcome offered beyond protocol 1's first release (`changes`). */
  features: string[] = [];
  private readonly acks = new Map<string, (ack: { stored: number; error?: string }) => void>();
  private nextChanges = 1;
  script: Script;
  private readonly ws: WebSocket;

  private constructor(ws: WebSocket, options: ScriptedAgentOptions) {
    this.ws = ws;
    this.journal = options.journal ?? new ScriptedJournal();
    this.script = options.script ?? answerCorrectly;
  }

  static connect(gatewayUrl: string, token: string, options: ScriptedAgentOptions = {}): Promise<ScriptedAgent> {
    const ws = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/agent`, { headers: { authorization: `Bearer ${token}` } });
    const agent = new ScriptedAgent(ws, options);
    return new Promise((resolve, reject) => {
      ws.on('error', reject);
      ws.on('close', (code, reason) => reject(new Error(`closed before a welcome: ${code} ${reason.toString()}`)));
      ws.on('open', () => {
        ws.send(testAgentHello({ version: 'scripted', host: options.host ?? 'scripted', allowWrites: options.allowWrites ?? true }));
      });
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        const frame = JSON.parse(text.split('\n')[0]!) as {
          type: string;
          id: string;
          op: Operation;
          features?: string[];
          stored?: number;
          error?: string;
        };
        if (frame.type === 'welcome') {
          agent.features = frame.features ?? [];
          resolve(agent);
        }
        if (frame.type === 'changes-ack') {
          agent.acks.get(frame.id)?.({ stored: frame.stored ?? 0, ...(frame.error ? { error: frame.error } : {}) });
          agent.acks.delete(frame.id);
        }
        if (frame.type === 'request') {
          const request = { id: frame.id, op: frame.op };
          agent.requests.push(request);
          agent.script(request, agent);
        }
      });
    });
  }

  /** Requests of one kind the gateway sent this agent. */
  sent(kind: Operation['kind']): ScriptedRequest[] {
    return this.requests.filter((r) => r.op.kind === kind);
  }

  respond(id: string, outcome: 'created' | 'validated' | 'replayed' | 'not_executed', payload?: string): void {
    this.ws.send(encodeFrame({ v: 1, type: 'response', id, next: null, outcome }, payload));
  }

  error(id: string, code: string, message: string, details?: Record<string, unknown>): void {
    this.ws.send(encodeFrame({ v: 1, type: 'error', id, code, message, ...(details ? { details } : {}) }));
  }

  /** Reports changes as the agent's detection does; resolves with the gateway's acknowledgement. */
  reportChanges(object: string, company: string, changes: Change[]): Promise<{ stored: number; error?: string }> {
    const id = `c${this.nextChanges++}`;
    return new Promise((resolve) => {
      this.acks.set(id, resolve);
      this.ws.send(encodeFrame({ v: 1, type: 'changes', id, object, company, changes }));
    });
  }

  /** The link drops (a pulled cable, a killed process): no close handshake. */
  drop(): void {
    this.ws.terminate();
  }

  close(): void {
    this.ws.close();
  }
}

/** A correct agent with writes on: writes commit once (a repeated operation id replays), outcomes come from the journal. */
export const answerCorrectly: Script = ({ id, op }, agent) => {
  if (op.kind === 'write') {
    if (op.validateOnly) return agent.respond(id, 'validated', ScriptedJournal.recordOf(op));
    const earlier = agent.journal.entries.get(op.operationId);
    if (earlier === 'abandoned') return agent.error(id, 'CONNECTION_OFFLINE', 'abandoned');
    return agent.respond(id, earlier ? 'replayed' : 'created', agent.journal.commit(op));
  }
  if (op.kind === 'outcome') return settleFromJournal(id, op.operationId, agent);
  agent.error(id, 'INTERNAL_ERROR', 'the scripted agent reads nothing');
};

/** The outcome contract: the journal's record, or the operation recorded as abandoned and `not_executed`. */
export function settleFromJournal(id: string, operationId: string, agent: ScriptedAgent): void {
  const entry = agent.journal.entries.get(operationId);
  if (entry === undefined || entry === 'abandoned') {
    agent.journal.entries.set(operationId, 'abandoned');
    return agent.respond(id, 'not_executed');
  }
  agent.respond(id, 'replayed', entry);
}
