import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Asks `probe` until it answers something other than null, undefined or false, and returns that
 * answer; fails naming `what` once `timeoutMs` has passed. For conditions that send no event a test
 * could await (a row in another process's store, a counter of a server): the test waits for the
 * condition itself, never for a guess of how long it takes.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  { timeoutMs = 5_000, everyMs = 10 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== null && answer !== undefined && answer !== false) return answer;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
