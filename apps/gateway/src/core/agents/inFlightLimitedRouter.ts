import type { Operation } from '@gp-gateway/protocol';
import type { InFlightLimiter } from '../limits/inFlightLimiter.ts';
import type { AgentAnswer } from './agentLink.ts';
import type { AgentReach, AgentRouter, Tenant } from './agentRouter.ts';
import { ApiError } from '../../errors/apiError.ts';
import { NO_METRICS, type GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';

/**
 * Any agent router with the per-connection in-flight cap (docs/api.md#in-flight-cap) in front of it. The cap and the
 * organisation come with each request (the caller's Tenant); the slot is per
 * organisation and agent key, so every organisation's sandbox has its own slots although one
 * built-in agent serves them all, and one tenant cannot fill another's.
 */
export class InFlightLimitedRouter implements AgentRouter {
  private readonly inner: AgentRouter;
  private readonly gate: InFlightLimiter;
  /** Applies to requests that name no tenant (none from the HTTP routes). */
  private readonly defaultCap: number;
  private readonly metrics: GatewayMetrics;

  constructor(inner: AgentRouter, gate: InFlightLimiter, defaultCap: number, metrics: GatewayMetrics = NO_METRICS) {
    this.inner = inner;
    this.gate = gate;
    this.defaultCap = defaultCap;
    this.metrics = metrics;
  }

  reach(agentKey: string, forWrite?: boolean): Promise<AgentReach | null> {
    return this.inner.reach(agentKey, forWrite);
  }

  waitForAgent(agentKey: string, timeoutMs: number): Promise<boolean> {
    return this.inner.waitForAgent(agentKey, timeoutMs);
  }

  async request(agentKey: string, op: Operation, timeoutMs: number, tenant?: Tenant, signal?: AbortSignal): Promise<AgentAnswer> {
    const release = await this.gate
      .acquire(slotKey(tenant?.orgId ?? null, agentKey), tenant?.maxInFlight ?? this.defaultCap)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'RATE_LIMITED') this.metrics.inFlightRefused();
        throw error;
      });
    try {
      return await this.inner.request(agentKey, op, timeoutMs, tenant, signal);
    } finally {
      release();
    }
  }
}

/** The gate key of one organisation's connection (NUL cannot occur in either id). */
export function slotKey(orgId: string | null, agentKey: string): string {
  return `${orgId ?? ''}\u0000${agentKey}`;
}
