import type { AgentDetails, AgentPresence, AgentSessionInfo } from './agentSessions.ts';
/** A key's mode: live keys reach customers' connections, test keys only the sandbox. */
export type KeyMode = 'live' | 'test';

export type Scope = 'read' | 'write' | 'mcp';
export const SCOPES: readonly Scope[] = ['read', 'write', 'mcp'];

/** Per-organisation overrides of the gateway's limits (docs/api.md#rate-limits); null means the gateway default. */
export interface LimitOverrides {
  /** Requests per window per key (token bucket size). */
  requestsPerWindow: number | null;
  /** Seconds the bucket takes to refill completely. */
  windowSeconds: number | null;
  /** Requests in flight at once per connection. */
  maxInFlightPerConnection: number | null;
}

export interface Organisation {
  id: string;
  name: string;
  createdAt: string;
  limits: LimitOverrides;
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
  /** When the secret was last replaced by rotation; null if never. */
  rotatedAt: string | null;
  lastUsedAt: string | null;
  /**
   * sha256 of the secret before the last rotation, which keeps working until `previousSecretUntil`
   * (rotation with an overlap); both null when the last rotation ended the old secret at once.
   */
  previousSecretHash: string | null;
  previousSecretUntil: string | null;
}

export const SANDBOX_CONNECTION_ID = 'sandbox';

export interface Connection {
  /** Unique within the organisation; `sandbox` for the one an organisation is created with (core/admin/sandbox.ts). */
  id: string;
  orgId: string;
  name: string;
  /** sha256 of the agent token, hex; null for the sandbox, which the built-in agent serves. */
  agentTokenHash: string | null;
  defaultCompany: string | null;
  /** Objects that `POST /v1/{object}` may write on this connection (docs/api.md#writes); empty means none. */
  writeWhitelist: string[];
  createdAt: string;
}

/** An API key and the connection of its organisation that a request names, read together. */
export interface KeyWithConnection {
  key: ApiKey;
  /** Null when no connection id was asked for or the key's organisation has no such connection. */
  connection: Connection | null;
}

export interface ConnectionWithPresence extends Connection {
  /** Until when the agent token before the last rotation still opens sockets; null when it no longer does. */
  previousAgentTokenUntil: string | null;
  presence: AgentPresence;
  /** The agents connected now, newest first. */
  agents: AgentSessionInfo[];
  /** What the most recent agent reported, kept for when none is connected. */
  lastAgentDetails: AgentDetails | null;
}

/** What a new key is made of; the store gives it its id and times. */
export type NewApiKey = Pick<ApiKey, 'orgId' | 'name' | 'prefix' | 'mode' | 'scopes' | 'secretHash'>;

export interface KeyRotation {
  orgId: string;
  id: string;
  /** The new secret's mode; a key of another mode is not rotated. */
  mode: KeyMode;
  prefix: string;
  secretHash: string;
  at: Date;
  /** Until when the replaced secret keeps working; null or absent ends it at once. A secret kept from an earlier rotation ends now either way. */
  keepOldUntil?: Date | null;
}

/**
 * The sandbox connection an organisation is created with: id `sandbox`, no agent token (the
 * built-in agent serves it). Whether an organisation gets one, and its name and company, is
 * decided above the store (core/admin/sandbox.ts).
 */
export interface NewSandbox {
  name: string;
  defaultCompany: string | null;
}

export interface NewConnection {
  orgId: string;
  name: string;
  agentTokenHash: string;
  defaultCompany: string | null;
}

/**
 * Organisations, their API keys and connections: what every API request and agent link reads, and
 * the operator CLI and the dashboard change.
 */
export interface KeysStore {
  /**
   * Creates the organisation and, when given, its sandbox connection, in one transaction: nothing
   * else. A name already taken is refused and leaves nothing behind.
   */
  createOrganisation(name: string, contents?: { sandbox?: NewSandbox }): Promise<Organisation>;
  findOrganisation(id: string): Promise<Organisation | null>;
  findOrganisationByName(name: string): Promise<Organisation | null>;
  listOrganisations(): Promise<Organisation[]>;
  /** Changes only the fields given; null restores the gateway default. Null when no such organisation. */
  setOrganisationLimits(id: string, limits: Partial<LimitOverrides>): Promise<Organisation | null>;

  createApiKey(key: NewApiKey): Promise<ApiKey>;
  findApiKey(orgId: string, id: string): Promise<ApiKey | null>;
  /**
   * The key with that hash and, in the same read, its organisation's connection `connectionId`.
   * Every API request needs both: one read is one round trip to the store, and two were a sixth of
   * the gateway's CPU per get-by-id.
   */
  findApiKeyWithConnection(secretHash: string, connectionId: string | null): Promise<KeyWithConnection | null>;
  listApiKeys(orgId: string): Promise<ApiKey[]>;
  /** Records use; implementations may coalesce writes. */
  touchApiKey(id: string, at: Date): Promise<void>;
  /**
   * Replaces the hash of a non-revoked key of the organisation in one atomic step: once this
   * resolves, the old secret is found only as the key's previous one (until `keepOldUntil`, which
   * whoever checks the key compares: core/auth/keySecret.ts), or, without an overlap, not at all.
   * Null when the key is unknown, revoked, foreign or of another mode.
   */
  rotateApiKey(rotation: KeyRotation): Promise<ApiKey | null>;
  /** Ends the overlap of a key's last rotation now: its previous secret finds nothing. Null when the organisation has no such key. */
  endApiKeyOverlap(orgId: string, id: string): Promise<ApiKey | null>;
  /**
   * Revokes the key; an earlier revocation keeps its time (`revokedNow` false). Null when no such
   * key. Takes effect from the next request: findApiKeyWithConnection may answer from memory only
   * while nothing in the store has changed.
   */
  revokeApiKey(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null>;

  createConnection(connection: NewConnection): Promise<Connection>;
  findConnection(orgId: string, id: string): Promise<Connection | null>;
  /** The connection whose agent token this is: its current one, or its previous one until that ends (`at` is now). */
  findConnectionByAgentTokenHash(tokenHash: string, at?: Date): Promise<Connection | null>;
  /**
   * Which of these agent token hashes some connection still holds (as its current token, or as its
   * previous one until `at`): agent sockets opened with any other were opened with a token since
   * rotated or revoked, or whose overlap has ended, and are dropped (agents/agentTokenWatch.ts).
   */
  agentTokenHashesHeld(tokenHashes: readonly string[], at?: Date): Promise<Set<string>>;
  /**
   * Replaces a live connection's agent token hash, or with null revokes it: from then on no agent
   * token opens a socket for it. With `keepOldUntil`, the token replaced keeps opening sockets until
   * then (a token kept from an earlier rotation ends now); a revocation ends both. Null when the
   * organisation has no such connection (or it is the sandbox).
   */
  setAgentTokenHash(orgId: string, id: string, tokenHash: string | null, keepOldUntil?: Date | null): Promise<Connection | null>;
  /** Ends the overlap of a connection's last token rotation now. Null when the organisation has no such connection. */
  endAgentTokenOverlap(orgId: string, id: string): Promise<Connection | null>;
  listConnections(orgId: string): Promise<ConnectionWithPresence[]>;
  /** Null when the organisation has no such connection. */
  setDefaultCompany(orgId: string, id: string, company: string | null): Promise<Connection | null>;
  /** `objects` must already be validated (writes/writableObjects.ts). Null when no such connection. */
  setWriteWhitelist(orgId: string, id: string, objects: string[]): Promise<Connection | null>;
}
