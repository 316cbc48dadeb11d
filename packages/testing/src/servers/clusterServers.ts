import { findPostgresBinaries } from './postgres.ts';
import { skipWithout } from './serverProcess.ts';

/**
 * Why a test of several gateway instances (on PostgreSQL, Redis and NATS) cannot run here: the first
 * of the three servers not installed, announced as loudly as skipWithout does; false when all are.
 */
export function skipWithoutClusterServers(what: string): string | false {
  const postgres = findPostgresBinaries();
  if ('missing' in postgres) console.warn(`\n*** SKIPPED: ${what}: ${postgres.missing}. ***\n`);
  return ('missing' in postgres ? postgres.missing : false) || skipWithout('redis-server', what) || skipWithout('nats-server', what);
}
