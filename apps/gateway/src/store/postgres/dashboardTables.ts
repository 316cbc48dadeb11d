import { randomBytes } from 'node:crypto';
import type { AuditEntry, DashboardSession, NewAuditEntry, NewUser, User, UserRole } from '../store.ts';
import type { Database } from './database.ts';

interface UserRow {
  id: string;
  org_id: string;
  email: string;
  role: UserRole;
  password_hash: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

interface AuditRow {
  id: number;
  org_id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown> | null;
  address: string | null;
}

const USER_COLUMNS = 'id, org_id, email, role, password_hash, created_at, last_sign_in_at';

function toUser(row: UserRow): User {
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

/**
 * The PostgreSQL side of the dashboard's part of the Store: users, sign-in links, sessions and the
 * audit log (migrations/0002_dashboard.sql). PostgresStore delegates to this.
 */
export class PostgresDashboardTables {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async createUser(user: NewUser): Promise<User | null> {
    const row = await this.db.row<UserRow>(
      `INSERT INTO users (id, org_id, email, role, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
      [`user_${randomBytes(12).toString('base64url')}`, user.orgId, user.email.toLowerCase(), user.role, new Date().toISOString()],
    );
    return row ? toUser(row) : null;
  }

  async findUser(id: string): Promise<User | null> {
    const row = await this.db.row<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
    return row ? toUser(row) : null;
  }

  async findUserForSignIn(email: string): Promise<{ user: User; passwordHash: string | null } | null> {
    const row = await this.db.row<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email.toLowerCase()]);
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async listUsers(orgId: string): Promise<User[]> {
    return (await this.db.rows<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE org_id = $1 ORDER BY created_at, seq`, [orgId])).map(
      toUser,
    );
  }

  async setUserRole(orgId: string, id: string, role: UserRole): Promise<User | null> {
    const row = await this.db.row<UserRow>(`UPDATE users SET role = $1 WHERE org_id = $2 AND id = $3 RETURNING ${USER_COLUMNS}`, [
      role,
      orgId,
      id,
    ]);
    return row ? toUser(row) : null;
  }

  async removeUser(orgId: string, id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM users WHERE org_id = $1 AND id = $2', [orgId, id])).rowCount! > 0;
  }

  async setUserPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, id]);
      await client.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [id]);
    });
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE users SET last_sign_in_at = $1 WHERE id = $2', [at.toISOString(), id]);
  }

  async createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): Promise<void> {
    await this.db.query('INSERT INTO sign_in_links (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      link.tokenHash,
      link.userId,
      link.at.toISOString(),
      link.expiresAt.toISOString(),
    ]);
  }

  /**
   * One statement: of several requests spending the same link at once, PostgreSQL lets one update
   * the row and re-checks `used_at IS NULL` for the others after it commits, so they find nothing.
   */
  async useSignInLink(tokenHash: string, at: Date): Promise<User | null> {
    const now = at.toISOString();
    const used = await this.db.row<{ user_id: string }>(
      'UPDATE sign_in_links SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING user_id',
      [now, tokenHash],
    );
    return used ? this.findUser(used.user_id) : null;
  }

  async createSession(session: { idHash: string; userId: string; at: Date }): Promise<void> {
    const at = session.at.toISOString();
    await this.db.query('INSERT INTO dashboard_sessions (id_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)', [
      session.idHash,
      session.userId,
      at,
    ]);
  }

  async findSession(idHash: string): Promise<DashboardSession | null> {
    const row = await this.db.row<UserRow & { session_created_at: string; session_last_seen_at: string }>(
      `SELECT s.created_at AS session_created_at, s.last_seen_at AS session_last_seen_at, u.*
       FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1`,
      [idHash],
    );
    return row ? { user: toUser(row), createdAt: row.session_created_at, lastSeenAt: row.session_last_seen_at } : null;
  }

  async touchSession(idHash: string, at: Date): Promise<void> {
    await this.db.query('UPDATE dashboard_sessions SET last_seen_at = $1 WHERE id_hash = $2', [at.toISOString(), idHash]);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.query('DELETE FROM dashboard_sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteSessionsOf(userId: string): Promise<void> {
    await this.db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [userId]);
  }

  async recordAudit(entry: NewAuditEntry): Promise<void> {
    await this.db.query('INSERT INTO audit_log (org_id, at, actor, action, target, details, address) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      entry.orgId,
      entry.at,
      entry.actor,
      entry.action,
      entry.target,
      entry.details === null ? null : JSON.stringify(entry.details),
      entry.address,
    ]);
  }

  async listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    const rows = await this.db.rows<AuditRow>(
      'SELECT id, org_id, at, actor, action, target, details, address FROM audit_log WHERE org_id = $1 ORDER BY id DESC LIMIT $2',
      [orgId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details,
      address: row.address,
    }));
  }
}
