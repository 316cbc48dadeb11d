import type { Logger } from 'pino';
import { startPeriodicTask } from '../../infrastructure/periodicTask.ts';
import type { Store } from '../../infrastructure/store/store.ts';

/** How often events past their retention are deleted; a day's events more or less cost nothing. */
const EVENTS_PURGE_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes events recorded more than `retentionDays` ago, every `everyMs` and once at start.
 * Several instances may all purge: the delete is idempotent.
 */
export function startEventRetention(
  store: Store,
  log: Logger,
  retentionDays: number,
  everyMs = EVENTS_PURGE_MS,
): { stop(): Promise<void> } {
  return startPeriodicTask(
    () =>
      store
        .deleteEventsRecordedBefore(new Date(Date.now() - retentionDays * DAY_MS))
        .then((deleted) => {
          if (deleted) log.info({ deleted, retentionDays }, 'events past their retention deleted');
        })
        .catch((error: unknown) => log.error({ err: error }, 'event purge failed')),
    everyMs,
  );
}
