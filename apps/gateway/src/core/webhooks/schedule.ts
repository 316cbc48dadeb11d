/**
 * When a failed delivery is tried again (Svix's schedule, about 28 hours in all): after the first
 * attempt (made at once) fails, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; then it has failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Every delay is moved by up to this share either way, so that deliveries failed together do not all come back together. */
const JITTER = 0.1;

/** A `Retry-After` is respected up to this long; past it the schedule's own delay applies. */
const RETRY_AFTER_MAX_MS = 36_000_000;

/**
 * The delay before the next attempt after `attempts` failed ones, or null when none is left. A 429
 * or 503's `Retry-After` (seconds or an HTTP date) is waited for when longer than the schedule's.
 */
export function nextRetryDelay(attempts: number, retryAfterMs: number | null, random: () => number = Math.random): number | null {
  const scheduled = RETRY_DELAYS_MS[attempts - 1];
  if (scheduled === undefined) return null;
  const jittered = scheduled * (1 - JITTER + 2 * JITTER * random());
  return retryAfterMs !== null && retryAfterMs <= RETRY_AFTER_MAX_MS ? Math.max(jittered, retryAfterMs) : jittered;
}

/** A Retry-After header in milliseconds from `now`; null when absent or not understood. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
