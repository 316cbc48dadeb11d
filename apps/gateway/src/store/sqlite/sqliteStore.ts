import { randomBytes } from 'node:crypto';
import { frozen, presenceOf } from '../sharedRows.ts';
import Database from 'better-sqlite3';
import { SqliteDashboardTables } from './dashboardTables.ts';
import { SqliteIdempotencyTables } from './idempotencyTables.ts';
import { migrate } from './migrations.ts';
import { SqliteUsageTables } from './usageTables.ts';
import {
  toApiKey,
  toConnection,
  toOrganisation,
  toSessionInfo,
  type ConnectionRow,
  type KeyRow,
  type KeyWithConnectionTuple,
  type OrganisationRow,
  type SessionRow,
} from './rows.ts';
import {
  AGENT_PRESENCE_STALE_MS,
  SANDBOX_CONNECTION_ID,
  type AgentDetails,
  type ApiKey,
  type AuditEntry,
  type DailyUsage,
  type IdempotencyClaim,
  type IdempotencyClaimResult,
  type StoredResponse,
  type DashboardSession,
  type RequestRecord,
  type NewAuditEntry,
  type NewUser,
  type User,
  type UserRole,
  type Connection,
  type ConnectionWithPresence,
  type KeyRotation,
  type KeyWithConnection,
  type LimitOverrides,
  type NewAgentSession,
  type NewApiKey,
  type NewConnection,
  type Organisation,
  type Store,
} from '../store.ts';

