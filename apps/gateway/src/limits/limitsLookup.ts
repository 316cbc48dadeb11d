import type { Store } from '../store/store.ts';
import { effectiveLimits, type Limits } from './limits.ts';

export type LimitsLookup = (orgId: string) => Promise<Limits>;

/**
 * An organisation's effective limits, read from the store at most once per `cacheMs` per
 * organisation: every request needs them, and they change rarely (operator CLI, dashboard). A change
 * therefore reaches running gateways within `cacheMs`.
 */
export function cachedLimitsLookup(store: Store, defaults: Limits, cacheMs: number, clock: () => number = Date.now): LimitsLookup {
  const cache = new Map<string, { limits: Limits; until: number }>();
  return async (orgId) => {
    const now = clock();
    const hit = cache.get(orgId);
    if (hit && hit.until > now) return hit.limits;
    const org = await store.findOrganisation(orgId);
    const limits = org ? effectiveLimits(org.limits, defaults) : defaults;
    if (cacheMs > 0) cache.set(orgId, { limits, until: now + cacheMs });
    return limits;
  };
}
