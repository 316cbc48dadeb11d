import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import type { Store } from '../store/store.ts';
import { within } from './within.ts';

/** What `/ready` reports: each dependency `ok` or why not. */
export interface ReadyReport {
  ready: boolean;
  checks: Record<string, string>;
}

/** Longest any one check may take: a load balancer's probe must get an answer, not a hang. */
const CHECK_TIMEOUT_MS = 1_000;

export interface ReadinessOptions {
  store: Store;
  redis: Redis | null;
  nats: NatsConnection | null;
  /** True once the instance is stopping: it must get no new traffic. */
  draining: () => boolean;
}

/**
 * Whether this instance should be sent traffic (`/ready`, for the load balancer): the store, Redis
 * and NATS (those configured) answer, and it is not shutting down. Checks run in parallel, each
 * bounded by CHECK_TIMEOUT_MS. Redis down makes the instance not ready although requests would
 * still be served (limits counted in process): the balancer should prefer instances that share them.
 */
export function readinessProbe(options: ReadinessOptions): () => Promise<ReadyReport> {
  return async () => {
    const { store } = options;
    // The PostgreSQL store learns from its check: a probe without an answer makes it refuse requests at once.
    const checks: Array<[string, Promise<unknown>]> = [['store', store.checkReachable(CHECK_TIMEOUT_MS)]];
    if (options.redis) checks.push(['redis', options.redis.ping()]);
    if (options.nats) {
      const nats = options.nats;
      checks.push(['nats', nats.isClosed() ? Promise.reject(new Error('closed')) : nats.flush()]);
    }
    const results = await Promise.all(checks.map(async ([name, check]) => [name, await outcome(check)] as const));
    const report: ReadyReport = { ready: true, checks: Object.fromEntries(results) };
    if (options.draining()) report.checks.shutdown = 'draining';
    report.ready = Object.values(report.checks).every((v) => v === 'ok');
    return report;
  };
}

async function outcome(check: Promise<unknown>): Promise<string> {
  try {
    await within(check, CHECK_TIMEOUT_MS);
    return 'ok';
  } catch (error) {
    return `unreachable: ${(error as Error).message}`;
  }
}
