import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AuditEntry, AuditFilter, DashboardSession, NewAuditEntry, NewUser, User, UserRole, UsersStore } from '../roles/users.ts';
import type { StoreEngine } from './engine.ts';
import { jsonText, parsedJson, toUser } from './rows.ts';

/** The dashboard's people on either engine (UsersStore): users, sign-in links, sessions and the audit log. */
export class UsersTables implements UsersStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  private get db() {
    return this.engine.db;
  }

  async createUser(user: NewUser): Promise<User | null> {
    const row = await this.db
      .insertInto('users')
      .values({
        id: `user_${randomBytes(12).toString('base64url')}`,
        org_id: user.orgId,
        email: user.email.toLowerCase(),
        role: user.role,
        created_at: new Date().toISOString(),
      })
      .onConflict((conflict) => conflict.columns(['org_id', 'email']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findUser(id: string): Promise<User | null> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findUsersForSignIn(email: string): Promise<{ user: User; passwordHash: string | null }[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .orderBy('created_at')
      .orderBy(sql.ref(this.engine.insertionOrder))
      .execute();
    return rows.map((row) => ({ user: toUser(row), passwordHash: row.password_hash }));
  }

  async listUsers(orgId: string): Promise<User[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at')
      .orderBy(sql.ref(this.engine.insertionOrder))
      .execute();
    return rows.map(toUser);
  }

  async setUserRole(orgId: string, id: string, role: UserRole): Promise<User | null> {
    const row = await this.db
      .updateTable('users')
      .set({ role })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async removeUser(orgId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('users').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async setUserPassword(id: string, passwordHash: string): Promise<void> {
    await this.engine.transaction(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
      await trx.deleteFrom('dashboard_sessions').where('user_id', '=', id).execute();
      await trx.deleteFrom('sign_in_links').where('user_id', '=', id).execute();
    });
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    await this.engine.transaction(async (trx) => {
      await trx.updateTable('users').set({ last_sign_in_at: at.toISOString() }).where('id', '=', id).execute();
      await trx.deleteFrom('sign_in_links').where('user_id', '=', id).execute();
    });
  }

  async createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): Promise<void> {
    await this.engine.transaction(async (trx) => {
      await trx.deleteFrom('sign_in_links').where('user_id', '=', link.userId).execute();
      await trx
        .insertInto('sign_in_links')
        .values({
          token_hash: link.tokenHash,
          user_id: link.userId,
          created_at: link.at.toISOString(),
          expires_at: link.expiresAt.toISOString(),
        })
        .execute();
    });
  }

  async isSignInLinkLive(tokenHash: string, at: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('sign_in_links')
      .select('token_hash')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at.toISOString())
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * One statement: of several requests spending the same link at once, one updates the row; the
   * others find `used_at` set (PostgreSQL re-checks the condition after the first commits; SQLite
   * runs one writer at a time).
   */
  async useSignInLink(tokenHash: string, at: Date): Promise<User | null> {
    const now = at.toISOString();
    const used = await this.db
      .updateTable('sign_in_links')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return used ? this.findUser(used.user_id) : null;
  }

  async createDashboardSession(session: { idHash: string; userId: string; at: Date }): Promise<void> {
    const at = session.at.toISOString();
    await this.db
      .insertInto('dashboard_sessions')
      .values({ id_hash: session.idHash, user_id: session.userId, created_at: at, last_seen_at: at })
      .execute();
  }

  async findDashboardSession(idHash: string): Promise<DashboardSession | null> {
    const row = await this.db
      .selectFrom('dashboard_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('u')
      .select(['s.created_at as session_created_at', 's.last_seen_at as session_last_seen_at'])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst();
    return row ? { user: toUser(row), createdAt: row.session_created_at, lastSeenAt: row.session_last_seen_at } : null;
  }

  async touchDashboardSession(idHash: string, at: Date): Promise<void> {
    await this.db.updateTable('dashboard_sessions').set({ last_seen_at: at.toISOString() }).where('id_hash', '=', idHash).execute();
  }

  async deleteDashboardSession(idHash: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteDashboardSessionsOf(userId: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).execute();
  }

  async setDashboardFlash(idHash: string, sealed: string | null): Promise<void> {
    await this.db.updateTable('dashboard_sessions').set({ flash: sealed }).where('id_hash', '=', idHash).execute();
  }

  async takeDashboardFlash(idHash: string): Promise<string | null> {
    const row = await this.db.selectFrom('dashboard_sessions').select('flash').where('id_hash', '=', idHash).executeTakeFirst();
    if (!row?.flash) return null;
    // Cleared only if still the one read: of two views at once, exactly one clears it and shows it.
    const cleared = await this.db
      .updateTable('dashboard_sessions')
      .set({ flash: null })
      .where('id_hash', '=', idHash)
      .where('flash', '=', row.flash)
      .executeTakeFirst();
    return cleared.numUpdatedRows > 0n ? row.flash : null;
  }

  async recordAudit(entry: NewAuditEntry): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        org_id: entry.orgId,
        at: entry.at,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        details: entry.details === null ? null : jsonText(entry.details),
        address: entry.address,
      })
      .execute();
  }

  async listAudit(orgId: string, limit: number, filter: AuditFilter = {}): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_log').selectAll().where('org_id', '=', orgId);
    if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    if (filter.before !== undefined) query = query.where('at', '<', filter.before);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    const rows = await query.orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      orgId: row.org_id,
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      details: row.details === null ? null : parsedJson<Record<string, unknown>>(row.details),
      address: row.address,
    }));
  }
}
