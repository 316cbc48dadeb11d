import pino, { type Logger } from 'pino';
import { traceIdOfActiveSpan } from '@gp-gateway/telemetry';

/**
 * Structured logs. Handlers log identifiers, never headers or bodies; the redaction below is a second
 * line of defence should a request object or a secret-bearing field reach a log call anyway. No
 * `component` in the base bindings: each part's child logger names its own, and a base one made
 * those lines carry the key twice. With `traceIds` (tracing on), a line written inside a traced
 * request carries its `traceId`.
 */
export function createLogger(level: string, options: { traceIds?: boolean } = {}): Logger {
  return pino({
    level,
    ...(options.traceIds ? { mixin: traceIdOfActiveSpan } : {}),
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'secret', 'token', '*.secret', '*.token'],
      censor: '[redacted]',
    },
  });
}
