/**
 * Time as the webhook worker sees it. The real clock is the default; tests run the retry schedule
 * (about 28 hours) and the 5 days after which an endpoint is disabled in seconds with a scaled
 * clock, the schedule itself unchanged.
 */
export interface Clock {
  now(): Date;
  /** Calls `fire` after `ms` of this clock's time; the function cancels it. */
  after(ms: number, fire: () => void): () => void;
}

export const realClock: Clock = {
  now: () => new Date(),
  after(ms, fire) {
    const timer = setTimeout(fire, Math.max(0, Math.ceil(ms) + 1));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface ScaledClock extends Clock {
  /** Moves the clock `ms` ahead at once (timers already set still fire on their own time). */
  advance(ms: number): void;
}

/** A clock that runs `factor` times faster than real time, from `start`. */
export function scaledClock(factor: number, start = new Date()): ScaledClock {
  const realStart = performance.now();
  let skipped = 0;
  return {
    advance: (ms) => {
      skipped += ms;
    },
    now: () => new Date(start.getTime() + skipped + (performance.now() - realStart) * factor),
    after(ms, fire) {
      // Rounded up, and a millisecond more: a timer firing a fraction early would find nothing due
      // yet, and the worker would sleep until its next poll.
      const timer = setTimeout(fire, Math.max(0, Math.ceil(ms / factor) + 1));
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}
