import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import {
  CLOSE_TOKEN_REJECTED,
  CLOSE_TOO_MANY_AGENTS,
  decodeFrame,
  encodeFrame,
  MAX_FRAME_BYTES,
  MAX_HELLO_BYTES,
  PingFrameSchema,
  PROTOCOL_VERSION,
  sendInBatches,
} from '@gp-gateway/protocol';
import { bearerToken } from '../auth/bearer.ts';
import { RefusalThrottle } from '../auth/refusalThrottle.ts';
import { isAgentToken, sha256Hex } from '../auth/secrets.ts';
import type { Store } from '../store/store.ts';
import { acceptAgent } from './acceptAgent.ts';
import type { AgentRegistry } from './agentRouter.ts';
import type { AgentLink } from './agentLink.ts';
import { AgentTokenWatch, type WatchedSocket } from './agentTokenWatch.ts';

export const AGENT_PATH = '/agent';
/**
 * Bytes of frames still arriving that one connection's sockets may hold at once: two of the largest
 * frames (real pages are a tenth of one). Past it, the socket whose bytes crossed it is cut off.
 */
export const CONNECTION_BUFFER_BUDGET_BYTES = 2 * MAX_FRAME_BYTES;
const HELLO_TIMEOUT_MS = 10_000;
/** Agents one connection may have on one gateway at a time, unless configured (AGENT_MAX_PER_CONNECTION). */
export const DEFAULT_MAX_AGENTS_PER_CONNECTION = 4;
/** A socket told to go that does not finish the close handshake is cut off after this long. */
const CLOSE_GRACE_MS = 1_000;

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
  /** Agents accepted per connection at a time; one more is refused with CLOSE_TOO_MANY_AGENTS. */
  maxAgentsPerConnection?: number;
  /** How often open sockets' tokens are checked for rotation or revocation (agents/agentTokenWatch.ts). */
  tokenCheckMs?: number;
}

/**
 * Accepts agents on `/agent`. The agent token is checked before the upgrade, so a bad token gets a
 * plain HTTP 401 and never a socket. Silent agents are found with WebSocket pings: one not heard
 * from within the heartbeat timeout is dropped, however its TCP connection looks. Before its hello,
 * a socket may send application pings: `gp-agent diagnose` measures round trip and clock skew that
 * way without ever being counted as an agent.
 */
