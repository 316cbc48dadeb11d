import {
  GATEWAY_FEATURES,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_VERSION_UNSUPPORTED,
  decodeFrame,
  encodeFrame,
  HelloFrameSchema,
  PROTOCOL_VERSION,
  type AgentVersions,
} from '@gp-gateway/protocol';
import type { Logger } from 'pino';
import { AgentLink, type AgentChannel, type ChangeSink } from './agentLink.ts';
import { agentVersionsNow } from './agentVersion.ts';

/**
 * Turns an agent's first frame into a link, or refuses it with a close code and a message the agent
 * logs. Shared by WebSocket agents and the built-in sandbox agent. With `changes`, the welcome offers
 * the change feed (GATEWAY_FEATURES) and the agent's changes are stored there; the welcome names
 * `agentVersions` (the minimum, and the release folder's version as the latest).
 */
export function acceptAgent(
  channel: AgentChannel,
  firstFrame: string | Buffer,
  connectionId: string,
  log: Logger,
  changes: ChangeSink | null = null,
  agentVersions: AgentVersions = agentVersionsNow(),
): AgentLink | null {
  const decoded = decodeFrame(HelloFrameSchema, firstFrame);
  if (!decoded.ok) {
    log.warn({ connectionId, reason: decoded.error }, 'agent refused: its first frame is not a hello');
    channel.close(CLOSE_PROTOCOL_ERROR, 'the first frame must be a hello');
    return null;
  }
  const hello = decoded.frame;
  if (hello.v !== PROTOCOL_VERSION) {
    log.warn({ connectionId, agentProtocol: hello.v, agentVersion: hello.agent.version }, 'agent refused: protocol version');
    channel.close(
      CLOSE_VERSION_UNSUPPORTED,
      `this gateway speaks agent protocol ${PROTOCOL_VERSION}, the agent speaks ${hello.v}; install a matching agent`,
    );
    return null;
  }
  const link = new AgentLink(channel, hello, log.child({ connectionId }), changes);
  // The versions let the agent's own log say when it should be upgraded (older agents ignore them).
  channel.send(
    encodeFrame({
      v: PROTOCOL_VERSION,
      type: 'welcome',
      connectionId,
      agentVersions,
      ...(changes ? { features: [...GATEWAY_FEATURES] } : {}),
    }),
  );
  log.info(
    { connectionId, agent: hello.agent, companies: hello.companies.map((c) => c.id), health: hello.health ?? null },
    'agent connected',
  );
  return link;
}
