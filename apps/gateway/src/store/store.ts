import type { KeyMode } from '../auth/secrets.ts';

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
  dialect: string;
  /** GP's version from DYNAMICS..DU000020, "demo" for the embedded database; null when unknown. */
  gpVersion: string | null;
  /** Whether the agent can read GP; `unknown` for agents that do not report it. */
  database: 'ok' | 'unavailable' | 'unknown';
  databaseMessage: string | null;
  /** The agent is shutting down. */
  draining: boolean;
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

export interface ConnectionWithPresence extends Connection {
  presence: AgentPresence;
  /** The agents connected now, newest first. */
  agents: AgentSessionInfo[];
  /** What the most recent agent reported, kept for when none is connected. */
  lastAgentDetails: AgentDetails | null;
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

export interface NewApiKey {
  orgId: string;
  name: string;
  prefix: string;
  mode: KeyMode;
  scopes: Scope[];
  secretHash: string;
}

export interface KeyRotation {
  orgId: string;
  id: string;
  /** The new secret's mode; a key of another mode is not rotated. */
  mode: KeyMode;
  prefix: string;
  secretHash: string;
  at: Date;
}

/** What a dashboard user may do: admins manage keys, connections and users; viewers only look. */
export type UserRole = 'admin' | 'viewer';
export const USER_ROLES: readonly UserRole[] = ['admin', 'viewer'];

/** A person who signs in to the dashboard of one organisation. */
export interface User {
  id: string;
  orgId: string;
  /** Lower-cased; unique across the gateway, since people sign in by email alone. */
  email: string;
  role: UserRole;
  /** False until the user has set a password through a sign-in link. */
  hasPassword: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface NewUser {
  orgId: string;
  email: string;
  role: UserRole;
}

/** A dashboard session (its id is a secret the browser holds; the store keeps its sha256). */
export interface DashboardSession {
  user: User;
  createdAt: string;
  lastSeenAt: string;
}

/** Who changed what in an organisation, and from where: the dashboard's audit log. */
export interface AuditEntry {
  id: number;
  orgId: string;
  at: string;
  /** The user's email, or `operator CLI`. */
  actor: string;
  /** e.g. `key.created`, `key.revoked`, `connection.whitelist.set`. */
  action: string;
  /** What was acted on, e.g. a key id and name. */
  target: string;
  details: Record<string, unknown> | null;
  /** The client address of the change; null from the CLI. */
  address: string | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** Requests of one key on one UTC day with one status class (`2xx`, `4xx`, `5xx`, …). */
export interface DailyUsage {
  orgId: string;
  keyId: string;
  day: string;
  statusClass: string;
  requests: number;
}

/** One request as the dashboard lists it: never its query, headers or body. */
export interface RequestRecord {
  orgId: string;
  at: string;
  keyId: string;
  keyPrefix: string;
  method: string;
  /** The object asked for (`customers`), `mcp`, or `api-keys`. */
  object: string;
  status: number;
  ms: number;
  requestId: string;
}

/** Requests kept in each organisation's request log. */
export const USAGE_LOG_KEPT = 10_000;

/**
 * One Idempotency-Key of an organisation (docs/api.md#idempotency): which write it names and, once
 * known, its answer. `fingerprint` is what makes "the same request" (writes/fingerprint.ts); the store
 * compares it and never interprets it.
 */
export interface IdempotencyRecord {
  orgId: string;
  key: string;
  fingerprint: string;
  /** The write's operation id, which the agent's journal knows it by. */
  operationId: string;
  /**
   * `pending`: a request holds it until `leaseUntil`, or held it and gave up without knowing the
   * write's outcome (lease in the past): the next request with the same key and body settles it
   * through the outcome operation. `completed`: `response` is the answer, replayed as it is.
   */
  state: 'pending' | 'completed';
  leaseUntil: string;
  response: StoredResponse | null;
  createdAt: string;
  /** From this instant on the record is as good as absent; the sweep deletes it. */
  expiresAt: string;
}

/** An answer as it was sent, replayed byte for byte. */
export interface StoredResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface IdempotencyClaim {
  orgId: string;
  key: string;
  fingerprint: string;
  /** The operation id of a new write, used when the claim creates the record. */
  operationId: string;
  at: Date;
  /** Until when the claiming request may work on the write undisturbed (its deadline and a margin). */
  leaseUntil: Date;
  expiresAt: Date;
}

/**
 * What claiming a key found, decided in one atomic step:
 * - `claimed`: there was no live record (none, or one expired at `at`): a new pending one now holds
 *   the claim's operation id and lease; the caller runs the write.
 * - `resumed`: a pending record with the same fingerprint whose lease had lapsed: its lease is now the
 *   claim's, its operation id is kept, and the caller must settle that operation before anything else.
 * - `completed`: same fingerprint, answered: the caller replays `response`.
 * - `in_flight`: same fingerprint, pending, lease not lapsed: another request is running it.
 * - `body_mismatch`: a live record with another fingerprint (whatever its state).
 * Nothing is changed for the last three.
 */
export type IdempotencyClaimResult =
  | { kind: 'claimed' }
  | { kind: 'resumed'; operationId: string }
  | { kind: 'completed'; response: StoredResponse }
  | { kind: 'in_flight' }
  | { kind: 'body_mismatch' };

/** Idempotency records are kept this long (docs/api.md#idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface NewConnection {
  orgId: string;
  name: string;
  agentTokenHash: string;
  defaultCompany: string | null;
}

/**
 * The gateway's persistent state behind one small interface: organisations, their API keys and
 * connections, and which agents the gateways hold. The embedded implementation is SQLite
 * (sqlite/sqliteStore.ts); several gateway instances share PostgreSQL behind the same interface
 * (postgres/postgresStore.ts), hence the promises. testing/storeContract.ts is what both must do. Front ends change it through the admin service, not directly.
 */
export interface Store {
  /** Creates the organisation together with its sandbox connection. */
  createOrganisation(name: string): Promise<Organisation>;
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
   * resolves, the old secret finds nothing. Null when the key is unknown, revoked, foreign or of
   * another mode.
   */
  rotateApiKey(rotation: KeyRotation): Promise<ApiKey | null>;
  /**
   * Revokes the key; an earlier revocation keeps its time (`revokedNow` false). Null when no such
   * key. Takes effect from the next request: findApiKeyWithConnection may answer from memory only
   * while nothing in the store has changed.
   */
  revokeApiKey(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null>;

  createConnection(connection: NewConnection): Promise<Connection>;
  findConnection(orgId: string, id: string): Promise<Connection | null>;
  findConnectionByAgentTokenHash(tokenHash: string): Promise<Connection | null>;
  /**
   * Which of these agent token hashes some connection still holds: agent sockets opened with any
   * other were opened with a token since rotated or revoked, and are dropped (agents/agentTokenWatch.ts).
   */
  agentTokenHashesHeld(tokenHashes: readonly string[]): Promise<Set<string>>;
  /**
   * Replaces a live connection's agent token hash, or with null revokes it: from then on no agent
   * token opens a socket for it. Null when the organisation has no such connection (or it is the sandbox).
   */
  setAgentTokenHash(orgId: string, id: string, tokenHash: string | null): Promise<Connection | null>;
  listConnections(orgId: string): Promise<ConnectionWithPresence[]>;
  /** Null when the organisation has no such connection. */
  setDefaultCompany(orgId: string, id: string, company: string | null): Promise<Connection | null>;
  /** `objects` must already be validated (writes/writableObjects.ts). Null when no such connection. */
  setWriteWhitelist(orgId: string, id: string, objects: string[]): Promise<Connection | null>;

  recordAgentConnected(session: NewAgentSession): Promise<void>;
  recordAgentsSeen(sessionIds: string[], at: Date): Promise<void>;
  /** The agent reported new details or companies (health changed, draining). */
  recordAgentDetails(sessionId: string, update: { companies: string[]; details: AgentDetails }, at: Date): Promise<void>;
  recordAgentDisconnected(sessionId: string, at: Date): Promise<void>;

  /** Null when a user already has that email (in any organisation). */
  createUser(user: NewUser): Promise<User | null>;
  findUser(id: string): Promise<User | null>;
  /** With the password's hash, for signing in; null when no user has that email. */
  findUserForSignIn(email: string): Promise<{ user: User; passwordHash: string | null } | null>;
  listUsers(orgId: string): Promise<User[]>;
  /** Null when the organisation has no such user. */
  setUserRole(orgId: string, id: string, role: UserRole): Promise<User | null>;
  /** Removes the user with their sessions and links; false when the organisation has no such user. */
  removeUser(orgId: string, id: string): Promise<boolean>;
  /** Sets the password and ends every session of the user (a changed password signs out everywhere). */
  setUserPassword(id: string, passwordHash: string): Promise<void>;
  recordSignIn(id: string, at: Date): Promise<void>;

  /** A one-time link for the user to set a password (first sign-in, invitation). */
  createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): Promise<void>;
  /** Spends the link if it is unused and unexpired, in one step; its user, or null. */
  useSignInLink(tokenHash: string, at: Date): Promise<User | null>;

