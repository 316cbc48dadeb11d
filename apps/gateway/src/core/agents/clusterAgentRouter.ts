import type { Operation } from '@gp-gateway/protocol';
import type { AgentAnswer } from './agentLink.ts';
import type { AgentReach, AgentRouter, LocalAgentRouter, Tenant } from './agentRouter.ts';

/**
 * Several gateway instances (docs/decisions.md#several-gateway-instances): a connection's request
 * goes to this instance's own agent when it has one that takes requests, and otherwise to another
 * instance that holds one (`remote`, over NATS). Which kind of operation it is does not matter.
 */
export class ClusterAgentRouter implements AgentRouter {
  private readonly local: LocalAgentRouter;
  private readonly remote: AgentRouter;

  constructor(local: LocalAgentRouter, remote: AgentRouter) {
    this.local = local;
    this.remote = remote;
  }

  async reach(agentKey: string, forWrite?: boolean): Promise<AgentReach | null> {
    if (this.local.hasAvailable(agentKey)) {
      const here = await this.local.reach(agentKey);
      // Writes off here: an agent on another instance may have them on.
      if (!here || here.allowsWrites || !forWrite) return here;
      return { ...here, allowsWrites: (await this.remote.reach(agentKey, true))?.allowsWrites ?? false };
    }
    // Only draining agents here and none elsewhere: the local answer makes the request say "shutting down".
    return (await this.remote.reach(agentKey, forWrite)) ?? this.local.reach(agentKey);
  }

  async request(agentKey: string, op: Operation, timeoutMs: number, tenant?: Tenant, signal?: AbortSignal): Promise<AgentAnswer> {
    // A write that changes something needs an agent with writes on: here if this instance has one.
    const needsWriter = op.kind === 'write' && !op.validateOnly;
    const here = this.local.hasAvailable(agentKey) && (!needsWriter || this.local.allowsWrites(agentKey));
    if (here) return this.local.request(agentKey, op, timeoutMs, tenant, signal);
    return this.remote.request(agentKey, op, timeoutMs, tenant, signal);
  }

  async waitForAgent(agentKey: string, timeoutMs: number): Promise<boolean> {
    if (this.local.hasAvailable(agentKey)) return true;
    // Whichever says yes first: an agent back on this instance, or one on another. A "no" from one
    // side at the deadline is the answer only when the other says no as well.
    const local = this.local.waitForAgent(agentKey, timeoutMs);
    const remote = this.remote.waitForAgent(agentKey, timeoutMs);
    return Promise.race([local.then((found) => found || remote), remote.then((found) => found || local)]);
  }
}
