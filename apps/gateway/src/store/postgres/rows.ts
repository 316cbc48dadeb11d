export { toOrganisation, type OrganisationRow } from '../sharedRows.ts';
import type { AgentDetails, AgentSessionInfo, ApiKey, Connection, Scope } from '../store.ts';

/**
 * The store's rows as PostgreSQL returns them through database.ts (times as ISO strings, jsonb
 * parsed), and how each becomes the Store interface's shape.
 */

export interface KeyRow {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  mode: 'live' | 'test';
  scopes: Scope[];
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
  write_whitelist: string[];
  created_at: string;
  last_agent_seen_at: string | null;
  last_agent_version: string | null;
  last_agent_host: string | null;
  last_agent_details: AgentDetails | null;
}
export interface SessionRow {
  connection_id: string;
  gateway_id: string;
  agent_version: string;
  agent_host: string;
  companies: string[];
  details: AgentDetails | null;
  connected_at: string;
  last_seen_at: string;
}

/** The columns of a key row, then the joined connection's under `c_` names (all null when none matched). */
export const KEY_WITH_CONNECTION_COLUMNS = `k.id, k.org_id, k.name, k.prefix, k.mode, k.scopes, k.secret_hash, k.created_at,
  k.revoked_at, k.rotated_at, k.last_used_at, c.id AS c_id, c.name AS c_name, c.agent_token_hash AS c_agent_token_hash,
  c.default_company AS c_default_company, c.write_whitelist AS c_write_whitelist, c.created_at AS c_created_at`;
export interface KeyWithConnectionRow extends KeyRow {
  c_id: string | null;
  c_name: string | null;
  c_agent_token_hash: string | null;
  c_default_company: string | null;
  c_write_whitelist: string[] | null;
  c_created_at: string | null;
}

export function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    prefix: row.prefix,
    mode: row.mode,
    scopes: row.scopes,
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    rotatedAt: row.rotated_at,
    lastUsedAt: row.last_used_at,
  };
}

export function toConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    agentTokenHash: row.agent_token_hash,
    defaultCompany: row.default_company,
    writeWhitelist: row.write_whitelist,
    createdAt: row.created_at,
  };
}

export function connectionOfKeyRow(row: KeyWithConnectionRow): Connection | null {
  if (row.c_id === null) return null;
  return {
    id: row.c_id,
    orgId: row.org_id,
    name: row.c_name!,
    agentTokenHash: row.c_agent_token_hash,
    defaultCompany: row.c_default_company,
    writeWhitelist: row.c_write_whitelist!,
    createdAt: row.c_created_at!,
  };
}

export function toSessionInfo(row: SessionRow): AgentSessionInfo {
  return {
    gatewayId: row.gateway_id,
    agentVersion: row.agent_version,
    agentHost: row.agent_host,
    companies: row.companies,
    details: row.details,
    connectedAt: row.connected_at,
    lastSeenAt: row.last_seen_at,
  };
}
