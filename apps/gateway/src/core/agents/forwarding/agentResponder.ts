import type { Msg, NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { AgentLostError, ApiError } from '../../../errors/apiError.ts';
import { operationObject } from '@gp-gateway/protocol';
import { contextFrom } from '@gp-gateway/telemetry';
import { inSpan, SpanKind } from '@gp-gateway/telemetry';
import type { AgentAnswer, AgentLink } from '../agentLink.ts';
import type { AgentLinkListener, LocalAgentRouter } from '../agentRouter.ts';
import {
  cancelSubject,
  connectionSubject,
  decodeMessage,
  encodeMessage,
  writersSubject,
  type ForwardReply,
  type ForwardRequest,
} from './forwardWire.ts';

export interface AgentResponderOptions {
  nats: NatsConnection;
  /** This instance's agents. */
  local: LocalAgentRouter;
  instanceId: string;
  log: Logger;
  /** Subject prefix shared by the deployment's instances. */
  prefix: string;
  /** How often a request still running is reported alive to its forwarder. */
  keepaliveMs: number;
  /** Connections never served for other instances (the built-in sandbox: every instance has its own). */
  exclude?: ReadonlySet<string>;
}

/** Instances of one deployment share the work of a connection whose agents several of them hold. */
const QUEUE = 'gateways';
/** Room left in each NATS message for the header line. */
const HEADER_ROOM = 1024;

/**
 * The holding half of forwarding: while this instance has an available agent of a connection, it
 * answers requests that other instances publish on the connection's subject (one subscription per
 * connection, in a queue group, so each request reaches one holder). Each request runs through the
 * local router like one of our own, without the in-flight cap (the forwarder already applied it);
 * a request still running is reported alive every `keepaliveMs`, and its page goes back as the
 * agent sent it, split to the server's largest message if need be. A cancel from the forwarder
 * abandons it at the agent.
 */
export class AgentResponder implements AgentLinkListener {
  private readonly options: AgentResponderOptions;
  /** By subject: a connection's, and its writers'. */
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly running = new Map<string, AbortController>();
  private readonly cancels: Subscription;
  private readonly cancelAt: string;
  private idle: Promise<void> = Promise.resolve();
  private settle: (() => void) | null = null;
  private stopped = false;

  constructor(options: AgentResponderOptions) {
    this.options = options;
    this.cancelAt = cancelSubject(options.prefix, options.instanceId);
    this.cancels = options.nats.subscribe(this.cancelAt, {
      callback: (_error, msg) => {
        const decoded = decodeMessage<ForwardRequest>(msg.data);
        if (decoded?.header.t === 'cancel') this.running.get(decoded.header.id)?.abort();
      },
    });
  }

  added(agentKey: string): void {
    this.sync(agentKey);
  }

  removed(agentKey: string): void {
    this.sync(agentKey);
  }

  updated(agentKey: string, _link: AgentLink): void {
    this.sync(agentKey);
  }

  /** Requests from other instances running here now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Takes no more requests for others, and resolves once those running have been answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const subscription of this.subscriptions.values()) subscription.unsubscribe();
    this.subscriptions.clear();
    await this.idle;
    this.cancels.unsubscribe();
  }

  /**
   * Subscribed to the connection's subject exactly while this instance has an agent of it that
   * takes new requests, and to its writers' subject while one of those has writes on.
   */
  private sync(agentKey: string): void {
    if (this.options.exclude?.has(agentKey)) return;
    const available = this.stopped ? [] : this.options.local.linksOf(agentKey).filter((l) => l.available);
    this.subscribe(agentKey, connectionSubject(this.options.prefix, agentKey), available.length > 0);
    this.subscribe(
      agentKey,
      writersSubject(this.options.prefix, agentKey),
      available.some((l) => l.agent.allowWrites === true),
    );
  }

  private subscribe(agentKey: string, subject: string, wanted: boolean): void {
    const subscription = this.subscriptions.get(subject);
    if (wanted && !subscription) {
      this.subscriptions.set(
        subject,
        this.options.nats.subscribe(subject, { queue: QUEUE, callback: (_error, msg) => void this.serve(agentKey, msg) }),
      );
    } else if (!wanted && subscription) {
      subscription.unsubscribe();
      this.subscriptions.delete(subject);
    }
  }

  private async serve(agentKey: string, msg: Msg): Promise<void> {
    const decoded = decodeMessage<ForwardRequest>(msg.data);
    if (!decoded || !msg.reply) return;
    const request = decoded.header;
    if (request.t === 'companies') {
      try {
        const reach = await this.options.local.reach(agentKey);
        this.reply(msg, { t: 'companies', companies: reach?.companies ?? null, allowsWrites: reach?.allowsWrites ?? false });
      } catch (error) {
        this.reply(msg, errorReply(error));
      }
      return;
    }
    if (request.t !== 'request') return;
    const abort = new AbortController();
    this.running.set(request.id, abort);
    if (this.running.size === 1) this.idle = new Promise((resolve) => (this.settle = resolve));
    const keepalive = setInterval(() => this.reply(msg, { t: 'alive', cancel: this.cancelAt }), this.options.keepaliveMs);
    try {
      const attributes = { 'gp.operation': request.op.kind, 'gp.object': operationObject(request.op) ?? '' };
      const answer = await inSpan(
        `nats serve ${request.op.kind}`,
        SpanKind.CONSUMER,
        attributes,
        () => this.options.local.request(agentKey, request.op, request.timeoutMs, undefined, abort.signal),
        contextFrom(request.traceparent),
      );
      clearInterval(keepalive);
      this.sendAnswer(msg, answer);
    } catch (error) {
      clearInterval(keepalive);
      this.reply(msg, errorReply(error));
    } finally {
      this.running.delete(request.id);
      if (this.running.size === 0) this.settle?.();
    }
  }

  private sendAnswer(msg: Msg, answer: AgentAnswer): void {
    const { next, payload: page, outcome } = answer;
    const chunk = Math.max(1024, this.options.nats.info!.max_payload - HEADER_ROOM);
    this.reply(msg, { t: 'answer', next, size: page.length, outcome }, page.subarray(0, chunk));
    for (let at = chunk; at < page.length; at += chunk) this.reply(msg, { t: 'more' }, page.subarray(at, at + chunk));
  }

  private reply(msg: Msg, header: ForwardReply, body?: Buffer): void {
    try {
      this.options.nats.publish(msg.reply!, encodeMessage(header, body));
    } catch (error) {
      // NATS is closed: the forwarder notices the silence and answers its client.
      this.options.log.debug({ err: (error as Error).message }, 'could not reply to a forwarded request');
    }
  }
}

function errorReply(error: unknown): ForwardReply {
  if (error instanceof ApiError) {
    return {
      t: 'error',
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      ...(error instanceof AgentLostError ? { lost: true, dropped: error.dropped } : {}),
      ...(error.retryAfterSeconds !== undefined && error.retryAfterSeconds !== null ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  return { t: 'error', code: 'INTERNAL_ERROR', message: 'The gateway holding the connection’s agent failed to answer.' };
}
