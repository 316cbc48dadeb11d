import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Database, migrationClientConfig, type DatabaseOptions } from './database.ts';
import { PostgresDashboardTables } from './dashboardTables.ts';
import { KeyMemo } from './keyMemo.ts';
import { migrate } from './migrations.ts';
import { presenceOf } from '../sharedRows.ts';
import { PostgresIdempotencyTables } from './idempotencyTables.ts';
import { PostgresUsageTables } from './usageTables.ts';
import {
  KEY_WITH_CONNECTION_COLUMNS,
  connectionOfKeyRow,
  toApiKey,
  toConnection,
  toOrganisation,
  toSessionInfo,
  type ConnectionRow,
  type KeyRow,
  type KeyWithConnectionRow,
  type OrganisationRow,
  type SessionRow,
} from './rows.ts';
import {
  AGENT_PRESENCE_STALE_MS,
  SANDBOX_CONNECTION_ID,
  type AgentDetails,
  type ApiKey,
  type AuditEntry,
  type Connection,
  type ConnectionWithPresence,
  type DailyUsage,
  type IdempotencyClaim,
  type IdempotencyClaimResult,
  type StoredResponse,
  type DashboardSession,
  type KeyRotation,
  type KeyWithConnection,
  type LimitOverrides,
  type NewAgentSession,
  type NewApiKey,
  type NewAuditEntry,
  type NewConnection,
  type NewUser,
  type Organisation,
  type RequestRecord,
  type Store,
  type User,
  type UserRole,
} from '../store.ts';

const LIMIT_COLUMNS: Record<keyof LimitOverrides, string> = {
  requestsPerWindow: 'rate_limit_requests',
  windowSeconds: 'rate_limit_window_s',
  maxInFlightPerConnection: 'max_in_flight',
};

const ORGANISATION_COLUMNS = 'id, name, created_at, rate_limit_requests, rate_limit_window_s, max_in_flight';
const KEY_COLUMNS = 'id, org_id, name, prefix, mode, scopes, secret_hash, created_at, revoked_at, rotated_at, last_used_at';
const CONNECTION_COLUMNS = `org_id, id, name, agent_token_hash, default_company, write_whitelist, created_at,
  last_agent_seen_at, last_agent_version, last_agent_host, last_agent_details`;
const SESSION_COLUMNS = 'connection_id, gateway_id, agent_version, agent_host, companies, details, connected_at, last_seen_at';

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
const now = () => new Date().toISOString();
const json = (value: unknown) => JSON.stringify(value);

/** The demo database's first company; the sandbox connection defaults to it (as in the SQLite store). */
const SANDBOX_DEFAULT_COMPANY = 'TWO';

/**
 * The gateway's store on PostgreSQL, shared by any number of gateway instances and the operator CLI
 * (D14). Same semantics as the SQLite store: sqlite/sqliteStore.ts explains each method, and one
 * contract suite (testing/storeContract.ts) runs against both. Open it with `PostgresStore.open`,
 * which migrates the database first.
 */
export class PostgresStore implements Store {
  private readonly db: Database;
  private readonly memo: KeyMemo;
  private readonly dashboard: PostgresDashboardTables;
  private readonly usage: PostgresUsageTables;
  private readonly idempotency: PostgresIdempotencyTables;

  private constructor(db: Database, memo: KeyMemo) {
    this.db = db;
    this.memo = memo;
    this.dashboard = new PostgresDashboardTables(db);
    this.usage = new PostgresUsageTables(db);
    this.idempotency = new PostgresIdempotencyTables(db);
  }

