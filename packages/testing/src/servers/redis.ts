import { startServerProcess, type ServerProcess } from './serverProcess.ts';

export interface RedisServer extends ServerProcess {
  url: string;
}

/**
 * A throwaway redis-server on a free loopback port: no persistence, no config file. `port` restarts
 * one on the port an earlier one had (clients then reconnect to the same URL).
 */
export async function startRedis(port?: number): Promise<RedisServer> {
  const server = await startServerProcess(
    'redis-server',
    (p, dir) => ['--port', String(p), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
    port,
  );
  return { ...server, url: `redis://127.0.0.1:${server.port}` };
}
