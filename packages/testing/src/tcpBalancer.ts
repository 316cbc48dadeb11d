import net from 'node:net';

/**
 * A load balancer for tests of several gateway instances: each TCP connection goes to the next of
 * `backends` in turn, skipping one that refuses; the list can change while it runs (an instance
 * taken out, a new one added). What a real deployment puts in front of its instances, in little.
 */
export interface TcpBalancer {
  url: string;
  port: number;
  backends: number[];
  close(): Promise<void>;
}

export async function startTcpBalancer(backends: number[]): Promise<TcpBalancer> {
  const sockets = new Set<net.Socket>();
  let turn = 0;
  const balancer: TcpBalancer = { url: '', port: 0, backends, close: async () => {} };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.pause();
    const tryBackend = (left: number) => {
      const ports = balancer.backends;
      if (!ports.length || left === 0) return void client.destroy();
      const port = ports[turn++ % ports.length]!;
      const upstream = net.connect(port, '127.0.0.1');
      let connected = false;
      upstream.once('error', () => {
        if (!connected) return tryBackend(left - 1);
        client.destroy();
      });
      upstream.once('connect', () => {
        connected = true;
        sockets.add(upstream);
        upstream.once('close', () => sockets.delete(upstream));
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        client.resume();
      });
    };
    tryBackend(balancer.backends.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  balancer.port = (server.address() as net.AddressInfo).port;
  balancer.url = `http://127.0.0.1:${balancer.port}`;
  balancer.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return balancer;
}
