import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import { isAgentToken, sha256Hex } from '../auth/secrets.ts';
import type { Store } from '../store/store.ts';
import { acceptAgent } from './acceptAgent.ts';
import type { LocalAgentRouter } from './agentRouter.ts';
import type { AgentLink } from './agentLink.ts';

export const AGENT_PATH = '/agent';
/** Frames carry at most one page of 1,000 rows; anything far larger is not from a sane agent. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const HELLO_TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 15_000;

export interface AgentSocketServerOptions {
  server: Server;
  store: Store;
  router: LocalAgentRouter;
  log: Logger;
}

/**
 * Accepts agents on `/agent`. The agent token is checked before the upgrade, so a bad token gets a
 * plain HTTP 401 and never a socket. Dead sockets are found with WebSocket pings.
 */
export function attachAgentSocketServer({ server, store, router, log }: AgentSocketServerOptions): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const alive = new WeakMap<WebSocket, boolean>();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://gateway');
      if (url.pathname !== AGENT_PATH) return refuse(socket, 404, 'Not Found');
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const connection = isAgentToken(token) ? await store.findConnectionByAgentTokenHash(sha256Hex(token)) : null;
      if (!connection) {
        log.warn({ remote: req.socket.remoteAddress }, 'agent refused: unknown agent token');
        return refuse(socket, 401, 'Unauthorized');
      }
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws, connection.id));
    })().catch((error: unknown) => {
      log.error({ err: error }, 'agent upgrade failed');
      refuse(socket, 500, 'Internal Server Error');
    });
  });

  function serve(ws: WebSocket, connectionId: string): void {
    let link: AgentLink | null = null;
    alive.set(ws, true);
    const helloTimer = setTimeout(() => ws.close(4408, 'no hello received'), HELLO_TIMEOUT_MS);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('message', (data) => {
      alive.set(ws, true);
      const text = data.toString();
      if (link) return link.receive(text);
      clearTimeout(helloTimer);
      link = acceptAgent({ send: (t) => ws.send(t), close: (code, reason) => ws.close(code, reason) }, text, connectionId, log);
      if (link) router.add(connectionId, link);
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      if (!link) return;
      router.remove(connectionId, link);
      link.closed();
      log.info({ connectionId }, 'agent disconnected');
    });
    ws.on('error', (error) => log.warn({ connectionId, err: error.message }, 'agent socket error'));
  }

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    close() {
      clearInterval(heartbeat);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
