import { randomBytes } from 'node:crypto';
import { operationObject, type Company, type Operation } from '@gp-gateway/protocol';
import { createInbox, ErrorCode as NatsErrorCode, type Msg, type NatsConnection, type NatsError } from 'nats';
import type { Logger } from 'pino';
import { AgentLostError, ApiError } from '../../../errors/apiError.ts';
import { OutageNotice } from '../../../infrastructure/outageNotice.ts';
import { NO_METRICS, type GatewayMetrics } from '../../../infrastructure/telemetry/metrics.ts';
import { inSpan, SpanKind } from '@gp-gateway/telemetry';
import type { AgentAnswer } from '../agentLink.ts';
import type { AgentReach, AgentRouter, Tenant } from '../agentRouter.ts';
import { connectionSubject, decodeMessage, encodeMessage, writersSubject, type ForwardReply } from './forwardWire.ts';
import { setTimeout as sleep } from 'node:timers/promises';

export interface NatsAgentRouterOptions {
  nats: NatsConnection;
  prefix: string;
  log: Logger;
  /** How often the holder reports a running request alive (AgentResponder's keepaliveMs) ... */
  keepaliveMs: number;
  /** ... and how many of those may be missed before the holder counts as gone. */
  missedKeepalives?: number;
  /** How long a connection's companies, asked of the holder, are reused. */
  companiesCacheMs?: number;
  /** Where forwarded requests and NATS's "no responders" are counted. */
  metrics?: GatewayMetrics;
}

/** NATS said no instance holds an agent of the connection: 503 CONNECTION_OFFLINE, told apart for the metrics. */
class NoRespondersError extends ApiError {
  constructor() {
    super('CONNECTION_OFFLINE', 'The connection’s agent is offline.');
  }
}

/** Beyond the request's own deadline (which the holder enforces and answers), how long to wait for that answer. */
const DEADLINE_GRACE_MS = 1_000;
const COMPANIES_TIMEOUT_MS = 2_000;
/** How often waitForAgent asks whether an agent of the connection is back on some instance. */
const WAIT_POLL_MS = 200;

/**
 * The forwarding half: sends a request for a connection whose agent this instance does not hold to
 * the instance that does, over NATS request-reply (AgentResponder answers it there), and hands its
 * answer on with the page's bytes as they came. Nothing is sent twice: an operation is published
 * once, whatever happens after (a write must not be made twice). When no instance holds an agent
 * of the connection, NATS says so at once ("no responders"): 503 CONNECTION_OFFLINE without waiting.
 * A holder that stops reporting a running request alive (it died) is given up on after
 * `missedKeepalives` keepalives: 503 too, for the client to retry, as when an agent drops.
 */
export class NatsAgentRouter implements AgentRouter {
  private readonly options: NatsAgentRouterOptions;
  private readonly companiesCache = new Map<string, { companies: readonly Company[]; allowsWrites: boolean; until: number }>();
  private readonly outage: OutageNotice;
  /**
   * Replies for every request of this router arrive on one wildcard subscription (`<inbox>.<id>`),
   * dispatched by the last token: no SUB and UNSUB per request, as nats.js does for its own requests.
   */
  private readonly inbox: string;
  private readonly waiting = new Map<string, (msg: Msg) => void>();
  private readonly metrics: GatewayMetrics;

  constructor(options: NatsAgentRouterOptions) {
    this.options = options;
    this.metrics = options.metrics ?? NO_METRICS;
    this.outage = new OutageNotice(options.log, 'requests for agents on other instances fail with 503', 'NATS');
    this.inbox = createInbox();
    options.nats.subscribe(`${this.inbox}.*`, {
      callback: (_error, msg) => this.waiting.get(msg.subject.slice(this.inbox.length + 1))?.(msg),
    });
  }

  /**
   * The holder's answer, reused for `companiesCacheMs`. A write asks the connection's writers' subject
   * as well, uncached (writes are few, and a writer that just left must not be counted): only
   * instances with an agent that has writes on answer there, since one holder's "no" is not the
   * deployment's answer.
   */
  async reach(agentKey: string, forWrite?: boolean): Promise<AgentReach | null> {
    const held = await this.holder(agentKey);
    if (!held || !forWrite) return held && { companies: held.companies, allowsWrites: held.allowsWrites };
    const writers = await this.ask(writersSubject(this.options.prefix, agentKey));
    return { companies: held.companies, allowsWrites: writers?.allowsWrites ?? false };
  }

