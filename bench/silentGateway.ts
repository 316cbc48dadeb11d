import { randomBytes } from 'node:crypto';
import { createLogger, startGateway } from '@gp-gateway/gateway';

/** A gateway for a bench run in this process: on `store`, silent, on a free loopback port, with a fresh cursor secret. */
export function startSilentGateway(
  store: Parameters<typeof startGateway>[0]['store'],
  requestTimeoutMs: number,
): ReturnType<typeof startGateway> {
  return startGateway({ store, log: createLogger('silent'), cursorSecret: randomBytes(32), port: 0, host: '127.0.0.1', requestTimeoutMs });
}
