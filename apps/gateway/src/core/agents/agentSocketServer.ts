import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import {
  CLOSE_SERVICE_RESTART,
  CLOSE_TOKEN_REJECTED,
  CLOSE_TOO_MANY_AGENTS,
  CLOSE_TRY_AGAIN_LATER,
  decodeFrame,
  encodeFrame,
  MAX_FRAME_BYTES,
  PingFrameSchema,
  PROTOCOL_VERSION,
  sendInBatches,
  withReconnectHint,
} from '@gp-gateway/protocol';
import { bearerToken } from '../auth/bearer.ts';
import { RefusalThrottle } from '../auth/refusalThrottle.ts';
import { StoreUnavailableError } from '../../errors/apiError.ts';
import type { RateLimiter } from '../limits/rateLimiter.ts';
import { isAgentToken, sha256Hex } from '../auth/secrets.ts';
import type { Store } from '../../infrastructure/store/store.ts';
import { NO_METRICS, type GatewayMetrics } from '../../infrastructure/telemetry/metrics.ts';
import { acceptAgent } from './acceptAgent.ts';
import { agentVersionsNow } from './agentVersion.ts';
import { AgentAdmission, CONNECTION_BUFFER_BUDGET_BYTES, DEFAULT_MAX_AGENTS_PER_CONNECTION, type ByteRefusal } from './agentAdmission.ts';
import type { AgentRegistry } from './agentRouter.ts';
import type { AgentLink, ChangeSink } from './agentLink.ts';
import { AgentTokenWatch, type WatchedSocket } from './agentTokenWatch.ts';
import { HandshakeCap } from './handshakeCap.ts';

const AGENT_PATH = '/agent';
/** What is logged, and told the socket, when its bytes are refused. */
const BYTES_REFUSED: Record<ByteRefusal, { log: string; reason: string }> = {
  'hello too large': { log: 'agent socket cut off: a hello is never this large', reason: 'a hello is never this large' },
  'connection over budget': {
    log: "agent socket cut off: the connection's sockets hold more unfinished frames than the gateway buffers",
    reason: 'too many bytes in unfinished frames on this connection',
  },
};
const HELLO_TIMEOUT_MS = 10_000;
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
  /** New agent sockets accepted per second; more are closed with 1013 (agents/handshakeCap.ts). Unlimited unless given. */
  handshakesPerSecond?: number;
  /** Where agents' changes are stored (core/events); without it, agents are not offered the change feed. */
  changes?: (orgId: string, connectionId: string) => ChangeSink;
  /** Where unknown tokens' refusals per address are counted (auth/refusalThrottle.ts): shared by the instances when given, else here. */
  refusalLimiter?: RateLimiter;
  /** Where refused sockets and agents' close codes are counted. */
  metrics?: GatewayMetrics;
  /** The newest agent version the gateway offers (its release folder), named in welcomes and pongs; none unless given. */
  latestAgentVersion?: () => string | null;
}

