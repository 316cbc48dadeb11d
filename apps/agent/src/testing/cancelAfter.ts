/** Runs `run` with a signal that aborts after `ms`: what it threw (or null) and how long it took. */
export async function cancelAfter(ms: number, run: (signal: AbortSignal) => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), ms);
  const error = await run(controller.signal).then(
    () => null,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}