  /** Connects, brings the schema up to date (waiting for another instance doing the same) and listens for key changes. */
  static async open(options: DatabaseOptions): Promise<PostgresStore> {
    const db = new Database(options);
    const memo = new KeyMemo(options);
    try {
      const client = new pg.Client(migrationClientConfig(options));
      await client.connect();
      try {
        await migrate(client);
      } finally {
        await client.end();
      }
      await memo.start();
    } catch (error) {
      await memo.close();
      await db.close();
      throw new Error(
        `cannot open the PostgreSQL store ${describeDatabase(options.connectionString)} (DATABASE_URL): ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    return new PostgresStore(db, memo);
  }

  async createOrganisation(name: string): Promise<Organisation> {
    const createdAt = now();
    const id = newId('org');
    await this.db.transaction(async (client) => {
      await client.query('INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, $3)', [id, name, createdAt]);
      await client.query(
        'INSERT INTO connections (org_id, id, name, agent_token_hash, default_company, created_at) VALUES ($1, $2, $3, NULL, $4, $5)',
        [id, SANDBOX_CONNECTION_ID, 'Demo sandbox', SANDBOX_DEFAULT_COMPANY, createdAt],
      );
    });
    return { id, name, createdAt, limits: { requestsPerWindow: null, windowSeconds: null, maxInFlightPerConnection: null } };
  }

  async findOrganisation(id: string): Promise<Organisation | null> {
    const row = await this.db.row<OrganisationRow>(`SELECT ${ORGANISATION_COLUMNS} FROM organisations WHERE id = $1`, [id]);
    return row ? toOrganisation(row) : null;
  }

  async findOrganisationByName(name: string): Promise<Organisation | null> {
    const row = await this.db.row<OrganisationRow>(`SELECT ${ORGANISATION_COLUMNS} FROM organisations WHERE name = $1`, [name]);
    return row ? toOrganisation(row) : null;
  }

  async listOrganisations(): Promise<Organisation[]> {
    return (await this.db.rows<OrganisationRow>(`SELECT ${ORGANISATION_COLUMNS} FROM organisations ORDER BY created_at, seq`)).map(
      toOrganisation,
    );
  }

  async setOrganisationLimits(id: string, limits: Partial<LimitOverrides>): Promise<Organisation | null> {
    const fields = (Object.keys(LIMIT_COLUMNS) as (keyof LimitOverrides)[]).filter((f) => limits[f] !== undefined);
    if (fields.length) {
      // Column names come from LIMIT_COLUMNS, never from the caller; values are parameters.
      const assignments = fields.map((f, i) => `${LIMIT_COLUMNS[f]} = $${i + 2}`).join(', ');
      await this.db.query(`UPDATE organisations SET ${assignments} WHERE id = $1`, [id, ...fields.map((f) => limits[f])]);
    }
    return this.findOrganisation(id);
  }

  async createApiKey(key: NewApiKey): Promise<ApiKey> {
    const record: ApiKey = { ...key, id: newId('key'), createdAt: now(), revokedAt: null, rotatedAt: null, lastUsedAt: null };
    await this.db.query(
      'INSERT INTO api_keys (id, org_id, name, prefix, mode, scopes, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [record.id, record.orgId, record.name, record.prefix, record.mode, json(record.scopes), record.secretHash, record.createdAt],
    );
    return record;
  }

  async findApiKey(orgId: string, id: string): Promise<ApiKey | null> {
    const row = await this.db.row<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE org_id = $1 AND id = $2`, [orgId, id]);
    return row ? toApiKey(row) : null;
  }

  /** Every request's one store read, answered from memory while no change was heard (keyMemo.ts). */
  async findApiKeyWithConnection(secretHash: string, connectionId: string | null): Promise<KeyWithConnection | null> {
    const memoKey = connectionId === null ? secretHash : `${secretHash}\u0000${connectionId}`;
    const known = this.memo.get(memoKey);
    if (known) return known;
    const generation = this.memo.readStarted();
    const row = await this.db.row<KeyWithConnectionRow>(
      `SELECT ${KEY_WITH_CONNECTION_COLUMNS}
       FROM api_keys k LEFT JOIN connections c ON c.org_id = k.org_id AND c.id = $1
       WHERE k.secret_hash = $2`,
      [connectionId, secretHash],
    );
    if (!row) return null;
    const found: KeyWithConnection = { key: toApiKey(row), connection: connectionOfKeyRow(row) };
    this.memo.remember(memoKey, found, generation);
    return found;
  }

  async listApiKeys(orgId: string): Promise<ApiKey[]> {
    return (await this.db.rows<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY created_at, seq`, [orgId])).map(
      toApiKey,
    );
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    // last_used_at is left out of the triggers' columns: touching a key tells no instance to forget it.
    await this.db.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at.toISOString(), id]);
  }

  async rotateApiKey(rotation: KeyRotation): Promise<ApiKey | null> {
    // One statement: the hash is swapped and the row returned atomically, so no reader ever sees
    // both secrets valid, or neither.
    const row = await this.db.row<KeyRow>(
      `UPDATE api_keys SET secret_hash = $1, prefix = $2, rotated_at = $3
       WHERE id = $4 AND org_id = $5 AND mode = $6 AND revoked_at IS NULL RETURNING ${KEY_COLUMNS}`,
      [rotation.secretHash, rotation.prefix, rotation.at.toISOString(), rotation.id, rotation.orgId, rotation.mode],
    );
    this.memo.forget();
    return row ? toApiKey(row) : null;
  }

  async revokeApiKey(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null> {
    const result = await this.db.transaction(async (client) => {
      // The row lock makes a second revocation at the same moment wait, then see the first's time.
      const before = await client.query<{ revoked_at: string | null }>('SELECT revoked_at FROM api_keys WHERE id = $1 FOR UPDATE', [id]);
      if (!before.rows[0]) return null;
      const after = await client.query<KeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 RETURNING ${KEY_COLUMNS}`,
        [at.toISOString(), id],
      );
      return { key: toApiKey(after.rows[0]!), revokedNow: before.rows[0].revoked_at === null };
    });
    this.memo.forget();
    return result;
  }

  async createConnection(connection: NewConnection): Promise<Connection> {
    const record: Connection = { ...connection, id: newId('conn'), writeWhitelist: [], createdAt: now() };
    await this.db.query(
      'INSERT INTO connections (org_id, id, name, agent_token_hash, default_company, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [record.orgId, record.id, record.name, record.agentTokenHash, record.defaultCompany, record.createdAt],
    );
    // A key asked earlier for this connection id was remembered with none.
    this.memo.forget();
    return record;
  }

  async findConnection(orgId: string, id: string): Promise<Connection | null> {
    const row = await this.db.row<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE org_id = $1 AND id = $2`, [
      orgId,
      id,
    ]);
    return row ? toConnection(row) : null;
  }

  async findConnectionByAgentTokenHash(tokenHash: string): Promise<Connection | null> {
    const row = await this.db.row<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE agent_token_hash = $1`, [tokenHash]);
    return row ? toConnection(row) : null;
  }

  async agentTokenHashesHeld(tokenHashes: readonly string[]): Promise<Set<string>> {
    if (!tokenHashes.length) return new Set();
    const rows = await this.db.rows<{ agent_token_hash: string }>(
      'SELECT agent_token_hash FROM connections WHERE agent_token_hash = ANY($1::text[])',
      [tokenHashes],
    );
    return new Set(rows.map((r) => r.agent_token_hash));
  }

  async setAgentTokenHash(orgId: string, id: string, tokenHash: string | null): Promise<Connection | null> {
    const row = await this.db.row<ConnectionRow>(
      `UPDATE connections SET agent_token_hash = $1 WHERE org_id = $2 AND id = $3 AND id <> $4 RETURNING ${CONNECTION_COLUMNS}`,
      [tokenHash, orgId, id, SANDBOX_CONNECTION_ID],
    );
    this.memo.forget();
    return row ? toConnection(row) : null;
  }

  async listConnections(orgId: string): Promise<ConnectionWithPresence[]> {
    const rows = await this.db.rows<ConnectionRow>(
      `SELECT ${CONNECTION_COLUMNS} FROM connections WHERE org_id = $1 ORDER BY id <> $2, created_at, seq`,
      [orgId, SANDBOX_CONNECTION_ID],
    );
    if (!rows.length) return [];
    const liveSince = new Date(Date.now() - AGENT_PRESENCE_STALE_MS).toISOString();
    const sessions = await this.db.rows<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM agent_sessions WHERE connection_id = ANY($1::text[]) AND last_seen_at >= $2
       ORDER BY connected_at DESC, seq DESC`,
      [rows.map((r) => r.id), liveSince],
    );
    return rows.map((row) => {
      const agents = sessions.filter((s) => s.connection_id === row.id).map(toSessionInfo);
      return {
        ...toConnection(row),
        presence: presenceOf(row, agents),
        agents,
        lastAgentDetails: row.last_agent_details,
      };
    });
  }

  async setDefaultCompany(orgId: string, id: string, company: string | null): Promise<Connection | null> {
    const row = await this.db.row<ConnectionRow>(
      `UPDATE connections SET default_company = $1 WHERE org_id = $2 AND id = $3 RETURNING ${CONNECTION_COLUMNS}`,
      [company, orgId, id],
    );
    this.memo.forget();
    return row ? toConnection(row) : null;
  }

  async setWriteWhitelist(orgId: string, id: string, objects: string[]): Promise<Connection | null> {
    const row = await this.db.row<ConnectionRow>(
      `UPDATE connections SET write_whitelist = $1 WHERE org_id = $2 AND id = $3 RETURNING ${CONNECTION_COLUMNS}`,
      [json(objects), orgId, id],
    );
    this.memo.forget();
    return row ? toConnection(row) : null;
  }

  async recordAgentConnected(session: NewAgentSession): Promise<void> {
    const at = session.at.toISOString();
    const details = session.details ? json(session.details) : null;
    await this.db.transaction(async (client) => {
      // Sessions of gateways that died without saying so are dropped here rather than by a timer.
      await client.query('DELETE FROM agent_sessions WHERE last_seen_at < $1', [
        new Date(session.at.getTime() - AGENT_PRESENCE_STALE_MS).toISOString(),
      ]);
      await client.query(
        `INSERT INTO agent_sessions (id, connection_id, gateway_id, agent_version, agent_host, companies, details, connected_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [
          session.id,
          session.connectionId,
          session.gatewayId,
          session.agentVersion,
          session.agentHost,
          json(session.companies),
          details,
          at,
        ],
      );
      await client.query(
        'UPDATE connections SET last_agent_seen_at = $1, last_agent_version = $2, last_agent_host = $3, last_agent_details = $4 WHERE id = $5',
        [at, session.agentVersion, session.agentHost, details, session.connectionId],
      );
    });
  }

  async recordAgentsSeen(sessionIds: string[], at: Date): Promise<void> {
    if (!sessionIds.length) return;
    const seen = at.toISOString();
    await this.db.transaction(async (client) => {
      const sessions = await client.query<{ connection_id: string }>(
        'UPDATE agent_sessions SET last_seen_at = $1 WHERE id = ANY($2::text[]) RETURNING connection_id',
        [seen, sessionIds],
      );
      const connections = [...new Set(sessions.rows.map((r) => r.connection_id))].sort();
      if (connections.length) {
        await client.query('UPDATE connections SET last_agent_seen_at = $1 WHERE id = ANY($2::text[])', [seen, connections]);
      }
    });
  }

  async recordAgentDetails(sessionId: string, update: { companies: string[]; details: AgentDetails }, at: Date): Promise<void> {
    const seen = at.toISOString();
    const details = json(update.details);
    await this.db.transaction(async (client) => {
      const session = await client.query<{ connection_id: string }>(
        'UPDATE agent_sessions SET companies = $1, details = $2, last_seen_at = $3 WHERE id = $4 RETURNING connection_id',
        [json(update.companies), details, seen, sessionId],
      );
      const row = session.rows[0];
      if (row) {
        await client.query('UPDATE connections SET last_agent_seen_at = $1, last_agent_details = $2 WHERE id = $3', [
          seen,
          details,
          row.connection_id,
        ]);
      }
    });
  }

  async recordAgentDisconnected(sessionId: string, at: Date): Promise<void> {
    await this.db.transaction(async (client) => {
      const gone = await client.query<Pick<SessionRow, 'connection_id' | 'agent_version' | 'agent_host' | 'details'>>(
        'DELETE FROM agent_sessions WHERE id = $1 RETURNING connection_id, agent_version, agent_host, details',
        [sessionId],
      );
      const row = gone.rows[0];
      if (!row) return;
      await client.query(
        `UPDATE connections SET last_agent_seen_at = $1, last_agent_version = $2, last_agent_host = $3,
           last_agent_details = COALESCE($4, last_agent_details) WHERE id = $5`,
        [at.toISOString(), row.agent_version, row.agent_host, row.details === null ? null : json(row.details), row.connection_id],
      );
    });
  }

  createUser(user: NewUser): Promise<User | null> {
    return this.dashboard.createUser(user);
  }

  findUser(id: string): Promise<User | null> {
    return this.dashboard.findUser(id);
  }

  findUserForSignIn(email: string): Promise<{ user: User; passwordHash: string | null } | null> {
    return this.dashboard.findUserForSignIn(email);
  }

  listUsers(orgId: string): Promise<User[]> {
    return this.dashboard.listUsers(orgId);
  }

  setUserRole(orgId: string, id: string, role: UserRole): Promise<User | null> {
    return this.dashboard.setUserRole(orgId, id, role);
  }

  removeUser(orgId: string, id: string): Promise<boolean> {
    return this.dashboard.removeUser(orgId, id);
  }

  setUserPassword(id: string, passwordHash: string): Promise<void> {
    return this.dashboard.setUserPassword(id, passwordHash);
  }

  recordSignIn(id: string, at: Date): Promise<void> {
    return this.dashboard.recordSignIn(id, at);
  }

  createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): Promise<void> {
    return this.dashboard.createSignInLink(link);
  }

  useSignInLink(tokenHash: string, at: Date): Promise<User | null> {
    return this.dashboard.useSignInLink(tokenHash, at);
  }

  createDashboardSession(session: { idHash: string; userId: string; at: Date }): Promise<void> {
    return this.dashboard.createSession(session);
  }

  findDashboardSession(idHash: string): Promise<DashboardSession | null> {
    return this.dashboard.findSession(idHash);
  }

  touchDashboardSession(idHash: string, at: Date): Promise<void> {
    return this.dashboard.touchSession(idHash, at);
  }

  deleteDashboardSession(idHash: string): Promise<void> {
    return this.dashboard.deleteSession(idHash);
  }

  deleteDashboardSessionsOf(userId: string): Promise<void> {
    return this.dashboard.deleteSessionsOf(userId);
  }

  recordUsage(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): Promise<void> {
    return this.usage.record(batch);
  }

  listDailyUsage(orgId: string, sinceDay: string): Promise<DailyUsage[]> {
    return this.usage.listDaily(orgId, sinceDay);
  }

  listRecentRequests(orgId: string, filter: { keyId?: string; statusClass?: string; limit: number }): Promise<RequestRecord[]> {
    return this.usage.listRecent(orgId, filter);
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
    return this.idempotency.claim(claim);
  }

  completeIdempotencyKey(orgId: string, key: string, operationId: string, response: StoredResponse): Promise<boolean> {
    return this.idempotency.complete(orgId, key, operationId, response);
  }

  releaseIdempotencyKey(orgId: string, key: string, operationId: string): Promise<void> {
    return this.idempotency.release(orgId, key, operationId);
  }

  suspendIdempotencyKey(orgId: string, key: string, operationId: string, at: Date): Promise<void> {
    return this.idempotency.suspend(orgId, key, operationId, at);
  }

  deleteExpiredIdempotencyKeys(at: Date): Promise<number> {
    return this.idempotency.deleteExpired(at);
  }

  recordAudit(entry: NewAuditEntry): Promise<void> {
    return this.dashboard.recordAudit(entry);
  }

  listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    return this.dashboard.listAudit(orgId, limit);
  }

  /** Whether keys are answered from memory now: the listener for key changes is connected. */
  get rememberingKeys(): boolean {
    return this.memo.listening;
  }

  checkReachable(timeoutMs: number): Promise<void> {
    return this.db.breaker.check(timeoutMs);
  }

  async close(): Promise<void> {
    await this.memo.close();
    await this.db.close();
  }
}

/** `db.example.com:5432/gateway`: where the store is, for messages; never the user or password. */
function describeDatabase(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}
