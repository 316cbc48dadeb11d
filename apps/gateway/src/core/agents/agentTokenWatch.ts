import type { Logger } from 'pino';
import type { Store } from '../../infrastructure/store/store.ts';

/** How often the open agent sockets' tokens are checked against the store (docs/decisions.md#agent-tokens). */
const DEFAULT_AGENT_TOKEN_CHECK_MS = 1_000;

/** An open agent socket as the watch sees it: the token hash it was opened with, and how to drop it. */
export interface WatchedSocket {
  connectionId: string;
  tokenHash: string;
  /** The token no longer opens this connection: drop the socket and whatever it serves, now. */
  revoke(): void;
}

/**
 * Drops agent sockets whose token was rotated or revoked after they opened. The operator CLI
 * changes tokens in its own process, so the running gateway cannot be told; it asks the store
 * instead, every `checkMs`, which of its sockets' token hashes a connection still holds: one
 * indexed read for all of them, and none while no agent is connected. A rotated or revoked token
 * therefore stops serving within `checkMs` (plus the read), without a restart.
 */
export class AgentTokenWatch {
  private readonly sockets = new Set<WatchedSocket>();
  private readonly store: Store;
  private readonly log: Logger;
  private readonly checkMs: number;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(options: { store: Store; log: Logger; checkMs?: number }) {
    this.store = options.store;
    this.log = options.log;
    this.checkMs = options.checkMs ?? DEFAULT_AGENT_TOKEN_CHECK_MS;
  }

  start(): void {
    this.timer = setInterval(() => void this.check(), this.checkMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  add(socket: WatchedSocket): void {
    this.sockets.add(socket);
  }

  delete(socket: WatchedSocket): void {
    this.sockets.delete(socket);
  }

  /** One check now; a check still running is awaited instead of overlapped. */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    if (!this.sockets.size) return;
    const watched = [...this.sockets];
    let held: Set<string>;
    try {
      held = await this.store.agentTokenHashesHeld([...new Set(watched.map((s) => s.tokenHash))]);
    } catch (error) {
      // The store is unreachable: sockets keep serving rather than every agent being dropped; the next check retries.
      this.log.warn({ err: error }, 'could not check the agent tokens');
      return;
    }
    const revoked = watched.filter((s) => !held.has(s.tokenHash) && this.sockets.has(s));
    const connections = new Set(revoked.map((s) => s.connectionId));
    for (const connectionId of connections) {
      const sockets = revoked.filter((s) => s.connectionId === connectionId).length;
      this.log.warn({ connectionId, sockets }, 'agent token rotated or revoked; dropping the sockets opened with it');
    }
    for (const socket of revoked) {
      this.sockets.delete(socket);
      socket.revoke();
    }
  }
}
