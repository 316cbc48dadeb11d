import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { attachAgentSocketServer } from './agents/agentSocketServer.ts';
import { LocalAgentRouter } from './agents/agentRouter.ts';
import { createApp } from './http/app.ts';
import { CursorCodec } from './http/cursor.ts';
import { startBuiltinAgent, type BuiltinAgent } from './sandbox/builtinAgent.ts';
import type { Store } from './store/store.ts';

export interface GatewayOptions {
  store: Store;
  log: Logger;
  cursorSecret: Buffer;
  port: number;
  host?: string;
  requestTimeoutMs: number;
  /** Folder of the demo databases; when given, the built-in sandbox agent serves them. */
  sandboxDir?: string;
}

export interface RunningGateway {
  url: string;
  port: number;
  router: LocalAgentRouter;
  close(): Promise<void>;
}

/** The composition root: store, agent router, HTTP app, agent socket and sandbox agent, wired together. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const router = new LocalAgentRouter();
  const cursors = new CursorCodec(options.cursorSecret);
  const app = createApp({ store: options.store, agents: router, cursors, log: options.log, requestTimeoutMs: options.requestTimeoutMs });
  const server = http.createServer(app);
  const sockets = attachAgentSocketServer({ server, store: options.store, router, log: options.log });
  let sandbox: BuiltinAgent | null = null;
  if (options.sandboxDir) sandbox = await startBuiltinAgent(options.sandboxDir, router, options.log.child({ component: 'sandbox' }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}`,
    port,
    router,
    async close() {
      sockets.close();
      await sandbox?.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
