import os from 'node:os';
import WebSocket from 'ws';
import type { Logger } from 'pino';
import { CLOSE_TOKEN_REJECTED, CLOSE_VERSION_UNSUPPORTED, type AgentInfo } from '@gp-gateway/protocol';
import type { ReadService } from '../service/readService.ts';
import { AgentSession } from './agentSession.ts';
import { AGENT_VERSION } from '../version.ts';

export interface DialOptions {
  /** Gateway base URL, e.g. https://gateway.example.com; the agent endpoint is <url>/agent. */
  gatewayUrl: string;
  token: string;
  service: ReadService;
  log: Logger;
  dialect: AgentInfo['dialect'];
  /** Reconnect delays grow from min to max with jitter. */
  backoffMs?: { min: number; max: number };
}

/** Stops the agent for good: retrying cannot help (bad token, incompatible gateway). */
export class FatalConnectionError extends Error {}

export function agentEndpoint(gatewayUrl: string): string {
  const url = new URL(gatewayUrl);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}/agent`;
  return url.toString();
}

/**
 * Keeps one outbound WebSocket to the gateway open: dial, hello, serve, and on loss redial with
 * exponential backoff and jitter. Resolves when `signal` aborts; rejects with FatalConnectionError
 * when the gateway refuses the token or the protocol version.
 */
export async function dialGateway(options: DialOptions, signal: AbortSignal): Promise<void> {
  const { min, max } = options.backoffMs ?? { min: 500, max: 30_000 };
  const info: AgentInfo = { version: AGENT_VERSION, host: os.hostname(), platform: process.platform, dialect: options.dialect };
  let attempt = 0;
  while (!signal.aborted) {
    const outcome = await connectOnce(options, info, signal, () => {
      attempt = 0;
    });
    if (outcome.fatal) throw new FatalConnectionError(outcome.reason);
    if (signal.aborted) return;
    const delay = Math.min(max, min * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt += 1;
    options.log.warn({ reason: outcome.reason, retryInMs: Math.round(delay) }, 'connection to the gateway lost; retrying');
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, delay);
      signal.addEventListener('abort', () => { clearTimeout(timer); resolve(undefined); }, { once: true });
    });
  }
}

function connectOnce(
  options: DialOptions,
  info: AgentInfo,
  signal: AbortSignal,
  onAccepted: () => void,
): Promise<{ fatal: boolean; reason: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(agentEndpoint(options.gatewayUrl), {
      headers: { authorization: `Bearer ${options.token}` },
      handshakeTimeout: 10_000,
    });
    const session = new AgentSession({ send: (text) => ws.send(text) }, options.service, options.log);
    const abort = () => ws.close(1001, 'agent stopping');
    signal.addEventListener('abort', abort, { once: true });
    let settled = false;
    const finish = (result: { fatal: boolean; reason: string }) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', abort);
      resolve(result);
    };

    ws.on('unexpected-response', (_req, res) => {
      const fatal = res.statusCode === 401 || res.statusCode === 403;
      finish({
        fatal,
        reason: fatal
          ? 'the gateway rejected the agent token; check the token in the agent configuration'
          : `the gateway answered HTTP ${res.statusCode} instead of opening a WebSocket`,
      });
      ws.terminate();
    });
    ws.on('open', () => {
      options.log.info({ gateway: options.gatewayUrl }, 'connected to the gateway');
      session.hello(info).then(onAccepted, (error: unknown) => {
        options.log.error({ err: error }, 'cannot read the company list for the hello');
        ws.close(1011, 'agent cannot read its database');
      });
    });
    ws.on('message', (data) => session.receive(data.toString()));
    ws.on('close', (code, reason) => {
      const text = reason.toString() || `closed with code ${code}`;
      if (code === CLOSE_TOKEN_REJECTED) finish({ fatal: true, reason: `the gateway rejected the agent token: ${text}` });
      else if (code === CLOSE_VERSION_UNSUPPORTED) finish({ fatal: true, reason: `the gateway does not speak this agent's protocol: ${text}` });
      else finish({ fatal: false, reason: text });
    });
    ws.on('error', (error) => finish({ fatal: false, reason: error.message }));
  });
}
