import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { NewOAuthGrant, OAuthAccess, OAuthGrant, OAuthScope, OAuthStore, OAuthTokenHashes } from '../roles/oauth.ts';
import type { StoreEngine } from './engine.ts';
import { jsonText, parsedJson, toConnection } from './rows.ts';
import type { OAuthGrantsTable } from './schema.ts';

type GrantRow = Selectable<OAuthGrantsTable> & { user_email: string | null };

function toGrant(row: GrantRow): OAuthGrant {
  return {
    id: row.id,
    orgId: row.org_id,
    userId: row.user_id,
    userEmail: row.user_email,
    clientId: row.client_id,
    clientName: row.client_name,
    connectionId: row.connection_id,
    scopes: parsedJson<OAuthScope[]>(row.scopes),
    resource: row.resource,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

const tokenColumns = (tokens: OAuthTokenHashes) => ({
  access_hash: tokens.accessHash,
  access_expires_at: tokens.accessExpiresAt.toISOString(),
  refresh_hash: tokens.refreshHash,
  refresh_expires_at: tokens.refreshExpiresAt.toISOString(),
});

/** OAuth clients and grants on either engine (OAuthStore). */
export class OAuthTables implements OAuthStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  private get db() {
    return this.engine.db;
  }

  /** Grants with their user's email; a removed user's grants have none, and reach nothing. */
  private grants() {
    return this.db
      .selectFrom('oauth_grants as g')
      .leftJoin('users as u', 'u.id', 'g.user_id')
      .selectAll('g')
      .select('u.email as user_email');
  }

  private async grantById(id: string): Promise<OAuthGrant | null> {
    const row = await this.grants().where('g.id', '=', id).executeTakeFirst();
    return row ? toGrant(row) : null;
  }

  async saveOAuthClient(clientId: string, metadata: Record<string, unknown>, at: Date): Promise<void> {
    await this.db
      .insertInto('oauth_clients')
      .values({ client_id: clientId, metadata: jsonText(metadata), created_at: at.toISOString() })
      .execute();
  }

  async findOAuthClient(clientId: string): Promise<Record<string, unknown> | null> {
    const row = await this.db.selectFrom('oauth_clients').select('metadata').where('client_id', '=', clientId).executeTakeFirst();
    return row ? parsedJson<Record<string, unknown>>(row.metadata) : null;
  }

  async createOAuthGrant(grant: NewOAuthGrant): Promise<OAuthGrant> {
    const id = `grant_${randomBytes(12).toString('base64url')}`;
    await this.db
      .insertInto('oauth_grants')
      .values({
        id,
        org_id: grant.orgId,
        user_id: grant.userId,
        client_id: grant.clientId,
        client_name: grant.clientName,
        connection_id: grant.connectionId,
        scopes: jsonText(grant.scopes),
        resource: grant.resource,
        created_at: grant.at.toISOString(),
        code_hash: grant.codeHash,
        code_challenge: grant.codeChallenge,
        redirect_uri: grant.redirectUri,
        code_expires_at: grant.codeExpiresAt.toISOString(),
      })
      .execute();
    return (await this.grantById(id))!;
  }

  async findOAuthCode(codeHash: string, clientId: string, at: Date) {
    const row = await this.grants()
      .where('g.code_hash', '=', codeHash)
      .where('g.client_id', '=', clientId)
      .where('g.code_used_at', 'is', null)
      .where('g.revoked_at', 'is', null)
      .where('g.code_expires_at', '>', at.toISOString())
      .executeTakeFirst();
    return row ? { grant: toGrant(row), codeChallenge: row.code_challenge, redirectUri: row.redirect_uri } : null;
  }

  async redeemOAuthCode(codeHash: string, clientId: string, tokens: OAuthTokenHashes, at: Date): Promise<OAuthGrant | null> {
    const now = at.toISOString();
    // One statement: of two exchanges of one code at once, one spends it.
    const spent = await this.db
      .updateTable('oauth_grants')
      .set({ code_used_at: now, ...tokenColumns(tokens) })
      .where('code_hash', '=', codeHash)
      .where('client_id', '=', clientId)
      .where('code_used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('code_expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
    if (spent) return this.grantById(spent.id);
    await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now })
      .where('code_hash', '=', codeHash)
      .where('code_used_at', 'is not', null)
      .where('revoked_at', 'is', null)
      .execute();
    return null;
  }

  async rotateOAuthRefreshToken(refreshHash: string, clientId: string, tokens: OAuthTokenHashes, at: Date): Promise<OAuthGrant | null> {
    const now = at.toISOString();
    const rotated = await this.db
      .updateTable('oauth_grants')
      .set({ previous_refresh_hash: refreshHash, ...tokenColumns(tokens) })
      .where('refresh_hash', '=', refreshHash)
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .where('refresh_expires_at', '>', now)
      .where((eb) => eb.exists(eb.selectFrom('users').select('users.id').whereRef('users.id', '=', 'oauth_grants.user_id')))
      .returning('id')
      .executeTakeFirst();
    if (rotated) return this.grantById(rotated.id);
    await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: now })
      .where('previous_refresh_hash', '=', refreshHash)
      .where('revoked_at', 'is', null)
      .execute();
    return null;
  }

  async findOAuthAccess(accessHash: string): Promise<OAuthAccess | null> {
    const row = await this.grants().where('g.access_hash', '=', accessHash).where('g.revoked_at', 'is', null).executeTakeFirst();
    if (!row || row.user_email === null || row.access_expires_at === null) return null;
    const connection = await this.db
      .selectFrom('connections')
      .select(['id', 'org_id', 'name', 'agent_token_hash', 'default_company', 'write_whitelist', 'created_at'])
      .where('org_id', '=', row.org_id)
      .where('id', '=', row.connection_id)
      .executeTakeFirst();
    return { grant: toGrant(row), accessExpiresAt: row.access_expires_at, connection: connection ? toConnection(connection) : null };
  }

  async touchOAuthGrant(id: string, at: Date): Promise<void> {
    await this.db.updateTable('oauth_grants').set({ last_used_at: at.toISOString() }).where('id', '=', id).execute();
  }

  async listOAuthGrants(orgId: string, at: Date): Promise<OAuthGrant[]> {
    const rows = await this.grants()
      .where('g.org_id', '=', orgId)
      .where('g.revoked_at', 'is', null)
      .where('g.code_used_at', 'is not', null)
      .where('g.refresh_expires_at', '>', at.toISOString())
      .orderBy('g.created_at', 'desc')
      .execute();
    return rows.map(toGrant);
  }

  async revokeOAuthGrant(orgId: string, id: string, at: Date): Promise<OAuthGrant | null> {
    const revoked = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: at.toISOString() })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return revoked ? this.grantById(revoked.id) : null;
  }

  async revokeOAuthToken(tokenHash: string, clientId: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_grants')
      .set({ revoked_at: at.toISOString() })
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('access_hash', '=', tokenHash), eb('refresh_hash', '=', tokenHash)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
