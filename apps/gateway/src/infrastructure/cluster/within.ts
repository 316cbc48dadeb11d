/** A server gave no answer in time (`within`). */
export class NoAnswerError extends Error {}

/**
 * `work`'s answer, or NoAnswerError once `ms` have passed without it: "<who> gave no answer within
 * N ms", or "no answer within N ms". The work itself is not stopped (its own client's timeouts bound
 * it); the timer is cleared as soon as either settles.
 */
export async function within<T>(work: Promise<T>, ms: number, who?: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new NoAnswerError(`${who ? `${who} gave no answer` : 'no answer'} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
