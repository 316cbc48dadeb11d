/**
 * The per-connection cap on requests in flight (docs/api.md#in-flight-cap) behind a small interface: in this
 * process now (InFlightGate), shared (Redis) once several gateway instances serve one connection.
 */
export interface InFlightLimiter {
  /**
   * Resolves with a release function once the caller holds one of `limit` slots for `key`; call it
   * exactly once, when done. Rejects with 429 RATE_LIMITED when no slot frees up in time.
   */
  acquire(key: string, limit: number): Promise<() => void>;
}
