import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { redactUrl } from './redactUrl.ts';
import { within } from './within.ts';

/** Longest a Redis command may take before the caller falls back to this process's own counting. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis client that fails fast instead of queueing: while disconnected every command is refused
 * at once (the limiters then count in process), a frozen server times a command out after
 * COMMAND_TIMEOUT_MS, and the client reconnects in the background every second at most. Waits up
 * to `readyWithinMs` for the first connection; a Redis that is down at start is not fatal.
 */
export async function connectRedis(url: string, log: Logger, readyWithinMs = 5_000): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
    lazyConnect: true,
  });
  // ioredis emits every failed reconnect as an error; the limiters log the outage once instead.
  redis.on('error', () => {});
  try {
    await within(redis.connect(), readyWithinMs);
  } catch (error) {
    log.warn({ err: (error as Error).message, redis: redactUrl(url) }, 'Redis unreachable at start; carrying on and retrying');
  }
  return redis;
}
