import type { Logger } from 'pino';
import { startPeriodicTask } from '../../infrastructure/periodicTask.ts';
import type { Store } from '../../infrastructure/store/store.ts';

/** How often expired Idempotency-Keys are deleted; until then they are ignored by claims anyway. */
const IDEMPOTENCY_SWEEP_MS = 60 * 60 * 1000;

/**
 * Deletes expired idempotency records every `everyMs` (and once at start), so the table holds about
 * a day of writes. Several gateway instances may all sweep: the delete is idempotent.
 */
export function startIdempotencySweep(store: Store, log: Logger, everyMs = IDEMPOTENCY_SWEEP_MS): { stop(): Promise<void> } {
  return startPeriodicTask(
    () =>
      store
        .deleteExpiredIdempotencyKeys(new Date())
        .then((deleted) => {
          if (deleted) log.info({ deleted }, 'expired idempotency keys deleted');
        })
        .catch((error: unknown) => log.error({ err: error }, 'idempotency key sweep failed')),
    everyMs,
  );
}
