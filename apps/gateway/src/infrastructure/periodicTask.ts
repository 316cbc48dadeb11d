/**
 * Runs `task` now and then every `everyMs`, on a timer that never keeps the process alive; `stop()`
 * ends the timer and waits for a run in progress. The task handles (logs) its own failures: a
 * sweep that fails once is tried again at the next tick.
 */
export function startPeriodicTask(task: () => Promise<void>, everyMs: number): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = task();
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
