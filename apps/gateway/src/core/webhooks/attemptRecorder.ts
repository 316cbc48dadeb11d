import type { RecordedWebhookAttempt, Store, WebhookEndpoint } from '../../infrastructure/store/store.ts';

/** At most this many attempts in one transaction. */
const MAX_BATCH = 200;

interface Waiting {
  record: RecordedWebhookAttempt;
  resolve: (endpoint: WebhookEndpoint | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Records a worker's attempts in the store, those that end together in one transaction (a group
 * commit): an attempt ending while a batch is being written waits for the next, so under load a
 * commit carries many attempts, and alone it carries one without waiting for a timer.
 */
export class AttemptRecorder {
  private readonly store: Store;
  private queue: Waiting[] = [];
  private writing = false;
  private scheduled = false;

  constructor(store: Store) {
    this.store = store;
  }

  /** Records the attempt with what follows; its endpoint as it now stands (null if deleted meanwhile). */
  record(record: RecordedWebhookAttempt): Promise<WebhookEndpoint | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      this.schedule();
    });
  }

  /** After the I/O callbacks of this turn of the event loop, so that responses read together are written together. */
  private schedule(): void {
    if (this.writing || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  private async write(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    this.writing = true;
    try {
      const endpoints = await this.store.recordWebhookAttempts(batch.map((w) => w.record));
      for (const w of batch) w.resolve(endpoints.get(w.record.delivery.endpointId) ?? null);
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.writing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}
