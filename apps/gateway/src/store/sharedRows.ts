import type { AgentPresence, AgentSessionInfo, KeyWithConnection, Organisation } from './store.ts';

/**
 * What the SQLite and PostgreSQL stores map alike: an organisation's row (same columns in both
 * schemas), a connection's agent presence, and a remembered key, frozen because every request that
 * presents the key shares it.
 */
export interface OrganisationRow {
  id: string;
  name: string;
  created_at: string;
  rate_limit_requests: number | null;
  rate_limit_window_s: number | null;
  max_in_flight: number | null;
}

export function toOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    limits: {
      requestsPerWindow: row.rate_limit_requests,
      windowSeconds: row.rate_limit_window_s,
      maxInFlightPerConnection: row.max_in_flight,
    },
  };
}

/** A key and connection as remembered: shared by every request that presents the key. */
export function frozen(found: KeyWithConnection): KeyWithConnection {
  Object.freeze(found.key.scopes);
  Object.freeze(found.key);
  if (found.connection) {
    Object.freeze(found.connection.writeWhitelist);
    Object.freeze(found.connection);
  }
  return Object.freeze(found);
}

/** What a connection row remembers of its agents (the same columns in both schemas). */
export interface RememberedAgentColumns {
  last_agent_seen_at: string | null;
  last_agent_version: string | null;
  last_agent_host: string | null;
}

/** Live sessions (newest first) plus what the connection row remembers from earlier ones. */
export function presenceOf(row: RememberedAgentColumns, live: readonly AgentSessionInfo[]): AgentPresence {
  const newest = live[0];
  const seen = [row.last_agent_seen_at, ...live.map((s) => s.lastSeenAt)].filter((t): t is string => t !== null).sort();
  return {
    connectedAgents: live.length,
    lastSeenAt: seen.at(-1) ?? null,
    agentVersion: newest?.agentVersion ?? row.last_agent_version,
    agentHost: newest?.agentHost ?? row.last_agent_host,
    companies: [...new Set(live.flatMap((s) => s.companies))],
  };
}
