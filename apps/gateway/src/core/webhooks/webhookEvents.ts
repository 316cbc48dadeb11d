import { eventTypePatternProblem } from '@gp-gateway/protocol';

/** Raised when an endpoint failing for 5 days is disabled (to the organisation's other endpoints and its feed). */
export const ENDPOINT_DISABLED = 'endpoint.disabled';
/** What "send a test event" sends: to the one endpoint, never stored in the feed. */
export const WEBHOOK_TEST = 'webhook.test';

/** The connection id that the gateway's own events about webhooks carry (they are of no connection). */
export const GATEWAY_CONNECTION_ID = 'gateway';

/** Why a pattern cannot be subscribed to; null when it can (the feed's types, and the endpoint's own). */
export function subscriptionProblem(pattern: string): string | null {
  if (pattern === ENDPOINT_DISABLED || pattern === 'endpoint.*') return null;
  const problem = eventTypePatternProblem(pattern);
  return problem === null ? null : `${problem}, or ${ENDPOINT_DISABLED}`;
}
