/**
 * At most `perSecond` new agent sockets per second on this instance (counted per clock second): when
 * an instance stops and its agents all reconnect to the others, a storm of hellos, presence writes
 * and token checks is spread over time instead of landing at once. Excess sockets are closed with
 * 1013 (try again later) and the agent retries after its backoff.
 */
export class HandshakeCap {
  private readonly perSecond: number;
  private readonly clock: () => number;
  private second = -1;
  private count = 0;
  /** Refused since the last call of `takeRefusals`, for a log line per second rather than per socket. */
  private refused = 0;

  constructor(perSecond: number, clock: () => number = Date.now) {
    this.perSecond = perSecond;
    this.clock = clock;
  }

  /** Whether one more handshake may proceed now. */
  admit(): boolean {
    const second = Math.floor(this.clock() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.count = 0;
    }
    if (this.count < this.perSecond) {
      this.count += 1;
      return true;
    }
    this.refused += 1;
    return false;
  }

  takeRefusals(): number {
    const refused = this.refused;
    this.refused = 0;
    return refused;
  }
}
