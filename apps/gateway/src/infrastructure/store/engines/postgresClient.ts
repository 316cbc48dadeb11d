import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Values as the store reads them: times (timestamptz) as ISO strings like `2026-01-01T00:00:00.000Z`,
 * as SQLite holds them; bigints as numbers (row counts and log ids stay far below 2^53); jsonb parsed
 * (pg's default).
 */
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const parseTimestampTz = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === TIMESTAMPTZ) return (text: string) => parseTimestampTz(text).toISOString();
    if (oid === INT8) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  connectionString: string;
  log?: Logger;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

/** Settings of every connection the store opens, the key listener's included. */
export function clientConfig(options: PostgresOptions): pg.ClientConfig {
  return {
    connectionString: options.connectionString,
    types,
    application_name: 'gp-gateway',
    connectionTimeoutMillis: 5_000,
    // A store that cannot be reached fails a request in seconds rather than holding it.
    statement_timeout: 10_000,
    query_timeout: 15_000,
  };
}