  /** Asks every `WAIT_POLL_MS` whether some instance holds an agent of the connection, until `timeoutMs`. */
  async waitForAgent(agentKey: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.companiesCache.delete(agentKey);
      if (await this.holder(agentKey)) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await sleep(Math.min(WAIT_POLL_MS, left));
    }
  }

  /** What the holding instance says of the connection's agents; null when no instance holds one. */
  private async holder(agentKey: string): Promise<{ companies: readonly Company[]; allowsWrites: boolean } | null> {
    const cached = this.companiesCache.get(agentKey);
    if (cached && cached.until > Date.now()) return cached;
    const held = await this.ask(connectionSubject(this.options.prefix, agentKey));
    if (held) this.companiesCache.set(agentKey, { ...held, until: Date.now() + (this.options.companiesCacheMs ?? 1_000) });
    return held;
  }

  /** The companies and writes of the instance that answers on `subject`; null when none does. */
  private async ask(subject: string): Promise<{ companies: readonly Company[]; allowsWrites: boolean } | null> {
    let msg: Msg;
    try {
      msg = await this.options.nats.request(subject, encodeMessage({ t: 'companies' }), { timeout: COMPANIES_TIMEOUT_MS });
      this.outage.succeeded();
    } catch (error) {
      const code = (error as NatsError).code;
      if (code === NatsErrorCode.NoResponders) {
        this.metrics.noResponders('lookup');
        return null;
      }
      if (code !== NatsErrorCode.Timeout) this.outage.failed(error);
      return null;
    }
    const reply = decodeMessage<ForwardReply>(msg.data)?.header;
    if (reply?.t === 'error') throw toApiError(reply);
    if (reply?.t !== 'companies' || !reply.companies) return null;
    return { companies: reply.companies, allowsWrites: reply.allowsWrites === true };
  }

  async request(agentKey: string, op: Operation, timeoutMs: number, _tenant?: Tenant, signal?: AbortSignal): Promise<AgentAnswer> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const attributes = { 'gp.operation': op.kind, 'gp.object': operationObject(op) ?? '' };
      const answer = await inSpan(`nats forward ${op.kind}`, SpanKind.PRODUCER, attributes, (traceparent) =>
        this.forward(agentKey, op, timeoutMs, signal, traceparent),
      );
      this.metrics.forwarded('ok', seconds());
      return answer;
    } catch (error) {
      const noResponders = error instanceof NoRespondersError;
      if (noResponders) this.metrics.noResponders('request');
      this.metrics.forwarded(noResponders ? 'no_responders' : error instanceof ApiError ? error.code : 'error', seconds());
      throw error;
    }
  }

  private forward(
    agentKey: string,
    op: Operation,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    traceparent: string | undefined,
  ): Promise<AgentAnswer> {
    const { nats, keepaliveMs } = this.options;
    const silenceMs = keepaliveMs * (this.options.missedKeepalives ?? 3);
    const id = randomBytes(12).toString('base64url');
    return new Promise<AgentAnswer>((resolve, reject) => {
      let cancelAt: string | null = null;
      let parts: Buffer[] = [];
      let expected = -1;
      let received = 0;
      let next: AgentAnswer['next'] = null;
      let outcome: AgentAnswer['outcome'] = null;
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearTimeout(silence);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
        outcome();
      };
      const giveUp = (error: ApiError) => {
        if (cancelAt) {
          try {
            nats.publish(cancelAt, encodeMessage({ t: 'cancel', id }));
          } catch {
            // NATS is away: the holder's own deadline stops the query.
          }
        }
        finish(() => reject(error));
      };
      const onAbort = () => giveUp(new ApiError('UPSTREAM_TIMEOUT', 'The request was cancelled before the agent answered.'));
      const deadline = setTimeout(
        () => giveUp(new ApiError('UPSTREAM_TIMEOUT', `The agent did not answer within ${timeoutMs} ms; the query was cancelled.`)),
        timeoutMs + DEADLINE_GRACE_MS,
      );
      // Silence comes only after the request was published: the holder may have run it before it died.
      const holderGone = () =>
        finish(() => reject(new AgentLostError('The gateway instance holding the connection’s agent stopped answering.', true)));
      let silence = setTimeout(holderGone, silenceMs);

      this.waiting.set(id, (msg) => {
        if (msg.data.length === 0 && msg.headers?.code === 503) {
          // No instance holds an agent of the connection (it left a moment ago): nothing was sent anywhere.
          return finish(() => reject(new NoRespondersError()));
        }
        clearTimeout(silence);
        silence = setTimeout(holderGone, silenceMs);
        const decoded = decodeMessage<ForwardReply>(msg.data);
        if (!decoded) return;
        const { header, body } = decoded;
        if (header.t === 'alive') cancelAt = header.cancel;
        else if (header.t === 'error') finish(() => reject(toApiError(header)));
        else if (header.t === 'answer' || header.t === 'more') {
          if (header.t === 'answer') {
            expected = header.size;
            next = header.next;
            outcome = header.outcome ?? null;
          }
          if (expected < 0) return;
          parts.push(body);
          received += body.length;
          if (received >= expected) {
            const payload = parts.length === 1 ? parts[0]! : Buffer.concat(parts, received);
            parts = [];
            finish(() => resolve({ payload, next, outcome }));
          }
        }
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // A write that changes something goes only where an agent has writes on (AgentResponder).
        const subject = op.kind === 'write' && !op.validateOnly ? writersSubject : connectionSubject;
        nats.publish(
          subject(this.options.prefix, agentKey),
          encodeMessage({ t: 'request', id, op, timeoutMs, ...(traceparent ? { traceparent } : {}) }),
          {
            reply: `${this.inbox}.${id}`,
          },
        );
        this.outage.succeeded();
      } catch (error) {
        this.outage.failed(error);
        finish(() => reject(new ApiError('CONNECTION_OFFLINE', 'The connection’s agent is offline.')));
      }
    });
  }
}

function toApiError(reply: Extract<ForwardReply, { t: 'error' }>): ApiError {
  // A holder from before writes says `lost` alone: count it as dropped, the side that asks before re-running.
  if (reply.lost) return new AgentLostError(reply.message, reply.dropped ?? true);
  return new ApiError(
    reply.code,
    reply.message,
    reply.details ?? null,
    reply.retryAfterSeconds !== undefined ? { retryAfterSeconds: reply.retryAfterSeconds } : {},
  );
}
