import type { Company, Operation } from '@gp-gateway/protocol';
import { ApiError } from '../http/apiError.ts';
import type { AgentAnswer, AgentLink } from './agentLink.ts';

/**
 * Finds an agent for a connection and sends it an operation. This instance knows only the agents
 * connected to it; a later step routes across gateway instances (NATS) behind the same interface.
 */
export interface AgentRouter {
  /** The companies the connection's agents reported, or null when no agent is connected. */
  companies(agentKey: string): readonly Company[] | null;
  /** Rejects at once with CONNECTION_OFFLINE when no agent is connected. */
  request(agentKey: string, op: Operation, timeoutMs: number): Promise<AgentAnswer>;
}

/** Told when links come and go, e.g. to record agent presence for operators. */
export interface AgentLinkListener {
  added(agentKey: string, link: AgentLink): void;
  removed(agentKey: string, link: AgentLink): void;
}

export class LocalAgentRouter implements AgentRouter {
  private readonly links = new Map<string, AgentLink[]>();
  private readonly listeners: AgentLinkListener[] = [];
  private turn = 0;

  listen(listener: AgentLinkListener): void {
    this.listeners.push(listener);
  }

  add(agentKey: string, link: AgentLink): void {
    this.links.set(agentKey, [...(this.links.get(agentKey) ?? []), link]);
    for (const listener of this.listeners) listener.added(agentKey, link);
  }

  remove(agentKey: string, link: AgentLink): void {
    const links = this.links.get(agentKey) ?? [];
    if (!links.includes(link)) return;
    const rest = links.filter((l) => l !== link);
    if (rest.length) this.links.set(agentKey, rest);
    else this.links.delete(agentKey);
    for (const listener of this.listeners) listener.removed(agentKey, link);
  }

  /** Every connected link, e.g. to close them on shutdown. */
  all(): AgentLink[] {
    return [...this.links.values()].flat();
  }

  companies(agentKey: string): readonly Company[] | null {
    return this.links.get(agentKey)?.[0]?.companies ?? null;
  }

  request(agentKey: string, op: Operation, timeoutMs: number): Promise<AgentAnswer> {
    const links = this.links.get(agentKey);
    if (!links?.length) return Promise.reject(new ApiError('CONNECTION_OFFLINE', 'The connection’s agent is offline.'));
    const link = links[this.turn++ % links.length]!;
    return link.request(op, timeoutMs);
  }
}