export function attachAgentSocketServer({
  server,
  store,
  agents,
  log,
  heartbeat = DEFAULT_AGENT_HEARTBEAT,
  maxAgentsPerConnection = DEFAULT_MAX_AGENTS_PER_CONNECTION,
  tokenCheckMs,
}: AgentSocketServerOptions): {
  close(): void;
} {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const lastHeard = new WeakMap<WebSocket, number>();
  const connectionOf = new WeakMap<WebSocket, string>();
  /** Sockets per connection: those still owing a hello, and those accepted as agents. */
  const waiting = new Map<string, number>();
  const accepted = new Map<string, number>();
  /** Bytes received per connection that are not yet a whole message (ws holds them until the frame ends). */
  const buffered = new Map<string, number>();
  const count = (counts: Map<string, number>, id: string, by: number) => {
    const n = (counts.get(id) ?? 0) + by;
    if (n > 0) counts.set(id, n);
    else counts.delete(id);
  };
  const refusals = new RefusalThrottle({ what: 'agent upgrades with unknown tokens', log });
  const tokens = new AgentTokenWatch({ store, log, ...(tokenCheckMs ? { checkMs: tokenCheckMs } : {}) });
  tokens.start();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://gateway');
      if (url.pathname !== AGENT_PATH) return refuse(socket, 404, 'Not Found');
      const token = bearerToken(req.headers.authorization) ?? '';
      const connection = isAgentToken(token) ? await store.findConnectionByAgentTokenHash(sha256Hex(token)) : null;
      if (!connection) {
        // Logged by the throttle: the first of each address at once, the rest summed up.
        const wait = refusals.refused(req.socket.remoteAddress, token ? 'unknown agent token' : 'no agent token');
        return wait > 0 ? refuse(socket, 429, 'Too Many Requests', { 'Retry-After': String(wait) }) : refuse(socket, 401, 'Unauthorized');
      }
      // Sockets owing a hello are bounded like agents: each holds memory and a timer for up to HELLO_TIMEOUT_MS.
      if ((waiting.get(connection.id) ?? 0) >= maxAgentsPerConnection) {
        log.warn({ connectionId: connection.id, remote: req.socket.remoteAddress }, 'agent refused: too many sockets waiting to say hello');
        return refuse(socket, 429, 'Too Many Requests');
      }
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws, socket, connection.id, connection.agentTokenHash!));
    })().catch((error: unknown) => {
      log.error({ err: error }, 'agent upgrade failed');
      refuse(socket, 500, 'Internal Server Error');
    });
  });

  function serve(ws: WebSocket, socket: Duplex, connectionId: string, tokenHash: string): void {
    let link: AgentLink | null = null;
    let state: 'waiting' | 'agent' | 'gone' = 'waiting';
    count(waiting, connectionId, 1);
    lastHeard.set(ws, Date.now());
    connectionOf.set(ws, connectionId);
    /** Leaves the counts once, whether the socket closes or is told to go. */
    const leave = () => {
      forget();
      if (state === 'waiting') count(waiting, connectionId, -1);
      if (state === 'agent') count(accepted, connectionId, -1);
      state = 'gone';
    };
    /** Refuses or drops the socket now: no request reaches its agent from here on, whatever the client does with the close. */
    const drop = (code: number, reason: string, now = false) => {
      clearTimeout(helloTimer);
      tokens.delete(watched);
      leave();
      if (link) {
        agents.remove(connectionId, link);
        link.closed();
      }
      if (now) return ws.terminate();
      ws.close(code, reason);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    };
    // Counted before ws reads them (prependListener), and forgotten when ws hands over a message.
    let partial = 0;
    socket.prependListener('data', (chunk: Buffer) => {
      if (state === 'gone') return;
      partial += chunk.length;
      count(buffered, connectionId, chunk.length);
      const total = buffered.get(connectionId) ?? 0;
      if (state === 'waiting' && partial > MAX_HELLO_BYTES) {
        log.warn({ connectionId, bytes: partial, max: MAX_HELLO_BYTES }, 'agent socket cut off: a hello is never this large');
        drop(1009, 'a hello is never this large', true);
      } else if (total > CONNECTION_BUFFER_BUDGET_BYTES) {
        log.warn(
          { connectionId, bytes: partial, connectionBytes: total, budget: CONNECTION_BUFFER_BUDGET_BYTES },
          "agent socket cut off: the connection's sockets hold more unfinished frames than the gateway buffers",
        );
        drop(1009, 'too many bytes in unfinished frames on this connection', true);
      }
    });
    const forget = () => {
      count(buffered, connectionId, -partial);
      partial = 0;
    };
    const watched: WatchedSocket = {
      connectionId,
      tokenHash,
      revoke: () => drop(CLOSE_TOKEN_REJECTED, 'the agent token was rotated or revoked; configure the new token'),
    };
    tokens.add(watched);
    const helloTimer = setTimeout(() => drop(4408, 'no hello received'), HELLO_TIMEOUT_MS);
    const heard = () => lastHeard.set(ws, Date.now());
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('message', (message) => {
      forget();
      heard();
      // Kept as bytes: a response's payload goes into the HTTP response without a round trip through a string.
      const data = Buffer.isBuffer(message) ? message : Buffer.concat(Array.isArray(message) ? message : [Buffer.from(message)]);
      if (link) return link.receive(data);
      if (state !== 'waiting') return;
      const ping = decodeFrame(PingFrameSchema, data);
      if (ping.ok) {
        ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: ping.frame.at, now: Date.now() }));
        return;
      }
      clearTimeout(helloTimer);
      const already = accepted.get(connectionId) ?? 0;
      if (already >= maxAgentsPerConnection) {
        log.warn(
          { connectionId, agents: already, max: maxAgentsPerConnection },
          'agent refused: the connection has as many agents as it may',
        );
        return drop(
          CLOSE_TOO_MANY_AGENTS,
          `this connection already has ${already} agents connected, the most the gateway accepts; stop one first`,
        );
      }
      // Requests to one agent leave in one write per turn of the event loop.
      const send = sendInBatches(socket, (frame: string) => ws.send(frame));
      link = acceptAgent({ send, close: (code, reason) => ws.close(code, reason) }, data, connectionId, log);
      if (!link) return;
      count(waiting, connectionId, -1);
      count(accepted, connectionId, 1);
      state = 'agent';
      agents.add(connectionId, link);
    });
    ws.on('close', (code, reason) => {
      clearTimeout(helloTimer);
      tokens.delete(watched);
      leave();
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
      tokens.stop();
      refusals.stop();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function refuse(socket: Duplex, status: number, text: string, headers: Record<string, string> = {}): void {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${text}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
}
