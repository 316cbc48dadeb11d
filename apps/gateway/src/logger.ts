import pino, { type Logger } from 'pino';

/**
 * Structured logs. Handlers log identifiers, never headers or bodies; the redaction below is a second
 * line of defence should a request object or a secret-bearing field reach a log call anyway.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { component: 'gateway' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'secret', 'token', '*.secret', '*.token'],
      censor: '[redacted]',
    },
  });
}
