import { CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN_LATER, reconnectHint } from '@gp-gateway/protocol';

/** The timings the policy reads (ConnectionTimings in dialGateway.ts has them, with their defaults). */
export interface BackoffTimings {
  /** Reconnect delays grow from min, doubling, to max; each is then drawn at random below that (full jitter). */
  backoffMinMs: number;
  backoffMaxMs: number;
  /** A connection that stayed up this long was healthy: the next one starts from the smallest delay. */
  heartbeatTimeoutMs: number;
}

/** How a connection ended, as far as when to dial again is concerned. */
export interface ConnectionEnd {
  /** The WebSocket close code; null when it never opened or failed without one. */
  code: number | null;
  reason: string;
  /** The gateway welcomed the agent on this connection ... */
  welcomed: boolean;
  /** ... and it lasted this long. */
  upMs: number;
}

/** When to dial again, and the attempt count to carry to the next decision. */
export interface Reconnect {
  delayMs: number;
  attempt: number;
}

/** A booked turn (1013 "retry after") is spread over this much after it: the handshake cap counts per second. */
const BOOKED_TURN_SPREAD_MS = 1_000;
/**
 * The longest wait a gateway's hint may ask for. Not the largest backoff: a turn booked a minute out
 * (60,000 agents queued at 1,000 a second) kept shorter would bring the agent back early, to be refused
 * and booked again at the end of the queue.
 */
export const MAX_HINTED_WAIT_MS = 5 * 60_000;

/**
 * The n-th reconnect delay (n from 0): exponential, capped, and "full jitter", drawn uniformly from
 * [0, cap], so that agents that lost their gateway together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  timings: Pick<BackoffTimings, 'backoffMinMs' | 'backoffMaxMs'>,
  random = Math.random,
): number {
  const cap = Math.min(timings.backoffMaxMs, timings.backoffMinMs * 2 ** Math.min(attempt, 30));
  return cap * random();
}

/**
 * When to dial again after a connection ended (docs/decisions.md#reconnecting-after-a-deploy). Shared
 * by the agent and bench:cluster's fake agents, so that the bench measures what agents do.
 *  - 1012 (the gateway restarting, a deploy) after a welcome: not an outage, so the backoff starts
 *    over; the delay is drawn over the window the gateway named ("spread over N ms", sized from
 *    how many agents it held and its handshake cap), or over the smallest bound, so that thousands of
 *    agents reach the remaining instances spread out rather than in one burst.
 *  - 1013 (handshake cap reached) naming a turn ("retry after N ms"): dial then, spread over a second;
 *    a refusal by a healthy gateway does not grow the backoff.
 *  - Anything else: exponential backoff with full jitter, started over after a connection that
 *    stayed up; one that drops at once (a gateway that accepts and then fails) keeps growing it, so
 *    that a flapping gateway is not hammered.
 * A hint is honoured up to MAX_HINTED_WAIT_MS: a broken gateway cannot park agents for good.
 */
export function nextReconnect(attempt: number, end: ConnectionEnd, timings: BackoffTimings, random = Math.random): Reconnect {
  const hint = reconnectHint(end.reason);
  if (end.code === CLOSE_TRY_AGAIN_LATER && hint.afterMs !== undefined) {
    return { delayMs: Math.min(hint.afterMs, MAX_HINTED_WAIT_MS) + random() * BOOKED_TURN_SPREAD_MS, attempt };
  }
  if (end.code === CLOSE_SERVICE_RESTART && end.welcomed) {
    const window = Math.min(MAX_HINTED_WAIT_MS, Math.max(timings.backoffMinMs, hint.withinMs ?? 0));
    return { delayMs: window * random(), attempt: 1 };
  }
  const from = end.welcomed && end.upMs >= timings.heartbeatTimeoutMs ? 0 : attempt;
  return { delayMs: backoffDelay(from, timings, random), attempt: from + 1 };
}
