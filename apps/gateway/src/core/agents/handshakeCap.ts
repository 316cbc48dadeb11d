/**
 * Of each second's handshakes, the share handed out as booked turns (1013 "retry after"): the rest is
 * left for agents arriving unannounced (new ones, and the jitter of those booked).
 */
const BOOKED_SHARE = 0.8;

/** Whether a handshake may proceed; if not, when the agent should come back (a turn booked for it). */
export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

/**
 * At most `perSecond` new agent sockets per second on this instance (counted per clock second): when
 * an instance stops and its agents all reconnect to the others, a storm of hellos, presence writes
 * and token checks is spread over time instead of landing at once. Excess sockets are closed with
 * 1013 (try again later) and a turn: the refused are booked at BOOKED_SHARE of the cap from the next
 * second on, one after another, so that they come back at the rate the cap admits instead of
 * guessing with a growing backoff (docs/decisions.md#reconnecting-after-a-deploy).
 */
export class HandshakeCap {
  private readonly perSecond: number;
  private readonly clock: () => number;
  private second = -1;
  private count = 0;
  /** The time the next refused agent is told to come back at. */
  private nextTurn = 0;
  /** Refused since the last call of `takeRefusals`, for a log line per second rather than per socket. */
  private refused = 0;

  constructor(perSecond: number, clock: () => number = Date.now) {
    this.perSecond = perSecond;
    this.clock = clock;
  }

  /** Whether one more handshake may proceed now. */
  admit(): Admission {
    const now = this.clock();
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.count = 0;
    }
    if (this.count < this.perSecond) {
      this.count += 1;
      return { admitted: true };
    }
    this.refused += 1;
    this.nextTurn = Math.max(this.nextTurn, (second + 1) * 1000);
    const turn = this.nextTurn;
    this.nextTurn += 1000 / (this.perSecond * BOOKED_SHARE);
    return { admitted: false, retryAfterMs: turn - now };
  }

  /**
   * The window over which `agents` leaving this instance (it is stopping) should spread their
   * reconnects so that, should they all land on one instance with the same cap, they arrive at the
   * rate it admits.
   */
  spreadMs(agents: number): number {
    return Math.ceil((agents / (this.perSecond * BOOKED_SHARE)) * 1000);
  }

  takeRefusals(): number {
    const refused = this.refused;
    this.refused = 0;
    return refused;
  }
}
