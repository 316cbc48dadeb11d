import {
  decodeFrame,
  encodeFrame,
  GatewayToAgentFrameSchema,
  PROTOCOL_VERSION,
  type AgentInfo,
  type RequestFrame,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { AgentError } from '../service/agentError.ts';
import type { ReadService } from '../service/readService.ts';

/** The smallest surface of a message channel: a WebSocket, or a worker's MessagePort for the built-in agent. */
export interface FrameChannel {
  send(text: string): void;
}

/**
 * The agent's half of one gateway connection: says hello, answers typed requests through the read
 * service, answers pings. Knows nothing about how the channel was opened or how it is re-opened.
 */
export class AgentSession {
  private readonly channel: FrameChannel;
  private readonly service: ReadService;
  private readonly log: Logger;
  private inFlight = 0;

  constructor(channel: FrameChannel, service: ReadService, log: Logger) {
    this.channel = channel;
    this.service = service;
    this.log = log;
  }

  async hello(agent: AgentInfo): Promise<void> {
    const companies = await this.service.companies();
    this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'hello', agent, companies }));
  }

  get busy(): number {
    return this.inFlight;
  }

  receive(text: string): void {
    const decoded = decodeFrame(GatewayToAgentFrameSchema, text);
    if (!decoded.ok) {
      this.log.warn({ reason: decoded.error }, 'ignored a frame the agent does not understand');
      return;
    }
    const frame = decoded.frame;
    switch (frame.type) {
      case 'request':
        void this.answer(frame);
        return;
      case 'ping':
        this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'pong', at: frame.at }));
        return;
      case 'welcome':
        this.log.info({ connectionId: frame.connectionId }, 'gateway accepted the agent');
        return;
      case 'pong':
        return;
    }
  }

  private async answer(frame: RequestFrame): Promise<void> {
    const started = performance.now();
    this.inFlight += 1;
    try {
      const result = await this.service.handle(frame.op);
      this.channel.send(encodeFrame({ v: PROTOCOL_VERSION, type: 'response', id: frame.id, next: result.next }, result.payload));
      this.log.debug({ op: frame.op.kind, object: frame.op.object, ms: Math.round(performance.now() - started) }, 'request answered');
    } catch (error) {
      const known = error instanceof AgentError;
      if (!known) this.log.error({ err: error, object: frame.op.object }, 'request failed');
      this.channel.send(
        encodeFrame({
          v: PROTOCOL_VERSION,
          type: 'error',
          id: frame.id,
          code: known ? error.code : 'INTERNAL_ERROR',
          message: known ? error.message : 'the agent failed to answer this request',
        }),
      );
    } finally {
      this.inFlight -= 1;
    }
  }
}
