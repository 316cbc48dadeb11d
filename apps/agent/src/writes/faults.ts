/**
 * Fault injection for the exactly-once tests, **for tests only**: read from the environment
 * variable GP_AGENT_FAULT (never from the configuration file, never from a request), and warned
 * about at start. `exit-after-commit` ends the process right after a write's COMMIT, before its
 * answer is sent: the write is in GP and in the journal, and the gateway never hears of it, as when
 * the agent's server loses power at the worst moment.
 */
export const FAULT_ENV = 'GP_AGENT_FAULT';

const FAULTS = ['exit-after-commit'] as const;
export type Fault = (typeof FAULTS)[number];

/** The fault the environment asks for; a value that names none is an error, so a typo cannot pass silently. */
export function faultFromEnv(env: NodeJS.ProcessEnv): Fault | null {
  const value = env[FAULT_ENV];
  if (value === undefined || value === '') return null;
  if ((FAULTS as readonly string[]).includes(value)) return value as Fault;
  throw new Error(`${FAULT_ENV} (from environment): must be one of ${FAULTS.join(', ')} (it is for tests only: unset it); got "${value}"`);
}

/** Exit code of a process stopped by `exit-after-commit`, so that a test tells it from a crash. */
export const FAULT_EXIT_CODE = 86;
