import { randomBytes } from 'node:crypto';
import { createLogger, openStore, startGateway } from '@gp-gateway/gateway';

/**
 * The gateway for the benchmark: the real composition root, but without the built-in sandbox
 * agent (a worker thread in the same process would be counted in the gateway's memory).
 */
const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: gatewayServer.ts <data dir>');
const store = await openStore({ dataDir });
const gateway = await startGateway({
  store,
  log: createLogger('warn'),
  cursorSecret: randomBytes(32),
  port: 0,
  host: '127.0.0.1',
  requestTimeoutMs: 60_000,
});
console.log(`listening ${gateway.port}`);
// Exit cleanly on a signal, so that `node --cpu-prof` writes its profile when profiling the gateway.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void gateway.close().then(() => process.exit(0)));
