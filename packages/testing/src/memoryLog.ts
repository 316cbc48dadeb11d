import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A pino logger whose lines a test can read back, parsed. */
export function memoryLog(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'debug' }, sink), lines };
}
