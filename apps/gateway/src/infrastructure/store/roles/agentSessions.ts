import type { WriteCheck } from '@gp-gateway/protocol';

/**
 * What the gateways know about a connection's agents, for operators. Written by every gateway
 * instance as its agents come and go, refreshed while they stay (see AGENT_PRESENCE_REFRESH_MS).
 */
export interface AgentPresence {
  /** Agents connected now, across gateway instances. */
  connectedAgents: number;
  /** The last time any gateway heard from an agent of this connection; null if never. */
  lastSeenAt: string | null;
  /** Version and host of the most recently connected agent; null if none ever connected. */
  agentVersion: string | null;
  agentHost: string | null;
  /** Company ids the connected agents reported (empty when none is connected). */
  companies: string[];
}

/** What an agent reports about itself beyond version and host (its hello and status frames). */
export interface AgentDetails {
  platform: string;
  /** The commit the agent was built from, and the Node runtime it runs on; absent for agents that do not report them. */
  commit?: string;
  node?: string;
  dialect: string;
  /** GP's version from DYNAMICS..DU000020, "demo" for the embedded database; null when unknown. */
  gpVersion: string | null;
  /** Whether the agent can read GP; `unknown` for agents that do not report it. */
  database: 'ok' | 'unavailable' | 'unknown';
  databaseMessage: string | null;
  /** The agent is shutting down. */
  draining: boolean;
  /** Whether the customer's IT turned writes on at the agent; absent from agents (and records) before it was kept. */
  allowWrites?: boolean;
  /** The agent's last write check (gp-agent diagnose --writes; agents with writes on run it at start), per company and object. */
  writeCheck?: WriteCheck;
}

/** One agent connected now (any gateway instance), for operators. */
export interface AgentSessionInfo {
  gatewayId: string;
  agentVersion: string;
  agentHost: string;
  companies: string[];
  /** Null for sessions recorded before agents reported details. */
  details: AgentDetails | null;
  connectedAt: string;
  lastSeenAt: string;
}

/** A gateway refreshes its agents' presence this often ... */
export const AGENT_PRESENCE_REFRESH_MS = 15_000;
/** ... and a session not refreshed for this long (its gateway died without saying so) no longer counts. */
export const AGENT_PRESENCE_STALE_MS = 60_000;

export interface NewAgentSession {
  /** Unique per accepted agent link. */
  id: string;
  /** The connection the agent serves (`sandbox` for the built-in agent: every organisation's sandbox). */
  connectionId: string;
  /** The gateway instance holding the link. */
  gatewayId: string;
  agentVersion: string;
  agentHost: string;
  companies: string[];
  /** Omitted by callers that know only version and host. */
  details?: AgentDetails;
  at: Date;
}

/**
 * What the gateways record about the agents they hold, for operators (the CLI, the dashboard):
 * written by every gateway instance as its agents come and go and refreshed while they stay, read
 * back with the connections (KeysStore.listConnections).
 */
export interface AgentSessionsStore {
  recordAgentConnected(session: NewAgentSession): Promise<void>;
  recordAgentsSeen(sessionIds: string[], at: Date): Promise<void>;
  /** The agent reported new details or companies (health changed, draining). */
  recordAgentDetails(sessionId: string, update: { companies: string[]; details: AgentDetails }, at: Date): Promise<void>;
  recordAgentDisconnected(sessionId: string, at: Date): Promise<void>;
}
