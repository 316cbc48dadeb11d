import diagnostics_channel from 'node:diagnostics_channel';

/** What an OutageNotice (infrastructure/outageNotice.ts) tells whoever listens: a call to a shared server failed, or it answers again. */
export interface OutageEvent {
  /** The server, as the notice names it: `PostgreSQL`, `Redis` or `NATS`. */
  server: string;
  event: 'failed' | 'recovered';
  /** This call opened the outage (the first failure since the server last answered). */
  began: boolean;
}

/**
 * The channel OutageNotice publishes on (node:diagnostics_channel): the many components that meet
 * an outage (the store's breaker, the Redis limiters, presence, the NATS forwarder) need no metrics
 * passed to them, and publishing costs nothing while no one subscribes. Process-wide: with several
 * gateways in one process (tests) each one's metrics count every one's outages.
 */
export const outageChannel = diagnostics_channel.channel('gp-gateway:outage');

export function publishOutage(event: OutageEvent): void {
  if (outageChannel.hasSubscribers) outageChannel.publish(event);
}
