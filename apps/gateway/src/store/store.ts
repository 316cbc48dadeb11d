import type { KeyMode } from '../auth/secrets.ts';

/**
 * The gateway's persistent state behind one small interface: organisations, their API keys and
 * their connections. The embedded implementation is SQLite; a later step runs several gateway
 * instances on PostgreSQL behind the same interface, hence the promises.
 */
export type Scope = 'read' | 'write' | 'mcp';
export const SCOPES: readonly Scope[] = ['read', 'write', 'mcp'];

export interface Organisation {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKey {
  id: string;
  orgId: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  scopes: Scope[];
  /** sha256 of the secret, hex. */
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export const SANDBOX_CONNECTION_ID = 'sandbox';

export interface Connection {
  /** Unique within the organisation; every organisation has `sandbox`. */
  id: string;
  orgId: string;
  name: string;
  /** sha256 of the agent token, hex; null for the sandbox, which the built-in agent serves. */
  agentTokenHash: string | null;
  defaultCompany: string | null;
  createdAt: string;
}

export interface NewApiKey {
  orgId: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  scopes: Scope[];
  secretHash: string;
}

export interface NewConnection {
  orgId: string;
  name: string;
  agentTokenHash: string;
  defaultCompany: string | null;
}

export interface Store {
  /** Creates the organisation together with its sandbox connection. */
  createOrganisation(name: string): Promise<Organisation>;
  findOrganisationByName(name: string): Promise<Organisation | null>;
  createApiKey(key: NewApiKey): Promise<ApiKey>;
  findApiKeyBySecretHash(secretHash: string): Promise<ApiKey | null>;
  /** Records use; implementations may coalesce writes. */
  touchApiKey(id: string, at: Date): Promise<void>;
  createConnection(connection: NewConnection): Promise<Connection>;
  findConnection(orgId: string, id: string): Promise<Connection | null>;
  findConnectionByAgentTokenHash(tokenHash: string): Promise<Connection | null>;
  close(): Promise<void>;
}
