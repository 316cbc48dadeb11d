import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AuditEntry, DashboardSession, NewAuditEntry, NewUser, User, UserRole } from '../store.ts';

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
  details: string | null;
  address: string | null;
}

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
 * The SQLite side of the dashboard's part of the Store: users, sign-in links, sessions and the
 * audit log (tables of migration step 2). SqliteStore delegates to this; it takes the store's
 * statement cache so each statement is prepared once.
 */
export class SqliteDashboardTables {
  private readonly db: Database.Database;
  private readonly prepare: (sql: string) => Database.Statement;

  constructor(db: Database.Database, prepare: (sql: string) => Database.Statement) {
    this.db = db;
    this.prepare = prepare;
  }

  createUser(user: NewUser): User | null {
    const row: UserRow = {
      id: `user_${randomBytes(12).toString('base64url')}`,
      org_id: user.orgId,
      email: user.email.toLowerCase(),
      role: user.role,
      password_hash: null,
      created_at: new Date().toISOString(),
      last_sign_in_at: null,
    };
    const inserted = this.prepare(
      `INSERT INTO users (id, org_id, email, role, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`,
    ).run(row.id, row.org_id, row.email, row.role, row.created_at);
    return inserted.changes ? toUser(row) : null;
  }

  findUser(id: string): User | null {
    const row = this.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    return row ? toUser(row) : null;
  }

  findUserForSignIn(email: string): { user: User; passwordHash: string | null } | null {
    const row = this.prepare('SELECT * FROM users WHERE email = ?').get(email.toLowerCase()) as UserRow | undefined;
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  listUsers(orgId: string): User[] {
    return (this.prepare('SELECT * FROM users WHERE org_id = ? ORDER BY created_at, rowid').all(orgId) as UserRow[]).map(toUser);
  }

  setUserRole(orgId: string, id: string, role: UserRole): User | null {
    const row = this.prepare('UPDATE users SET role = ? WHERE org_id = ? AND id = ? RETURNING *').get(role, orgId, id) as
      UserRow | undefined;
    return row ? toUser(row) : null;
  }

  removeUser(orgId: string, id: string): boolean {
    return this.prepare('DELETE FROM users WHERE org_id = ? AND id = ?').run(orgId, id).changes > 0;
  }

  setUserPassword(id: string, passwordHash: string): void {
    this.db.transaction(() => {
      this.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, id);
      this.prepare('DELETE FROM dashboard_sessions WHERE user_id = ?').run(id);
    })();
  }

  recordSignIn(id: string, at: Date): void {
    this.prepare('UPDATE users SET last_sign_in_at = ? WHERE id = ?').run(at.toISOString(), id);
  }

  createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): void {
    this.prepare('INSERT INTO sign_in_links (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
      link.tokenHash,
      link.userId,
      link.at.toISOString(),
      link.expiresAt.toISOString(),
    );
  }

  useSignInLink(tokenHash: string, at: Date): User | null {
    const now = at.toISOString();
    const used = this.prepare(
      'UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id',
    ).get(now, tokenHash, now) as { user_id: string } | undefined;
    return used ? this.findUser(used.user_id) : null;
  }

  createSession(session: { idHash: string; userId: string; at: Date }): void {
    const at = session.at.toISOString();
    this.prepare('INSERT INTO dashboard_sessions (id_hash, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)').run(
      session.idHash,
      session.userId,
      at,
      at,
    );
  }

  findSession(idHash: string): DashboardSession | null {
    const row = this.prepare(
      `SELECT s.created_at AS session_created_at, s.last_seen_at, u.*
       FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?`,
    ).get(idHash) as (UserRow & { session_created_at: string; last_seen_at: string }) | undefined;
    return row ? { user: toUser(row), createdAt: row.session_created_at, lastSeenAt: row.last_seen_at } : null;
  }

  touchSession(idHash: string, at: Date): void {
    this.prepare('UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?').run(at.toISOString(), idHash);
  }

  deleteSession(idHash: string): void {
    this.prepare('DELETE FROM dashboard_sessions WHERE id_hash = ?').run(idHash);
  }

  deleteSessionsOf(userId: string): void {
    this.prepare('DELETE FROM dashboard_sessions WHERE user_id = ?').run(userId);
  }

  recordAudit(entry: NewAuditEntry): void {
    this.prepare('INSERT INTO audit_log (org_id, at, actor, action, target, details, address) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      entry.orgId,
      entry.at,
      entry.actor,
      entry.action,
      entry.target,
      entry.details === null ? null : JSON.stringify(entry.details),
      entry.address,
    );
  }

  listAudit(orgId: string, limit: number): AuditEntry[] {
    const rows = this.prepare('SELECT * FROM audit_log WHERE org_id = ? ORDER BY id DESC LIMIT ?').all(orgId, limit) as AuditRow[];
    return rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
      address: row.address,
    }));
  }
}
