import { operationObject, type Company, type Operation } from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { AgentLostError, ApiError } from '../../errors/apiError.ts';
import type { AgentAnswer, AgentLink } from './agentLink.ts';

/** Whose request it is: the in-flight cap applies per organisation and connection (docs/api.md#in-flight-cap). */
export interface Tenant {
  orgId: string;
  /** The organisation's cap on requests in flight per connection. */
  maxInFlight: number;
}

/** What a connection's agents offer now: the companies they reported, and whether one has writes on. */
export interface AgentReach {
  readonly companies: readonly Company[];
  readonly allowsWrites: boolean;
}

/**
 * Finds an agent for a connection and sends it an operation. `LocalAgentRouter` knows the agents
 * connected to this instance; with several instances, `ClusterAgentRouter` (clusterAgentRouter.ts)
 * also forwards over NATS to the instance holding one (forwarding/natsAgentRouter.ts), behind the
 * same interface, which is why every answer is a promise.
 */
export interface AgentRouter {
  /**
   * The connection's agents in one answer, the one routing question an operation asks before its
   * request: null when no agent is connected. Throws ERP_UNAVAILABLE when the agents are up but none
   * can read GP. `allowsWrites` is certain only when `forWrite` (several instances: the instance that
   * answers may not be the one whose agent has writes on, and only a write needs to know).
   */
  reach(agentKey: string, forWrite?: boolean): Promise<AgentReach | null>;
  /**
   * Rejects at once with CONNECTION_OFFLINE when no agent that may take the operation is connected.
   * Writes that change something go only to agents whose hello said `allowWrites`; validate-only
   * writes and outcome operations prefer those, else any agent (which refuses if it must). Only
   * reads are ever sent twice (docs/api.md#writes: the gateway never re-sends a write). `signal`
   * abandons the request (the agent is told to cancel it), e.g. when the instance that forwarded it gives up.
   */
  request(agentKey: string, op: Operation, timeoutMs: number, tenant?: Tenant, signal?: AbortSignal): Promise<AgentAnswer>;
  /**
   * Resolves true as soon as an agent of the connection is available (at once if one is), false
   * after `timeoutMs` without one: a write whose agent dropped waits for one to ask the outcome of.
   */
  waitForAgent(agentKey: string, timeoutMs: number): Promise<boolean>;
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

/** Operations that only an agent with writes on may run: a write that is not validate-only. */
function needsWriter(op: Operation): boolean {
  return op.kind === 'write' && !op.validateOnly;
}

/**
 * Several agents may serve one connection (installed on two servers for availability). A request
 * goes to the available agent with the fewest requests in flight, in turn among equals; draining
 * agents get nothing new. A read whose agent vanished before answering is sent once to another.
 */
export class LocalAgentRouter implements AgentRouter, AgentRegistry {
  private readonly links = new Map<string, AgentLink[]>();
  private readonly listeners: AgentLinkListener[] = [];
  /** Callers of waitForAgent, by agent key, woken when a link of theirs is added. */
  private readonly waiting = new Map<string, Set<() => void>>();
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
    for (const wake of this.waiting.get(agentKey) ?? []) wake();
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

  /** Whether this instance has an agent of the connection that takes new requests. */
  hasAvailable(agentKey: string): boolean {
    return this.linksOf(agentKey).some((l) => l.available);
  }

  /** The connection's links, in the order they connected (available or not: callers filter). */
  linksOf(agentKey: string): readonly AgentLink[] {
    return this.links.get(agentKey) ?? [];
  }

  async reach(agentKey: string): Promise<AgentReach | null> {
    const companies = this.companiesOf(agentKey);
    return companies && { companies, allowsWrites: this.allowsWrites(agentKey) };
  }

  private companiesOf(agentKey: string): readonly Company[] | null {
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

  /** Whether an agent of the connection connected now has writes turned on (`allowWrites` in its hello). */
  allowsWrites(agentKey: string): boolean {
    return this.linksOf(agentKey).some((l) => l.available && l.agent.allowWrites === true);
  }

  waitForAgent(agentKey: string, timeoutMs: number): Promise<boolean> {
    if (this.linksOf(agentKey).some((l) => l.available)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiters = this.waiting.get(agentKey) ?? new Set<() => void>();
      this.waiting.set(agentKey, waiters);
      const done = (found: boolean) => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (!waiters.size) this.waiting.delete(agentKey);
        resolve(found);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      waiters.add(wake);
    });
  }

  async request(agentKey: string, op: Operation, timeoutMs: number, _tenant?: Tenant, signal?: AbortSignal): Promise<AgentAnswer> {
    const started = Date.now();
    const first = this.pick(agentKey, null, op);
    try {
      return await first.request(op, timeoutMs, signal);
    } catch (error) {
      if (!(error instanceof AgentLostError) || !isRead(op) || signal?.aborted) throw error;
      const remaining = timeoutMs - (Date.now() - started);
      const second = remaining > 0 ? this.pickOrNull(agentKey, first, op) : null;
      if (!second) throw error;
      this.log?.info(
        { agentKey, object: operationObject(op), from: first.agent.host, to: second.agent.host, reason: error.message },
        'agent lost mid-request; retrying the read on another agent',
      );
      return await second.request(op, remaining, signal);
    }
  }

  private pick(agentKey: string, exclude: AgentLink | null, op: Operation): AgentLink {
    const link = this.pickOrNull(agentKey, exclude, op);
    if (link) return link;
    const draining = this.linksOf(agentKey).some((l) => l.draining);
    if (!draining && needsWriter(op) && this.linksOf(agentKey).some((l) => l.available)) {
      throw new ApiError('CONNECTION_OFFLINE', 'No agent of the connection with writes turned on is connected.');
    }
    throw new ApiError('CONNECTION_OFFLINE', draining ? 'The connection’s agent is shutting down.' : 'The connection’s agent is offline.');
  }

  private pickOrNull(agentKey: string, exclude: AgentLink | null, op: Operation): AgentLink | null {
    const available = this.linksOf(agentKey).filter((l) => l.available && l !== exclude);
    const writers = isRead(op) ? [] : available.filter((l) => l.agent.allowWrites === true);
    const candidates = isRead(op) || (!writers.length && !needsWriter(op)) ? available : writers;
    if (!candidates.length) return null;
    const least = Math.min(...candidates.map((l) => l.inFlight));
    const idle = candidates.filter((l) => l.inFlight === least);
    return idle[this.turn++ % idle.length]!;
  }
}
