import { startServerProcess, type ServerProcess } from './serverProcess.ts';

export interface NatsServer extends ServerProcess {
  url: string;
}

/** A throwaway nats-server on a free loopback port; `port` restarts one where an earlier one was. */
export async function startNats(port?: number): Promise<NatsServer> {
  const server = await startServerProcess('nats-server', (p) => ['-a', '127.0.0.1', '-p', String(p)], port);
  return { ...server, url: `nats://127.0.0.1:${server.port}` };
}
