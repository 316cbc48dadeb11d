import type { Selectable } from 'kysely';
import type { AgentDetails, AgentPresence, AgentSessionInfo } from '../roles/agentSessions.ts';
import type { ApiKey, Connection, KeyWithConnection, Organisation, Scope } from '../roles/keys.ts';
import type { User } from '../roles/users.ts';
import type { AgentSessionsTable, ApiKeysTable, ConnectionsTable, OrganisationsTable, UsersTable } from './schema.ts';

/** How the store's rows become the Store interface's shapes, on either engine. */

/** A JSON column's value: PostgreSQL's jsonb arrives parsed, SQLite's text as the JSON text. */
export function parsedJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** A JSON column's value as the store writes it, on either engine. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value);
}

export function toOrganisation(row: Selectable<OrganisationsTable>): Organisation {
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

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    prefix: row.prefix,
    mode: row.mode,
    scopes: parsedJson<Scope[]>(row.scopes),
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    rotatedAt: row.rotated_at,
    lastUsedAt: row.last_used_at,
    previousSecretHash: row.previous_secret_hash,
    previousSecretUntil: row.previous_secret_until,
  };
}

export type ConnectionColumns = Pick<
  Selectable<ConnectionsTable>,
  'id' | 'org_id' | 'name' | 'agent_token_hash' | 'default_company' | 'write_whitelist' | 'created_at'
>;

export function toConnection(row: ConnectionColumns): Connection {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    agentTokenHash: row.agent_token_hash,
    defaultCompany: row.default_company,
    writeWhitelist: parsedJson<string[]>(row.write_whitelist),
    createdAt: row.created_at,
  };
}

export function toSessionInfo(row: Selectable<AgentSessionsTable>): AgentSessionInfo {
  return {
    gatewayId: row.gateway_id,
    agentVersion: row.agent_version,
    agentHost: row.agent_host,
    companies: parsedJson<string[]>(row.companies),
    details: row.details === null ? null : parsedJson<AgentDetails>(row.details),
    connectedAt: row.connected_at,
    lastSeenAt: row.last_seen_at,
  };
}

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    orgId: row.org_id,
    email: row.email,
    role: row.role,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/** A key and connection as remembered: frozen, because every request that presents the key shares it. */
export function frozen(found: KeyWithConnection): KeyWithConnection {
  Object.freeze(found.key.scopes);
  Object.freeze(found.key);
  if (found.connection) {
    Object.freeze(found.connection.writeWhitelist);
    Object.freeze(found.connection);
  }
  return Object.freeze(found);
}

/** What a connection row remembers of its agents. */
export type RememberedAgentColumns = Pick<Selectable<ConnectionsTable>, 'last_agent_seen_at' | 'last_agent_version' | 'last_agent_host'>;

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
