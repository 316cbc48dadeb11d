import os from 'node:os';
import WebSocket from 'ws';
import type { Logger } from 'pino';
import {
  CLOSE_AGENT_STOPPING,
  CLOSE_TOKEN_REJECTED,
  CLOSE_TOO_MANY_AGENTS,
  CLOSE_VERSION_UNSUPPORTED,
  MAX_FRAME_BYTES,
  sendInBatches,
  type AgentInfo,
} from '@gp-gateway/protocol';
import type { ChangeReporter } from '../changes/changeReporter.ts';
import type { OperationHandler } from '../service/readService.ts';
import type { WriteHandler } from '../writes/writeService.ts';
import { AgentSession } from './agentSession.ts';
import { gatewaySocketOptions } from './gatewayNetwork.ts';
import { nextReconnect, type ConnectionEnd } from './reconnectPolicy.ts';
import { AGENT_COMMIT, AGENT_VERSION } from '../version.ts';
import { publishConnection } from '../telemetry/events.ts';

/** Timings of the connection; every field has a default fit for the field (see DEFAULT_TIMINGS). */
export interface ConnectionTimings {
  /** Reconnect delays grow from min, doubling, to max; each is then drawn at random below that (full jitter; reconnectPolicy.ts). */
  backoffMinMs: number;
  backoffMaxMs: number;
  /** The agent pings the gateway this often (keeps NAT and firewall state alive too) ... */
  heartbeatIntervalMs: number;
  /** ... and drops a connection it has heard nothing on for this long, then reconnects. */
  heartbeatTimeoutMs: number;
  /** How long the TCP connect, TLS and WebSocket upgrade may take. */
  connectTimeoutMs: number;
  /** On stop, how long requests in flight get to finish. */
  drainGraceMs: number;
  /** How often health is re-checked and reported when it changed. */
  statusIntervalMs: number;
}

export const DEFAULT_TIMINGS: ConnectionTimings = {
  backoffMinMs: 500,
  backoffMaxMs: 30_000,
  heartbeatIntervalMs: 10_000,
  heartbeatTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  drainGraceMs: 30_000,
  statusIntervalMs: 60_000,
};

export interface DialOptions {
  /** Gateway base URL, e.g. https://gateway.example.com; the agent endpoint is <url>/agent. */
  gatewayUrl: string;
  token: string;
  service: OperationHandler;
  /** Writes and outcomes, when the customer's IT turned writes on (`--allow-writes`); else they are refused. */
  writes?: WriteHandler;
  log: Logger;
  dialect: AgentInfo['dialect'];
  timings?: Partial<ConnectionTimings>;
  /** Change detection, run while a gateway that keeps changes is connected (its welcome offers `changes`). */
  changes?: ChangeReporter;
}

export interface DialControl {
  /** Abort to stop gracefully: drain (tell the gateway, finish in-flight work within the grace period), then close. */
  stop: AbortSignal;
  /** Abort to stop at once, e.g. on a second Ctrl+C: requests in flight are abandoned. */
  force?: AbortSignal;
}

/** Stops the agent for good: retrying cannot help (bad token, incompatible gateway). */
export class FatalConnectionError extends Error {}

