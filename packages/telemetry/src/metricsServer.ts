import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own (the gateway's METRICS_PORT, the agent's --metrics), for
 * Prometheus on the same host or private network; nothing else is served there. `render` is the
 * registry's text; the server never keeps the process alive.
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  render(): Promise<string>;
  contentType: string;
}): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    options.render().then(
      (text) => res.writeHead(200, { 'Content-Type': options.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host }, () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