const LIMIT_COLUMNS: Record<keyof LimitOverrides, string> = {
  requestsPerWindow: 'rate_limit_requests',
  windowSeconds: 'rate_limit_window_s',
  maxInFlightPerConnection: 'max_in_flight',
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
const now = () => new Date().toISOString();

/** The demo database's first company; the sandbox connection defaults to it. */
export const SANDBOX_DEFAULT_COMPANY = 'TWO';

/** Keys remembered at most (findApiKeyWithConnection); more, and memory starts over. */
const MAX_KEYS_REMEMBERED = 10_000;

/** The gateway's store in one SQLite file (WAL, so the operator CLI can use it beside a running gateway). */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  /** Every request looks up its key and connection: prepare each statement once, not per call. */
  private readonly statements = new Map<string, Database.Statement>();
  /** findApiKeyWithConnection's read, and the two numbers that say whether what it found still stands. */
  private readonly keyWithConnection: Database.Statement;
  private readonly dataVersion: Database.Statement;
  private readonly ownChanges: Database.Statement;
  /** Keys found with their connection, by `hash` or `hash\0connectionId`; valid while `keysReadAt` holds. */
  private readonly keysFound = new Map<string, KeyWithConnection>();
  private keysReadAt = { dataVersion: -1, ownChanges: -1 };
  private readonly dashboard: SqliteDashboardTables;
  private readonly usage: SqliteUsageTables;
  private readonly idempotency: SqliteIdempotencyTables;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.dashboard = new SqliteDashboardTables(this.db, (sql) => this.prepare(sql));
    this.usage = new SqliteUsageTables(this.db, (sql) => this.prepare(sql));
    this.idempotency = new SqliteIdempotencyTables(this.db, (sql) => this.prepare(sql));
    this.dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    this.ownChanges = this.db.prepare('SELECT total_changes()').pluck();
    this.keyWithConnection = this.db
      .prepare(
        `SELECT k.id, k.org_id, k.name, k.prefix, k.mode, k.scopes, k.secret_hash, k.created_at, k.revoked_at, k.rotated_at, k.last_used_at,
                c.id, c.name, c.agent_token_hash, c.default_company, c.write_whitelist, c.created_at
         FROM api_keys k LEFT JOIN connections c ON c.org_id = k.org_id AND c.id = ?
         WHERE k.secret_hash = ?`,
      )
      .raw(true);
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async createOrganisation(name: string): Promise<Organisation> {
    const createdAt = now();
    const id = newId('org');
    this.db.transaction(() => {
      this.prepare('INSERT INTO organisations (id, name, created_at) VALUES (?, ?, ?)').run(id, name, createdAt);
      this.prepare(
        'INSERT INTO connections (org_id, id, name, agent_token_hash, default_company, created_at) VALUES (?, ?, ?, NULL, ?, ?)',
      ).run(id, SANDBOX_CONNECTION_ID, 'Demo sandbox', SANDBOX_DEFAULT_COMPANY, createdAt);
    })();
    return { id, name, createdAt, limits: { requestsPerWindow: null, windowSeconds: null, maxInFlightPerConnection: null } };
  }

  async findOrganisation(id: string): Promise<Organisation | null> {
    const row = this.prepare('SELECT * FROM organisations WHERE id = ?').get(id) as OrganisationRow | undefined;
    return row ? toOrganisation(row) : null;
  }

  async findOrganisationByName(name: string): Promise<Organisation | null> {
    const row = this.prepare('SELECT * FROM organisations WHERE name = ?').get(name) as OrganisationRow | undefined;
    return row ? toOrganisation(row) : null;
  }

  async listOrganisations(): Promise<Organisation[]> {
    const rows = this.prepare('SELECT * FROM organisations ORDER BY created_at, rowid').all() as OrganisationRow[];
    return rows.map(toOrganisation);
  }

  async setOrganisationLimits(id: string, limits: Partial<LimitOverrides>): Promise<Organisation | null> {
    const fields = (Object.keys(LIMIT_COLUMNS) as (keyof LimitOverrides)[]).filter((f) => limits[f] !== undefined);
    if (fields.length) {
      const assignments = fields.map((f) => `${LIMIT_COLUMNS[f]} = ?`).join(', ');
      this.prepare(`UPDATE organisations SET ${assignments} WHERE id = ?`).run(...fields.map((f) => limits[f]), id);
    }
    return this.findOrganisation(id);
  }

  async createApiKey(key: NewApiKey): Promise<ApiKey> {
    const record: ApiKey = { ...key, id: newId('key'), createdAt: now(), revokedAt: null, rotatedAt: null, lastUsedAt: null };
    this.db
      .prepare('INSERT INTO api_keys (id, org_id, name, prefix, mode, scopes, secret_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        record.id,
        record.orgId,
        record.name,
        record.prefix,
        record.mode,
        JSON.stringify(record.scopes),
        record.secretHash,
        record.createdAt,
      );
    return record;
  }

  async findApiKey(orgId: string, id: string): Promise<ApiKey | null> {
    const row = this.prepare('SELECT * FROM api_keys WHERE org_id = ? AND id = ?').get(orgId, id) as KeyRow | undefined;
    return row ? toApiKey(row) : null;
  }

  /**
   * Every request's one store read, remembered while nothing in the file has changed: a key found
   * again is answered from memory after checking that no connection committed anything since
   * (`PRAGMA data_version`: another process, such as `gp-gateway key revoke`) and that this one
   * wrote nothing (`total_changes()`). That check costs 2.0 us against 5.7 for the lookup
   * (in-process), and a revoked key still fails on its next request. Unknown keys are not
   * remembered, and what is remembered is frozen, since every request with the key shares it.
   */
  async findApiKeyWithConnection(secretHash: string, connectionId: string | null): Promise<KeyWithConnection | null> {
    const dataVersion = this.dataVersion.get() as number;
    const ownChanges = this.ownChanges.get() as number;
    if (
      dataVersion !== this.keysReadAt.dataVersion ||
      ownChanges !== this.keysReadAt.ownChanges ||
      this.keysFound.size >= MAX_KEYS_REMEMBERED
    ) {
      this.keysFound.clear();
      this.keysReadAt = { dataVersion, ownChanges };
    }
    const remembered = connectionId === null ? secretHash : `${secretHash}\u0000${connectionId}`;
    const known = this.keysFound.get(remembered);
    if (known) return known;
    const found = this.readApiKeyWithConnection(secretHash, connectionId);
    if (found) this.keysFound.set(remembered, frozen(found));
    return found;
  }

  /**
   * Runs a write that touches no key or connection (an Idempotency-Key's record) without forgetting
   * the keys remembered: every write request makes two, and reading the key again after each cost
   * a write a tenth of the gateway's CPU (docs/performance.md#writes). Only when the memory was
   * current before the write is it declared current after it, so another write in between still
   * clears it.
   */
  private keepingKeys<T>(write: () => T): T {
    const current = (this.ownChanges.get() as number) === this.keysReadAt.ownChanges;
    const result = write();
    if (current) this.keysReadAt = { ...this.keysReadAt, ownChanges: this.ownChanges.get() as number };
    return result;
  }

  /**
   * The key read with a connection of its own organisation. Its row comes back as an array
   * (better-sqlite3's raw mode) and is named here: better-sqlite3 builds a row object property by
   * property through V8's slow path, which was a quarter of this read (7.0 against 5.3 us in-process).
   */
  private readApiKeyWithConnection(secretHash: string, connectionId: string | null): KeyWithConnection | null {
    const row = this.keyWithConnection.get(connectionId, secretHash) as KeyWithConnectionTuple | undefined;
    if (!row) return null;
    const [
      id,
      org_id,
      name,
      prefix,
      mode,
      scopes,
      secret_hash,
      created_at,
      revoked_at,
      rotated_at,
      last_used_at,
      cId,
      cName,
      cTokenHash,
      cCompany,
      cWhitelist,
      cCreatedAt,
    ] = row;
    return {
      key: toApiKey({ id, org_id, name, prefix, mode, scopes, secret_hash, created_at, revoked_at, rotated_at, last_used_at }),
      connection:
        cId === null
          ? null
          : toConnection({
              id: cId,
              org_id,
              name: cName!,
              agent_token_hash: cTokenHash,
              default_company: cCompany,
              write_whitelist: cWhitelist!,
              created_at: cCreatedAt!,
            }),
    };
  }

  async listApiKeys(orgId: string): Promise<ApiKey[]> {
    const rows = this.prepare('SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at, rowid').all(orgId) as KeyRow[];
    return rows.map(toApiKey);
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    this.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at.toISOString(), id);
  }

  async rotateApiKey(rotation: KeyRotation): Promise<ApiKey | null> {
    // One statement: the hash is swapped and the row returned atomically, so no reader ever sees
    // both secrets valid, or neither.
    const row = this.db
      .prepare(
        `UPDATE api_keys SET secret_hash = ?, prefix = ?, rotated_at = ?
         WHERE id = ? AND org_id = ? AND mode = ? AND revoked_at IS NULL RETURNING *`,
      )
      .get(rotation.secretHash, rotation.prefix, rotation.at.toISOString(), rotation.id, rotation.orgId, rotation.mode) as
      KeyRow | undefined;
    return row ? toApiKey(row) : null;
  }

  async revokeApiKey(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null> {
    return this.db.transaction(() => {
      const before = this.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').get(id) as Pick<KeyRow, 'revoked_at'> | undefined;
      if (!before) return null;
      const row = this.db
        .prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING *')
        .get(at.toISOString(), id) as KeyRow;
      return { key: toApiKey(row), revokedNow: before.revoked_at === null };
    })();
  }

  async createConnection(connection: NewConnection): Promise<Connection> {
    const record: Connection = { ...connection, id: newId('conn'), writeWhitelist: [], createdAt: now() };
    this.db
      .prepare('INSERT INTO connections (org_id, id, name, agent_token_hash, default_company, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(record.orgId, record.id, record.name, record.agentTokenHash, record.defaultCompany, record.createdAt);
    return record;
  }

  async findConnection(orgId: string, id: string): Promise<Connection | null> {
    const row = this.prepare('SELECT * FROM connections WHERE org_id = ? AND id = ?').get(orgId, id) as ConnectionRow | undefined;
    return row ? toConnection(row) : null;
  }

  async findConnectionByAgentTokenHash(tokenHash: string): Promise<Connection | null> {
    const row = this.prepare('SELECT * FROM connections WHERE agent_token_hash = ?').get(tokenHash) as ConnectionRow | undefined;
    return row ? toConnection(row) : null;
  }

  async agentTokenHashesHeld(tokenHashes: readonly string[]): Promise<Set<string>> {
    if (!tokenHashes.length) return new Set();
    // One parameter however many hashes: the list goes in as a JSON array.
    const held = this.prepare('SELECT agent_token_hash FROM connections WHERE agent_token_hash IN (SELECT value FROM json_each(?))')
      .pluck()
      .all(JSON.stringify(tokenHashes)) as string[];
    return new Set(held);
  }

  async setAgentTokenHash(orgId: string, id: string, tokenHash: string | null): Promise<Connection | null> {
    const row = this.prepare('UPDATE connections SET agent_token_hash = ? WHERE org_id = ? AND id = ? AND id <> ? RETURNING *').get(
      tokenHash,
      orgId,
      id,
      SANDBOX_CONNECTION_ID,
    ) as ConnectionRow | undefined;
    return row ? toConnection(row) : null;
  }

  async listConnections(orgId: string): Promise<ConnectionWithPresence[]> {
    const rows = this.db
      .prepare('SELECT * FROM connections WHERE org_id = ? ORDER BY id <> ?, created_at, rowid')
      .all(orgId, SANDBOX_CONNECTION_ID) as ConnectionRow[];
    const liveSince = new Date(Date.now() - AGENT_PRESENCE_STALE_MS).toISOString();
    const sessions = this.prepare(
      'SELECT * FROM agent_sessions WHERE connection_id = ? AND last_seen_at >= ? ORDER BY connected_at DESC, rowid DESC',
    );
    return rows.map((row) => {
      const agents = (sessions.all(row.id, liveSince) as SessionRow[]).map(toSessionInfo);
      return {
        ...toConnection(row),
        presence: presenceOf(row, agents),
        agents,
        lastAgentDetails: row.last_agent_details ? (JSON.parse(row.last_agent_details) as AgentDetails) : null,
      };
    });
  }

  async setDefaultCompany(orgId: string, id: string, company: string | null): Promise<Connection | null> {
    this.prepare('UPDATE connections SET default_company = ? WHERE org_id = ? AND id = ?').run(company, orgId, id);
    return this.findConnection(orgId, id);
  }

  async setWriteWhitelist(orgId: string, id: string, objects: string[]): Promise<Connection | null> {
    this.prepare('UPDATE connections SET write_whitelist = ? WHERE org_id = ? AND id = ?').run(JSON.stringify(objects), orgId, id);
    return this.findConnection(orgId, id);
  }

  async recordAgentConnected(session: NewAgentSession): Promise<void> {
    const at = session.at.toISOString();
    const details = session.details ? JSON.stringify(session.details) : null;
    this.db.transaction(() => {
      // Sessions of gateways that died without saying so are dropped here rather than by a timer.
      this.prepare('DELETE FROM agent_sessions WHERE last_seen_at < ?').run(
        new Date(session.at.getTime() - AGENT_PRESENCE_STALE_MS).toISOString(),
      );
      this.prepare(
        `INSERT INTO agent_sessions (id, connection_id, gateway_id, agent_version, agent_host, companies, details, connected_at, last_seen_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        session.id,
        session.connectionId,
        session.gatewayId,
        session.agentVersion,
        session.agentHost,
        JSON.stringify(session.companies),
        details,
        at,
        at,
      );
      this.prepare(
        'UPDATE connections SET last_agent_seen_at = ?, last_agent_version = ?, last_agent_host = ?, last_agent_details = ? WHERE id = ?',
      ).run(at, session.agentVersion, session.agentHost, details, session.connectionId);
    })();
  }

  async recordAgentsSeen(sessionIds: string[], at: Date): Promise<void> {
    const seen = at.toISOString();
    const session = this.prepare('UPDATE agent_sessions SET last_seen_at = ? WHERE id = ? RETURNING connection_id');
    const connection = this.prepare('UPDATE connections SET last_agent_seen_at = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const id of sessionIds) {
        const row = session.get(seen, id) as { connection_id: string } | undefined;
        if (row) connection.run(seen, row.connection_id);
      }
    })();
  }

  async recordAgentDetails(sessionId: string, update: { companies: string[]; details: AgentDetails }, at: Date): Promise<void> {
    const seen = at.toISOString();
    const details = JSON.stringify(update.details);
    this.db.transaction(() => {
      const row = this.db
        .prepare('UPDATE agent_sessions SET companies = ?, details = ?, last_seen_at = ? WHERE id = ? RETURNING connection_id')
        .get(JSON.stringify(update.companies), details, seen, sessionId) as { connection_id: string } | undefined;
      if (row)
        this.prepare('UPDATE connections SET last_agent_seen_at = ?, last_agent_details = ? WHERE id = ?').run(
          seen,
          details,
          row.connection_id,
        );
    })();
  }

  async recordAgentDisconnected(sessionId: string, at: Date): Promise<void> {
    this.db.transaction(() => {
      const row = this.prepare('DELETE FROM agent_sessions WHERE id = ? RETURNING connection_id, agent_version, agent_host, details').get(
        sessionId,
      ) as Pick<SessionRow, 'connection_id' | 'agent_version' | 'agent_host' | 'details'> | undefined;
      if (!row) return;
      this.prepare(
        'UPDATE connections SET last_agent_seen_at = ?, last_agent_version = ?, last_agent_host = ?, last_agent_details = COALESCE(?, last_agent_details) WHERE id = ?',
      ).run(at.toISOString(), row.agent_version, row.agent_host, row.details, row.connection_id);
    })();
  }

  async createUser(user: NewUser): Promise<User | null> {
    return this.dashboard.createUser(user);
  }

  async findUser(id: string): Promise<User | null> {
    return this.dashboard.findUser(id);
  }

  async findUserForSignIn(email: string): Promise<{ user: User; passwordHash: string | null } | null> {
    return this.dashboard.findUserForSignIn(email);
  }

  async listUsers(orgId: string): Promise<User[]> {
    return this.dashboard.listUsers(orgId);
  }

  async setUserRole(orgId: string, id: string, role: UserRole): Promise<User | null> {
    return this.dashboard.setUserRole(orgId, id, role);
  }

  async removeUser(orgId: string, id: string): Promise<boolean> {
    return this.dashboard.removeUser(orgId, id);
  }

  async setUserPassword(id: string, passwordHash: string): Promise<void> {
    this.dashboard.setUserPassword(id, passwordHash);
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    this.dashboard.recordSignIn(id, at);
  }

  async createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): Promise<void> {
    this.dashboard.createSignInLink(link);
  }

  async useSignInLink(tokenHash: string, at: Date): Promise<User | null> {
    return this.dashboard.useSignInLink(tokenHash, at);
  }

  async createDashboardSession(session: { idHash: string; userId: string; at: Date }): Promise<void> {
    this.dashboard.createSession(session);
  }

  async findDashboardSession(idHash: string): Promise<DashboardSession | null> {
    return this.dashboard.findSession(idHash);
  }

  async touchDashboardSession(idHash: string, at: Date): Promise<void> {
    this.dashboard.touchSession(idHash, at);
  }

  async deleteDashboardSession(idHash: string): Promise<void> {
    this.dashboard.deleteSession(idHash);
  }

  async deleteDashboardSessionsOf(userId: string): Promise<void> {
    this.dashboard.deleteSessionsOf(userId);
  }

  async recordUsage(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): Promise<void> {
    this.usage.record(batch);
  }

  async listDailyUsage(orgId: string, sinceDay: string): Promise<DailyUsage[]> {
    return this.usage.listDaily(orgId, sinceDay);
  }

  async listRecentRequests(orgId: string, filter: { keyId?: string; statusClass?: string; limit: number }): Promise<RequestRecord[]> {
    return this.usage.listRecent(orgId, filter);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
    return this.keepingKeys(() => this.idempotency.claim(claim));
  }

  async completeIdempotencyKey(orgId: string, key: string, operationId: string, response: StoredResponse): Promise<boolean> {
    return this.keepingKeys(() => this.idempotency.complete(orgId, key, operationId, response));
  }

  async releaseIdempotencyKey(orgId: string, key: string, operationId: string): Promise<void> {
    this.keepingKeys(() => this.idempotency.release(orgId, key, operationId));
  }

  async suspendIdempotencyKey(orgId: string, key: string, operationId: string, at: Date): Promise<void> {
    this.keepingKeys(() => this.idempotency.suspend(orgId, key, operationId, at));
  }

  async deleteExpiredIdempotencyKeys(at: Date): Promise<number> {
    return this.idempotency.deleteExpired(at);
  }

  async recordAudit(entry: NewAuditEntry): Promise<void> {
    this.dashboard.recordAudit(entry);
  }

  async listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    return this.dashboard.listAudit(orgId, limit);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
