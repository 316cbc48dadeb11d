import type { AgentLink } from '../agents/agentLink.ts';
import type { AgentLinkListener } from '../agents/agentRouter.ts';
import type { EventFeed } from './eventFeed.ts';
import { SANDBOX_EVENTS_ORG } from '../../infrastructure/store/store.ts';

/**
 * Records `connection.online` when a connection's first agent arrives on this instance and
 * `connection.offline` when its last one leaves, in that order (the writes are queued). Only agents
 * that report changes count, and not the built-in sandbox agent's: it is online whenever the gateway
 * is, and its link is every organisation's. With several instances, each
 * records what it sees of its own agents: two agents of one connection on two instances make one
 * `online` each, and an `offline` means this instance lost its last one.
 */
export class ConnectionEvents implements AgentLinkListener {
  private readonly feed: EventFeed;
  private readonly counts = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();

  constructor(feed: EventFeed) {
    this.feed = feed;
  }

  added(agentKey: string, link: AgentLink): void {
    if (!counts(link)) return;
    const count = (this.counts.get(agentKey) ?? 0) + 1;
    this.counts.set(agentKey, count);
    if (count === 1) this.record(link, agentKey, 'online');
  }

  removed(agentKey: string, link: AgentLink): void {
    if (!counts(link)) return;
    const count = (this.counts.get(agentKey) ?? 1) - 1;
    if (count > 0) return void this.counts.set(agentKey, count);
    this.counts.delete(agentKey);
    this.record(link, agentKey, 'offline');
  }

  /** Resolves once every event asked for so far is written. */
  settled(): Promise<void> {
    return this.queue;
  }

  private record(link: AgentLink, connectionId: string, state: 'online' | 'offline'): void {
    const orgId = link.changes!.orgId;
    const details = { agentVersion: link.agent.version, agentHost: link.agent.host };
    this.queue = this.queue.then(() => this.feed.connection(orgId, connectionId, state, details));
  }
}

const counts = (link: AgentLink) => link.changes !== null && link.changes.orgId !== SANDBOX_EVENTS_ORG;
