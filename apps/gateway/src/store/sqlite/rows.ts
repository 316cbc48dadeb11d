export { toOrganisation, type OrganisationRow } from '../sharedRows.ts';
import type { AgentDetails, AgentSessionInfo, ApiKey, Connection, Scope } from '../store.ts';

/** The store's rows as SQLite returns them, and how each becomes the Store interface's shape. */

export interface KeyRow {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  mode: 'live' | 'test';
  scopes: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  rotated_at: string | null;
  last_used_at: string | null;
}
export interface ConnectionRow {
  id: string;
  org_id: string;
  name: string;
  agent_token_hash: string | null;
  default_company: string | null;
  write_whitelist: string;
  created_at: string;
  last_agent_seen_at: string | null;
  last_agent_version: string | null;
  last_agent_host: string | null;
  last_agent_details: string | null;
}
/** The columns a Connection is made of (the rest are the agent presence of listConnections). */
export type ConnectionColumns = Pick<
  ConnectionRow,
  'id' | 'org_id' | 'name' | 'agent_token_hash' | 'default_company' | 'write_whitelist' | 'created_at'
>;
/** A key row's columns in KeyRow's order, then the joined connection's (all null when none matched). */
export type KeyWithConnectionTuple = [
  string,
  string,
  string,
  string,
  KeyRow['mode'],
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
];
export interface SessionRow {
  connection_id: string;
  gateway_id: string;
  agent_version: string;
  agent_host: string;
  companies: string;
  details: string | null;
  connected_at: string;
  last_seen_at: string;
}

export function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    prefix: row.prefix,
    mode: row.mode,
    scopes: JSON.parse(row.scopes) as Scope[],
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    rotatedAt: row.rotated_at,
    lastUsedAt: row.last_used_at,
  };
}

export function toConnection(row: ConnectionColumns): Connection {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    agentTokenHash: row.agent_token_hash,
    defaultCompany: row.default_company,
    writeWhitelist: JSON.parse(row.write_whitelist) as string[],
    createdAt: row.created_at,
  };
}

export function toSessionInfo(row: SessionRow): AgentSessionInfo {
  return {
    gatewayId: row.gateway_id,
    agentVersion: row.agent_version,
    agentHost: row.agent_host,
    companies: JSON.parse(row.companies) as string[],
    details: row.details ? (JSON.parse(row.details) as AgentDetails) : null,
    connectedAt: row.connected_at,
    lastSeenAt: row.last_seen_at,
  };
}
