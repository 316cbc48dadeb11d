import { operationObject, type Company, type Operation } from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { AgentLostError, ApiError } from '../errors/apiError.ts';
import type { AgentAnswer, AgentLink } from './agentLink.ts';

/** Whose request it is: the in-flight cap applies per organisation and connection (docs/api.md#in-flight-cap). */
export interface Tenant {
  orgId: string;
  /** The organisation's cap on requests in flight per connection. */
  maxInFlight: number;
}

/**
 * Finds an agent for a connection and sends it an operation. This instance knows only the agents
 * connected to it; a later step routes across gateway instances (NATS) behind the same interface,
 * which is why every answer is a promise.
 */
export interface AgentRouter {
  /**
   * The companies the connection's agents reported, or null when no agent is connected. Throws
   * ERP_UNAVAILABLE when the agents are up but none can read GP.
   */
  companies(agentKey: string): Promise<readonly Company[] | null>;
  /** Rejects at once with CONNECTION_OFFLINE when no agent is connected. */
  request(agentKey: string, op: Operation, timeoutMs: number, tenant?: Tenant): Promise<AgentAnswer>;
}

/**
 * Where agent links are registered as they connect and leave: the agent socket server and the
 * built-in sandbox agent know only this, not how requests are routed.
 */
export interface AgentRegistry {
  add(agentKey: string, link: AgentLink): void;
  remove(agentKey: string, link: AgentLink): void;
}

/** Told when links come and go, e.g. to record agent presence for operators. */
export interface AgentLinkListener {
  added(agentKey: string, link: AgentLink): void;
  removed(agentKey: string, link: AgentLink): void;
  /** The agent reported a change: health, companies, draining. */
  updated?(agentKey: string, link: AgentLink): void;
}

/** Operations that change nothing, so one that never reached an answer may be sent again. */
function isRead(op: Operation): boolean {
  return op.kind === 'list' || op.kind === 'get';
}

/**
 * Several agents may serve one connection (installed on two servers for availability). A request
 * goes to the available agent with the fewest requests in flight, in turn among equals; draining
 * agents get nothing new. A read whose agent vanished before answering is sent once to another.
 */
export class LocalAgentRouter implements AgentRouter, AgentRegistry {
  private readonly links = new Map<string, AgentLink[]>();
  private readonly listeners: AgentLinkListener[] = [];
  private readonly log: Logger | null;
  private turn = 0;

  constructor(log: Logger | null = null) {
    this.log = log;
  }

  listen(listener: AgentLinkListener): void {
    this.listeners.push(listener);
  }

  add(agentKey: string, link: AgentLink): void {
    this.links.set(agentKey, [...(this.links.get(agentKey) ?? []), link]);
    link.onChange = () => {
      for (const listener of this.listeners) listener.updated?.(agentKey, link);
    };
    for (const listener of this.listeners) listener.added(agentKey, link);
  }

  remove(agentKey: string, link: AgentLink): void {
    const links = this.links.get(agentKey) ?? [];
    if (!links.includes(link)) return;
    const rest = links.filter((l) => l !== link);
    if (rest.length) this.links.set(agentKey, rest);
    else this.links.delete(agentKey);
    link.onChange = null;
    for (const listener of this.listeners) listener.removed(agentKey, link);
  }

  /** The connection's links, available ones first. */
  linksOf(agentKey: string): readonly AgentLink[] {
    return this.links.get(agentKey) ?? [];
  }

  async companies(agentKey: string): Promise<readonly Company[] | null> {
    const links = this.linksOf(agentKey);
    const available = links.filter((l) => l.available);
    // Only draining agents: the request itself is refused with "shutting down", after the usual checks.
    if (!available.length) return links.find((l) => l.draining)?.companies ?? null;
    const reading = available.find((l) => l.companies.length > 0);
    if (reading) return reading.companies;
    if (available.every((l) => l.health?.database === 'unavailable')) {
      throw new ApiError('ERP_UNAVAILABLE', 'The connection’s agent is running but cannot reach the GP database.');
    }
    return [];
  }

  async request(agentKey: string, op: Operation, timeoutMs: number): Promise<AgentAnswer> {
    const started = Date.now();
    const first = this.pick(agentKey, null);
    try {
      return await first.request(op, timeoutMs);
    } catch (error) {
      if (!(error instanceof AgentLostError) || !isRead(op)) throw error;
      const remaining = timeoutMs - (Date.now() - started);
      const second = remaining > 0 ? this.pickOrNull(agentKey, first) : null;
      if (!second) throw error;
      this.log?.info(
        { agentKey, object: operationObject(op), from: first.agent.host, to: second.agent.host, reason: error.message },
        'agent lost mid-request; retrying the read on another agent',
      );
      return await second.request(op, remaining);
    }
  }

  private pick(agentKey: string, exclude: AgentLink | null): AgentLink {
    const link = this.pickOrNull(agentKey, exclude);
    if (link) return link;
    const draining = this.linksOf(agentKey).some((l) => l.draining);
    throw new ApiError('CONNECTION_OFFLINE', draining ? 'The connection’s agent is shutting down.' : 'The connection’s agent is offline.');
  }

  private pickOrNull(agentKey: string, exclude: AgentLink | null): AgentLink | null {
    const candidates = this.linksOf(agentKey).filter((l) => l.available && l !== exclude);
    if (!candidates.length) return null;
    const least = Math.min(...candidates.map((l) => l.inFlight));
    const idle = candidates.filter((l) => l.inFlight === least);
    return idle[this.turn++ % idle.length]!;
  }
}
