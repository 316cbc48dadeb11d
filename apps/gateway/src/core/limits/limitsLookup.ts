import { LRUCache } from 'lru-cache';
import type { Store } from '../../infrastructure/store/store.ts';
import { effectiveLimits, type Limits } from './limits.ts';

export type LimitsLookup = (orgId: string) => Promise<Limits>;

/** Organisations whose limits are remembered at once; the least recently used beyond it are read again. */
const ORGANISATIONS_REMEMBERED = 10_000;

/**
 * An organisation's effective limits, read from the store at most once per `cacheMs` per
 * organisation: every request needs them, and they change rarely (operator CLI, dashboard). A change
 * therefore reaches running gateways once the value read before it is older than `cacheMs`.
 */
export function cachedLimitsLookup(store: Store, defaults: Limits, cacheMs: number, clock: () => number = Date.now): LimitsLookup {
  const remembered =
    cacheMs > 0
      ? new LRUCache<string, Limits>({ max: ORGANISATIONS_REMEMBERED, ttl: cacheMs, ttlResolution: 0, perf: { now: clock } })
      : null;
  return async (orgId) => {
    const hit = remembered?.get(orgId);
    if (hit) return hit;
    const org = await store.findOrganisation(orgId);
    const limits = org ? effectiveLimits(org.limits, defaults) : defaults;
    remembered?.set(orgId, limits);
    return limits;
  };
}
