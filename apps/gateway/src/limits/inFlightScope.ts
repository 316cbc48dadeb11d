import { AsyncLocalStorage } from 'node:async_hooks';

/** What the agent router needs to know about the request it is serving, to cap it per connection. */
export interface InFlightScope {
  orgId: string;
  maxInFlightPerConnection: number;
}

const storage = new AsyncLocalStorage<InFlightScope>();

/**
 * Carries the authenticated organisation and its in-flight cap from the HTTP layer to the agent
 * router without every route handler passing them along: REST reads and /mcp tool calls today,
 * writes later, all reach an agent through `AgentRouter.request` and are capped there.
 */
export function runInFlightScope<T>(scope: InFlightScope, fn: () => T): T {
  return storage.run(scope, fn);
}

export function currentInFlightScope(): InFlightScope | undefined {
  return storage.getStore();
}
