import { MAX_FRAME_BYTES, MAX_HELLO_BYTES } from '@gp-gateway/protocol';

/** Agents one connection may have on one gateway at a time, unless configured (AGENT_MAX_PER_CONNECTION). */
export const DEFAULT_MAX_AGENTS_PER_CONNECTION = 4;

/**
 * Bytes of frames still arriving that one connection's sockets may hold at once: two of the largest
 * frames (real pages are a tenth of one). Past it, the socket whose bytes crossed it is cut off.
 */
export const CONNECTION_BUFFER_BUDGET_BYTES = 2 * MAX_FRAME_BYTES;

/** Why a socket's bytes are refused: it has not said hello and sent more than a hello, or its connection is over budget. */
export type ByteRefusal = 'hello too large' | 'connection over budget';

interface Counts {
  waiting: number;
  agents: number;
  /** Bytes received by the connection's sockets that are not yet a whole message. */
  buffered: number;
}

/**
 * What one connection's sockets may hold on this gateway at once (docs/decisions.md#agent-tokens,
 * docs/decisions.md#a-rogue-or-broken-agent): at most `maxAgents` agents, as many sockets still owing
 * their hello, and CONNECTION_BUFFER_BUDGET_BYTES of unfinished frames among them all.
 */
export class AgentAdmission {
  readonly maxAgents: number;
  private readonly connections = new Map<string, Counts>();

  constructor(maxAgents = DEFAULT_MAX_AGENTS_PER_CONNECTION) {
    this.maxAgents = maxAgents;
  }

  /** Whether another socket may open for the connection (it must say hello within the hello timeout). */
  mayOpen(connectionId: string): boolean {
    return (this.connections.get(connectionId)?.waiting ?? 0) < this.maxAgents;
  }

  /** A socket opened for the connection; it owes a hello. */
  opened(connectionId: string): AdmittedSocket {
    const counts = this.connections.get(connectionId) ?? { waiting: 0, agents: 0, buffered: 0 };
    this.connections.set(connectionId, counts);
    counts.waiting += 1;
    return new AdmittedSocket(counts, () => {
      if (counts.waiting === 0 && counts.agents === 0) this.connections.delete(connectionId);
    });
  }

  /** Agents the connection has now, for tests and logs. */
  agentsOf(connectionId: string): number {
    return this.connections.get(connectionId)?.agents ?? 0;
  }
}

/** One socket's share of its connection's counts, left exactly once. */
export class AdmittedSocket {
  private state: 'waiting' | 'agent' | 'gone' = 'waiting';
  private partial = 0;
  private readonly counts: Counts;
  private readonly onLeft: () => void;

  constructor(counts: Counts, onLeft: () => void) {
    this.counts = counts;
    this.onLeft = onLeft;
  }

  get isAgent(): boolean {
    return this.state === 'agent';
  }

  get owesHello(): boolean {
    return this.state === 'waiting';
  }

  /** The agents the connection has already when it has as many as it may, else null. */
  agentsIfFull(maxAgents: number): number | null {
    return this.counts.agents >= maxAgents ? this.counts.agents : null;
  }

  /** The socket said hello and was accepted as an agent. */
  becameAgent(): void {
    if (this.state !== 'waiting') return;
    this.counts.waiting -= 1;
    this.counts.agents += 1;
    this.state = 'agent';
  }

  /** Bytes arrived on the socket (before they are whole messages); a refusal means: cut it off. */
  received(bytes: number): ByteRefusal | null {
    if (this.state === 'gone') return null;
    this.partial += bytes;
    this.counts.buffered += bytes;
    if (this.state === 'waiting' && this.partial > MAX_HELLO_BYTES) return 'hello too large';
    if (this.counts.buffered > CONNECTION_BUFFER_BUDGET_BYTES) return 'connection over budget';
    return null;
  }

  /** A whole message was handed over: its bytes are no longer buffered as unfinished. */
  messageEnded(): void {
    this.counts.buffered -= this.partial;
    this.partial = 0;
  }

  /** Bytes this socket holds in unfinished frames, and its connection's sockets together. */
  get bufferedBytes(): { socket: number; connection: number } {
    return { socket: this.partial, connection: this.counts.buffered };
  }

  left(): void {
    if (this.state === 'gone') return;
    this.messageEnded();
    if (this.state === 'waiting') this.counts.waiting -= 1;
    else this.counts.agents -= 1;
    this.state = 'gone';
    this.onLeft();
  }
}
