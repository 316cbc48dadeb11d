/** What a check of `gp-agent diagnose` (or of the agent at start) found, in plain language. */
export type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface Finding {
  check: string;
  status: Status;
  /** What was found, one line. */
  summary: string;
  /** What to do about it; always given for warn and fail. */
  fix?: string;
  /** More lines, e.g. every table that cannot be read. */
  details?: string[];
}
