import fs from 'node:fs';
import path from 'node:path';
import { startServerProcess, type ServerProcess } from './serverProcess.ts';

export interface NatsServer extends ServerProcess {
  url: string;
}

/**
 * A throwaway nats-server on a free loopback port; `port` restarts one where an earlier one was;
 * `config` is the text of a configuration file (e.g. `max_payload: 4096`).
 */
export async function startNats(port?: number, config?: string): Promise<NatsServer> {
  const server = await startServerProcess(
    'nats-server',
    (p, dir) => {
      const args = ['-a', '127.0.0.1', '-p', String(p)];
      if (config === undefined) return args;
      fs.writeFileSync(path.join(dir, 'nats.conf'), config);
      return [...args, '-c', path.join(dir, 'nats.conf')];
    },
    port,
  );
  return { ...server, url: `nats://127.0.0.1:${server.port}` };
}
