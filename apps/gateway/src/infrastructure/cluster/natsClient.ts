import { connect, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { redactUrl } from './redactUrl.ts';

/**
 * Connects to NATS (`url`: one server, or several of one NATS cluster comma-separated) for routing requests between instances; the first connection must succeed
 * within `timeoutMs` (an instance that cannot reach the others should not take traffic), later
 * losses are reconnected in the background forever, and logged.
 */
export async function connectNats(url: string, name: string, log: Logger, timeoutMs = 10_000): Promise<NatsConnection> {
  let nats: NatsConnection;
  try {
    nats = await connect({
      servers: url,
      name,
      timeout: timeoutMs,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      pingInterval: 10_000,
    });
  } catch (error) {
    throw new Error(`NATS_URL: could not connect to ${redactUrl(url)}: ${(error as Error).message}`);
  }
  void (async () => {
    for await (const status of nats.status()) {
      if (status.type === 'disconnect') log.warn({ server: status.data }, 'NATS connection lost; reconnecting');
      else if (status.type === 'reconnect') log.info({ server: status.data }, 'NATS connection back');
    }
  })();
  return nats;
}