  createDashboardSession(session: { idHash: string; userId: string; at: Date }): Promise<void>;
  findDashboardSession(idHash: string): Promise<DashboardSession | null>;
  touchDashboardSession(idHash: string, at: Date): Promise<void>;
  deleteDashboardSession(idHash: string): Promise<void>;
  deleteDashboardSessionsOf(userId: string): Promise<void>;

  /** Adds a batch of counts and appends requests to the log, keeping each organisation's last USAGE_LOG_KEPT. */
  recordUsage(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): Promise<void>;
  /** The organisation's counts from `sinceDay` (YYYY-MM-DD) on. */
  listDailyUsage(orgId: string, sinceDay: string): Promise<DailyUsage[]>;
  /** The organisation's most recent requests first, optionally of one key and one status class. */
  listRecentRequests(orgId: string, filter: { keyId?: string; statusClass?: string; limit: number }): Promise<RequestRecord[]>;

  /**
   * Idempotency keys (docs/api.md#idempotency), per organisation. Every method below is one atomic
   * step even when several gateway instances share the store: two claims of one key never both see
   * `claimed` or `resumed`.
   */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult>;
  /**
   * Stores the answer of a pending record that still names `operationId` (state `completed`); false
   * and no change otherwise (the record expired, was released, or another operation now holds it).
   */
  completeIdempotencyKey(orgId: string, key: string, operationId: string, response: StoredResponse): Promise<boolean>;
  /** Deletes a pending record that names `operationId`: the write never ran and never will, so the key is free again. */
  releaseIdempotencyKey(orgId: string, key: string, operationId: string): Promise<void>;
  /**
   * Ends the lease of a pending record that names `operationId` at `at`, keeping it pending: the
   * write's outcome is unknown, and the next request with the key settles it (a `resumed` claim).
   */
  suspendIdempotencyKey(orgId: string, key: string, operationId: string, at: Date): Promise<void>;
  /** Deletes every record expired at `at`; how many. */
  deleteExpiredIdempotencyKeys(at: Date): Promise<number>;

  recordAudit(entry: NewAuditEntry): Promise<void>;
  /** The organisation's most recent entries first. */
  listAudit(orgId: string, limit: number): Promise<AuditEntry[]>;

  /**
   * Resolves when the store answers within `timeoutMs`, else rejects (`/ready`). A store that can be
   * down on its own (PostgreSQL) also learns from a check that gets no answer: its requests are then
   * refused at once (503 SERVICE_UNAVAILABLE) rather than each waiting. The embedded store has none.
   */
  checkReachable?(timeoutMs: number): Promise<void>;

  close(): Promise<void>;
}