export function agentEndpoint(gatewayUrl: string): string {
  const url = new URL(gatewayUrl);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/agent`;
  return url.toString();
}

interface Outcome extends ConnectionEnd {
  fatal: boolean;
}

/**
 * Keeps one outbound WebSocket to the gateway open: dial, hello, serve, and on loss redial with
 * exponential backoff and jitter, forever (a connection that already has as many agents as the
 * gateway accepts included, logged with why); only a refused token or protocol version stops it
 * (FatalConnectionError). Both sides ping: the gateway drops an agent it no longer hears, and the
 * agent drops a gateway it no longer hears (a NAT or firewall that silently forgot the connection)
 * and reconnects. Resolves once stopped through `control`.
 */
export async function dialGateway(options: DialOptions, control: DialControl | AbortSignal): Promise<void> {
  const { stop, force } = control instanceof AbortSignal ? { stop: control, force: undefined } : control;
  const timings = { ...DEFAULT_TIMINGS, ...options.timings };
  const info: AgentInfo = {
    version: AGENT_VERSION,
    commit: AGENT_COMMIT,
    node: process.versions.node,
    host: os.hostname(),
    platform: process.platform,
    dialect: options.dialect,
    allowWrites: options.writes !== undefined,
  };
  let attempt = 0;
  let offlineSince: number | null = null;
  while (!stop.aborted) {
    const outcome = await connectOnce(options, timings, info, stop, force, () => {
      publishConnection({ event: 'welcomed', reconnect: offlineSince !== null });
      if (offlineSince !== null) {
        options.log.info({ attempts: attempt + 1, offlineMs: Date.now() - offlineSince }, 'reconnected to the gateway');
      }
      offlineSince = null;
    });
    publishConnection({ event: 'closed', code: outcome.code });
    if (outcome.fatal) throw new FatalConnectionError(outcome.reason);
    if (stop.aborted) return;
    offlineSince ??= Date.now();
    const next = nextReconnect(attempt, outcome, timings);
    const delay = next.delayMs;
    attempt = next.attempt;
    options.log.warn({ reason: outcome.reason, attempt, retryInMs: Math.round(delay) }, 'not connected to the gateway; retrying');
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stop.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, delay);
      stop.addEventListener('abort', done, { once: true });
    });
  }
}

function connectOnce(
  options: DialOptions,
  timings: ConnectionTimings,
  info: AgentInfo,
  stop: AbortSignal,
  force: AbortSignal | undefined,
  onWelcome: () => void,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const endpoint = agentEndpoint(options.gatewayUrl);
    const ws = new WebSocket(endpoint, {
      // HTTPS_PROXY/NO_PROXY and the system's trusted roots (gatewayNetwork.ts).
      ...gatewaySocketOptions(endpoint),
      headers: { authorization: `Bearer ${options.token}` },
      handshakeTimeout: timings.connectTimeoutMs,
      // Nothing the gateway sends comes near this; a rogue endpoint cannot make the agent buffer more.
      maxPayload: MAX_FRAME_BYTES,
      // Client frames must carry a mask, which exists to protect browsers' proxies from cache
      // poisoning; the agent is no browser. An all-zero mask lets ws skip XOR-ing every byte of
      // every page it sends (3% of the agent's CPU in profiles), and is still valid WebSocket.
      generateMask: (mask: Buffer) => void mask.fill(0),
    });
    const log = options.log;
    let welcomed = false;
    let openedAt = 0;
    let lastHeard = Date.now();
    let heartbeat: NodeJS.Timeout | null = null;
    // Answers leave in one write per turn of the event loop. ws emits 'upgrade', which holds the
    // socket, before 'open'.
    let send = (frame: string | Buffer) => ws.send(frame);
    ws.once('upgrade', (response) => {
      send = sendInBatches(response.socket, send);
    });
    const session = new AgentSession(
      {
        send: (frame) => {
          if (ws.readyState === WebSocket.OPEN) send(frame);
        },
      },
      options.service,
      log,
      {
        statusIntervalMs: timings.statusIntervalMs,
        ...(options.writes && { writes: options.writes }),
        onWelcome: (_connectionId, features) => {
          welcomed = true;
          onWelcome();
          if (features.includes('changes'))
            options.changes?.attach((frame) => {
              if (ws.readyState === WebSocket.OPEN) send(frame);
            });
        },
        onChangesAck: (frame) => options.changes?.acked(frame),
      },
    );

    let settled = false;
    const finish = (result: Omit<Outcome, 'welcomed' | 'upMs' | 'code'> & { code?: number }) => {
      if (settled) return;
      settled = true;
      if (heartbeat) clearInterval(heartbeat);
      stop.removeEventListener('abort', onStop);
      force?.removeEventListener('abort', onForce);
      session.closed();
      options.changes?.detach();
      resolve({ code: null, ...result, welcomed, upMs: openedAt ? Date.now() - openedAt : 0 });
    };

    const onStop = () => {
      if (ws.readyState !== WebSocket.OPEN) {
        ws.terminate();
        return;
      }
      const started = Date.now();
      void session.drain(timings.drainGraceMs).then(({ finished, stopped }) => {
        log.info({ finished, stopped, drainMs: Date.now() - started }, 'drained; closing the connection');
        ws.close(CLOSE_AGENT_STOPPING, 'agent stopping');
        // A gateway that does not complete the close handshake must not hold the agent up.
        setTimeout(() => ws.terminate(), 2_000).unref();
      });
    };
    const onForce = () => ws.terminate();
    stop.addEventListener('abort', onStop, { once: true });
    force?.addEventListener('abort', onForce, { once: true });

    ws.on('unexpected-response', (_req, res) => {
      const fatal = res.statusCode === 401 || res.statusCode === 403;
      finish({
        fatal,
        reason: fatal
          ? 'the gateway rejected the agent token; check GP_AGENT_TOKEN (or --token) in the agent configuration'
          : res.statusCode === 404
            ? `the gateway URL has no agent endpoint (HTTP 404); check GP_GATEWAY_URL`
            : `the gateway answered HTTP ${res.statusCode} instead of opening a WebSocket`,
      });
      ws.terminate();
    });
    ws.on('open', () => {
      openedAt = Date.now();
      lastHeard = openedAt;
      log.info({ gateway: options.gatewayUrl }, 'connected to the gateway');
      let lastTick = Date.now();
      heartbeat = setInterval(() => {
        const now = Date.now();
        // Far behind schedule: this process was paused (a server resumed from sleep), so the
        // silence was ours; give the gateway a full timeout from now before giving up on it.
        if (now - lastTick > timings.heartbeatTimeoutMs) lastHeard = now;
        lastTick = now;
        const silentMs = now - lastHeard;
        if (silentMs > timings.heartbeatTimeoutMs) {
          log.warn({ silentMs, timeoutMs: timings.heartbeatTimeoutMs }, 'the gateway stopped answering; dropping the connection');
          ws.terminate();
          return;
        }
        ws.ping();
      }, timings.heartbeatIntervalMs);
      void session.hello(info);
    });
    const heard = () => {
      lastHeard = Date.now();
    };
    ws.on('pong', heard);
    ws.on('ping', heard);
    ws.on('message', (data) => {
      heard();
      session.receive(data.toString());
    });
    ws.on('close', (code, reason) => {
      const text = reason.toString() || `closed with code ${code}`;
      if (code === CLOSE_TOKEN_REJECTED) finish({ fatal: true, reason: `the gateway rejected the agent token: ${text}` });
      else if (code === CLOSE_VERSION_UNSUPPORTED)
        finish({ fatal: true, reason: `the gateway does not speak this agent's protocol: ${text}` });
      // Not fatal: the slots free when the other agents go (a restart elsewhere, or sockets opened with
      // a stolen token that are then cut off), and an agent that had exited would stay down after.
      else if (code === CLOSE_TOO_MANY_AGENTS)
        finish({
          fatal: false,
          code,
          reason: `the gateway refused another agent on this connection (${text}); retrying until a slot is free. If no other agent of this connection should be running, its token may be in other hands: rotate it`,
        });
      else finish({ fatal: false, code, reason: text });
    });
    ws.on('error', (error) => finish({ fatal: false, reason: error.message }));
  });
}
