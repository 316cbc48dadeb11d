/** Throttled progress reporting: one event at the start, every REPORT_EVERY rows, and at the end. */

export interface GenerateProgress {
  phase: string;
  done: number;
  total: number;
}
export type ProgressListener = (progress: GenerateProgress) => void;

export interface PhaseProgress {
  tick(count?: number): void;
  /** Reports the final count as both done and total (estimates become exact). */
  finish(): void;
}

const REPORT_EVERY = 10_000;

export function startPhase(listener: ProgressListener | undefined, phase: string, total: number): PhaseProgress {
  let done = 0;
  let nextReport = REPORT_EVERY;
  listener?.({ phase, done, total });
  return {
    tick(count = 1) {
      done += count;
      if (done >= nextReport) {
        nextReport = done + REPORT_EVERY;
        listener?.({ phase, done, total: Math.max(total, done) });
      }
    },
    finish() {
      listener?.({ phase, done, total: done });
    },
  };
}