/** The close code (RFC 6455 §7.4.1) the gateway sends its agents when it restarts (gateway.ts). */
export { CLOSE_SERVICE_RESTART };

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
  handshakesPerSecond,
  refusalLimiter,
  metrics = NO_METRICS,
  changes,
  latestAgentVersion = () => null,
}: AgentSocketServerOptions): {
  /** Closes every agent socket with `code` (their agents reconnect, to another instance) and resolves once they are closed. */
  closeAgents(code: number, reason: string): Promise<void>;
  close(): void;
} {
  const cap = handshakesPerSecond ? new HandshakeCap(handshakesPerSecond) : null;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const lastHeard = new WeakMap<WebSocket, number>();
  const connectionOf = new WeakMap<WebSocket, string>();
  const admission = new AgentAdmission(maxAgentsPerConnection);
  const refusals = new RefusalThrottle({
    what: 'agent upgrades with unknown tokens',
    log,
    bucket: 'agent',
    ...(refusalLimiter ? { limiter: refusalLimiter } : {}),
  });
  const tokens = new AgentTokenWatch({ store, log, ...(tokenCheckMs ? { checkMs: tokenCheckMs } : {}) });
  tokens.start();

  const refuse = (socket: Duplex, status: number, text: string, headers: Record<string, string> = {}) => {
    metrics.agentRefused(`http_${status}`);
    refuseUpgrade(socket, status, text, headers);
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://gateway');
      if (url.pathname !== AGENT_PATH) return refuse(socket, 404, 'Not Found');
      const token = bearerToken(req.headers.authorization) ?? '';
      const tokenHash = isAgentToken(token) ? sha256Hex(token) : null;
      const connection = tokenHash ? await store.findConnectionByAgentTokenHash(tokenHash) : null;
      if (!connection) {
        // Logged by the throttle: the first of each address at once, the rest summed up.
        const wait = await refusals.refused(req.socket.remoteAddress, token ? 'unknown agent token' : 'no agent token');
        return wait > 0 ? refuse(socket, 429, 'Too Many Requests', { 'Retry-After': String(wait) }) : refuse(socket, 401, 'Unauthorized');
      }
      // The socket is watched by the hash it opened with (the connection's previous token's, during a
      // rotation's overlap), so that it is dropped when that token ends.
      // Sockets owing a hello are bounded like agents: each holds memory and a timer for up to HELLO_TIMEOUT_MS.
      if (!admission.mayOpen(connection.id)) {
        log.warn({ connectionId: connection.id, remote: req.socket.remoteAddress }, 'agent refused: too many sockets waiting to say hello');
        return refuse(socket, 429, 'Too Many Requests');
      }
      const turn = cap?.admit();
      if (turn && !turn.admitted) {
        // A close code needs a WebSocket: the upgrade completes and the socket is closed at once.
        const reason = withReconnectHint('too many agents connecting to this gateway', { afterMs: turn.retryAfterMs });
        return wss.handleUpgrade(req, socket, head, (ws) => {
          metrics.agentRefused(String(CLOSE_TRY_AGAIN_LATER));
          ws.close(CLOSE_TRY_AGAIN_LATER, reason);
          setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
        });
      }
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws, socket, connection.orgId, connection.id, tokenHash!));
    })().catch((error: unknown) => {
      // The store is down (the token could not be looked up): the agent retries, with its backoff, as for any refusal.
      if (error instanceof StoreUnavailableError)
        return refuse(socket, 503, 'Service Unavailable', { 'Retry-After': String(error.retryAfterSeconds) });
      log.error({ err: error }, 'agent upgrade failed');
      refuse(socket, 500, 'Internal Server Error');
    });
  });

  function serve(ws: WebSocket, socket: Duplex, orgId: string, connectionId: string, tokenHash: string): void {
    let link: AgentLink | null = null;
    const admitted = admission.opened(connectionId);
    lastHeard.set(ws, Date.now());
    connectionOf.set(ws, connectionId);
    /** Refuses or drops the socket now: no request reaches its agent from here on, whatever the client does with the close. */
    const drop = (code: number, reason: string, now = false) => {
      clearTimeout(helloTimer);
      tokens.delete(watched);
      admitted.left();
      if (link) {
        agents.remove(connectionId, link);
        link.closed();
      } else metrics.agentRefused(String(code));
      if (now) return ws.terminate();
      ws.close(code, reason);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    };
    // Counted before ws reads them (prependListener): ws holds a frame's bytes until it ends.
    socket.prependListener('data', (chunk: Buffer) => {
      const refusal = admitted.received(chunk.length);
      if (!refusal) return;
      log.warn({ connectionId, bytes: admitted.bufferedBytes, budget: CONNECTION_BUFFER_BUDGET_BYTES }, BYTES_REFUSED[refusal].log);
      drop(1009, BYTES_REFUSED[refusal].reason, true);
    });
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
      admitted.messageEnded();
      heard();
      // Kept as bytes: a response's payload goes into the HTTP response without a round trip through a string.
      const data = Buffer.isBuffer(message) ? message : Buffer.concat(Array.isArray(message) ? message : [Buffer.from(message)]);
      if (link) return link.receive(data);
      if (!admitted.owesHello) return;
      const ping = decodeFrame(PingFrameSchema, data);
      if (ping.ok) {
        // diagnose reads the versions here, not being an agent that gets a welcome.
        const agentVersions = agentVersionsNow(latestAgentVersion);
        ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: ping.frame.at, now: Date.now(), agentVersions }));
        return;
      }
      clearTimeout(helloTimer);
      const already = admitted.agentsIfFull(maxAgentsPerConnection);
      if (already !== null) {
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
      const close = (code: number, reason: string) => {
        // Before it returns, acceptAgent closes only a hello it refuses.
        if (!link) metrics.agentRefused(String(code));
        ws.close(code, reason);
      };
      link = acceptAgent(
        { send, close },
        data,
        connectionId,
        log,
        changes ? changes(orgId, connectionId) : null,
        agentVersionsNow(latestAgentVersion),
      );
      if (!link) return;
      admitted.becameAgent();
      agents.add(connectionId, link);
    });
    ws.on('close', (code, reason) => {
      clearTimeout(helloTimer);
      tokens.delete(watched);
      admitted.left();
      if (!link) return;
      metrics.agentClosed(code);
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
  const refusalLog = setInterval(() => {
    const refused = cap?.takeRefusals() ?? 0;
    if (refused)
      log.warn({ refused, perSecond: handshakesPerSecond }, 'agents told to try again later: more connecting than the handshake cap');
  }, 1_000);
  refusalLog.unref();

  return {
    async closeAgents(code, reason) {
      const open = [...wss.clients];
      // Sent away for a restart: spread out, so that the instance they land on admits them as they come.
      const told = code === CLOSE_SERVICE_RESTART && cap ? withReconnectHint(reason, { withinMs: cap.spreadMs(open.length) }) : reason;
      await Promise.all(
        open.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              ws.once('close', () => resolve());
              ws.close(code, told);
              setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
            }),
        ),
      );
    },
    close() {
      clearInterval(timer);
      clearInterval(refusalLog);
      tokens.stop();
      refusals.stop();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function refuseUpgrade(socket: Duplex, status: number, text: string, headers: Record<string, string> = {}): void {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${text}\r\n${extra}Connection: close\r\nContent-Length: 0\r\n\r\n`);
}
