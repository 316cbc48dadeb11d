import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import { decodeFrame, encodeFrame, PingFrameSchema, PROTOCOL_VERSION, sendInBatches } from '@gp-gateway/protocol';
import { isAgentToken, sha256Hex } from '../auth/secrets.ts';
import type { Store } from '../store/store.ts';
import { acceptAgent } from './acceptAgent.ts';
import type { AgentRegistry } from './agentRouter.ts';
import type { AgentLink } from './agentLink.ts';

export const AGENT_PATH = '/agent';
/** Frames carry at most one page of 1,000 rows; anything far larger is not from a sane agent. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const HELLO_TIMEOUT_MS = 10_000;

/** How the gateway finds agents that went silent (a frozen process, a cable pulled, a NAT that forgot). */
export interface AgentHeartbeat {
  /** Each agent socket is pinged this often (which also keeps idle NAT and firewall state alive) ... */
  intervalMs: number;
  /** ... and dropped after this long without a word from it; its requests fail with 503 at once. */
  timeoutMs: number;
}

export const DEFAULT_AGENT_HEARTBEAT: AgentHeartbeat = { intervalMs: 10_000, timeoutMs: 30_000 };

export interface AgentSocketServerOptions {
  server: Server;
  store: Store;
  /** Where accepted agents are registered (and removed when they leave). */
  agents: AgentRegistry;
  log: Logger;
  heartbeat?: AgentHeartbeat;
}

/**
 * Accepts agents on `/agent`. The agent token is checked before the upgrade, so a bad token gets a
 * plain HTTP 401 and never a socket. Silent agents are found with WebSocket pings: one not heard
 * from within the heartbeat timeout is dropped, however its TCP connection looks. Before its hello,
 * a socket may send application pings: `gp-agent diagnose` measures round trip and clock skew that
 * way without ever being counted as an agent.
 */
export function attachAgentSocketServer({ server, store, agents, log, heartbeat = DEFAULT_AGENT_HEARTBEAT }: AgentSocketServerOptions): {
  close(): void;
} {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const lastHeard = new WeakMap<WebSocket, number>();
  const connectionOf = new WeakMap<WebSocket, string>();

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
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws, socket, connection.id));
    })().catch((error: unknown) => {
      log.error({ err: error }, 'agent upgrade failed');
      refuse(socket, 500, 'Internal Server Error');
    });
  });

  function serve(ws: WebSocket, socket: Duplex, connectionId: string): void {
    let link: AgentLink | null = null;
    lastHeard.set(ws, Date.now());
    connectionOf.set(ws, connectionId);
    const helloTimer = setTimeout(() => ws.close(4408, 'no hello received'), HELLO_TIMEOUT_MS);
    const heard = () => lastHeard.set(ws, Date.now());
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('message', (message) => {
      heard();
      // Kept as bytes: a response's payload goes into the HTTP response without a round trip through a string.
      const data = Buffer.isBuffer(message) ? message : Buffer.concat(Array.isArray(message) ? message : [Buffer.from(message)]);
      if (link) return link.receive(data);
      const ping = decodeFrame(PingFrameSchema, data);
      if (ping.ok) {
        ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: ping.frame.at, now: Date.now() }));
        return;
      }
      clearTimeout(helloTimer);
      // Requests to one agent leave in one write per turn of the event loop.
      const send = sendInBatches(socket, (frame: string) => ws.send(frame));
      link = acceptAgent({ send, close: (code, reason) => ws.close(code, reason) }, data, connectionId, log);
      if (link) agents.add(connectionId, link);
    });
    ws.on('close', (code, reason) => {
      clearTimeout(helloTimer);
      if (!link) return;
      agents.remove(connectionId, link);
      link.closed();
      log.info({ connectionId, host: link.agent.host, code, reason: reason.toString() }, 'agent disconnected');
    });
    ws.on('error', (error) => log.warn({ connectionId, err: error.message }, 'agent socket error'));
  }

  let lastTick = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    // A tick far behind schedule means this process was paused (suspended VM, debugger, SIGSTOP):
    // the silence was ours, so every agent gets a full timeout from now rather than being dropped.
    const paused = now - lastTick > heartbeat.timeoutMs;
    lastTick = now;
    for (const ws of wss.clients) {
      if (paused) lastHeard.set(ws, now);
      const silentMs = now - (lastHeard.get(ws) ?? now);
      if (silentMs > heartbeat.timeoutMs) {
        log.warn({ connectionId: connectionOf.get(ws), silentMs, timeoutMs: heartbeat.timeoutMs }, 'agent stopped answering; dropping it');
        ws.terminate();
        continue;
      }
      ws.ping();
    }
  }, heartbeat.intervalMs);
  timer.unref();

  return {
    close() {
      clearInterval(timer);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
