import type { KeyMode } from '../../infrastructure/store/store.ts';
import { mintAgentToken, mintApiKey, mintSignInToken } from '../auth/secrets.ts';
import { overlapEnd, type RotationOverlap } from '../auth/rotationOverlap.ts';
import { LIMIT_BOUNDS } from '../limits/limits.ts';
import {
  SANDBOX_CONNECTION_ID,
  type ApiKey,
  type AuditEntry,
  type AuditFilter,
  type DailyUsage,
  type RequestFilter,
  type RequestRecord,
  type Connection,
  type ConnectionWithPresence,
  type LimitOverrides,
  type Organisation,
  type Store,
  type User,
} from '../../infrastructure/store/store.ts';
import { checkWriteWhitelist } from '../writes/writableObjects.ts';
import { withLivePresence, type LiveAgents } from './livePresence.ts';
import { createOrganisationWithSandbox } from './sandbox.ts';
import { AdminError, checkRole, checkScopes, companyId, emailOf, nameOf } from './adminInput.ts';

// Front ends catch AdminError, and the CLI checks scopes, with the operations that use them.
export { AdminError, checkScopes } from './adminInput.ts';

/** A key just created or rotated, with its secret: the one moment the secret exists outside the client. */
export interface IssuedApiKey {
  key: ApiKey;
  secret: string;
}

/** A rotation's result: the new secret, and until when the old one keeps working (null: it stopped at once). */
export interface RotatedApiKey extends IssuedApiKey {
  oldWorksUntil: Date | null;
}

/** A connection just created, with the agent token to give whoever installs its agent. */
export interface CreatedConnection {
  connection: Connection;
  agentToken: string;
}

/** A token rotation's result: the new token, and until when the old one opens sockets (null: it stopped at once). */
export interface RotatedAgentToken extends CreatedConnection {
  oldWorksUntil: Date | null;
}

export interface ApiKeyRequest {
  orgId: string;
  name: string;
  mode: KeyMode;
  /** Scope names as given; checked, de-duplicated and put in a fixed order. */
  scopes: readonly string[];
}

export interface ConnectionRequest {
  orgId: string;
  name: string;
  /** A GP company id as given, e.g. `two`; null or absent for none. */
  defaultCompany?: string | null;
}

/** Who makes a change, as the audit log records it. */
export interface Actor {
  /** A dashboard user's email, `operator CLI`, or `API key key_…`. */
  name: string;
  /** The client's address; null where there is none (the CLI). */
  address: string | null;
}

export const OPERATOR_CLI: Actor = { name: 'operator CLI', address: null };

/** A user just invited, with the one-time link token that lets them set a password. */
export interface InvitedUser {
  user: User;
  signInToken: string;
  expiresAt: Date;
}

/** How long a sign-in link (first password, invitation) stays valid. */
const SIGN_IN_LINK_TTL_MS = 72 * 3600_000;

/**
 * The operations an operator performs on organisations, API keys, connections and dashboard users,
 * returning data. Every front end calls this, never the store: the operator CLI, `start`, the
 * key-rotation route, the dashboard, the test harnesses and the bench. Secrets are minted, prefixed
 * and hashed here only, and only their hashes reach the store. Every change is written to the
 * organisation's audit log with its actor (`by`).
 */
export class AdminService {
  private readonly store: Store;
  private readonly actor: Actor;
  private readonly live: LiveAgents | null;

  /** `live`: Redis presence, when instances announce their agents there (admin/livePresence.ts). */
  constructor(store: Store, actor: Actor = OPERATOR_CLI, live: LiveAgents | null = null) {
    this.store = store;
    this.actor = actor;
    this.live = live;
  }

  /** The same operations, with `actor` recorded as who made each change. */
  by(actor: Actor): AdminService {
    return new AdminService(this.store, actor, this.live);
  }

  /** A new organisation, with its sandbox connection for test keys. */
  async createOrganisation(name: string): Promise<Organisation> {
    const trimmed = nameOf(name, 'the organisation needs a name');
    const existing = await this.store.findOrganisationByName(trimmed);
    if (existing) throw new AdminError(`an organisation named "${trimmed}" already exists: ${existing.id}`);
    return createOrganisationWithSandbox(this.store, trimmed);
  }

  /** The organisation with this id, else the one with exactly this name; null when neither exists. */
  async findOrganisation(idOrName: string): Promise<Organisation | null> {
    return (await this.store.findOrganisation(idOrName)) ?? (await this.store.findOrganisationByName(idOrName));
  }

  listOrganisations(): Promise<Organisation[]> {
    return this.store.listOrganisations();
  }

  /**
   * Changes the limits given (a number within LIMIT_BOUNDS, or null for the gateway's default) and
   * returns the organisation as it now is.
   */
  async setLimits(orgId: string, changes: Partial<LimitOverrides>): Promise<Organisation> {
    for (const field of Object.keys(changes) as (keyof LimitOverrides)[]) {
      const value = changes[field];
      const { min, max } = LIMIT_BOUNDS[field];
      if (value !== null && value !== undefined && !(Number.isSafeInteger(value) && value >= min && value <= max)) {
        throw new AdminError(`${LIMIT_NAMES[field]} must be a whole number from ${min} to ${max.toLocaleString('en')}`);
      }
    }
    const updated = await this.store.setOrganisationLimits(orgId, changes);
    if (!updated) throw new AdminError(`there is no organisation with the id "${orgId}"`);
    await this.audit(orgId, 'organisation.limits.set', updated.name, { ...changes });
    return updated;
  }

  async issueApiKey(request: ApiKeyRequest): Promise<IssuedApiKey> {
    const name = nameOf(request.name, 'the key needs a name, e.g. "Production"');
    const scopes = checkScopes(request.scopes);
    const minted = mintApiKey(request.mode);
    const key = await this.store.createApiKey({
      orgId: request.orgId,
      name,
      mode: request.mode,
      scopes,
      prefix: minted.prefix,
      secretHash: minted.secretHash,
    });
    await this.audit(key.orgId, 'key.created', describeKey(key), { mode: key.mode, scopes: key.scopes });
    return { key, secret: minted.secret };
  }

  listApiKeys(orgId: string): Promise<ApiKey[]> {
    return this.store.listApiKeys(orgId);
  }

  /**
   * Revokes a key for good; refused from its next request on. An earlier revocation keeps its time
   * (`revokedNow` false). Null when there is no such key, or (with `orgId`) none in that
   * organisation: the dashboard names its organisation, the operator CLI any key.
   */
  async revokeApiKey(id: string, scope: { orgId?: string } = {}): Promise<{ key: ApiKey; revokedNow: boolean } | null> {
    if (scope.orgId !== undefined && !(await this.store.findApiKey(scope.orgId, id))) return null;
    const revoked = await this.store.revokeApiKey(id, new Date());
    if (revoked?.revokedNow) await this.audit(revoked.key.orgId, 'key.revoked', describeKey(revoked.key));
    return revoked;
  }

  /**
   * Gives a non-revoked key of the organisation a new secret (same id, name, mode and scopes). The
   * old one keeps working for `keepOldFor` (docs/decisions.md#rotation-with-an-overlap; by default it
   * fails from the moment this resolves); a secret kept from an earlier rotation ends now. Null when
   * the key is unknown, revoked or foreign, or live while `liveAllowed` is false (a test key may not
   * be handed a live secret, docs/api.md#modes-and-the-sandbox).
   */
  async rotateApiKey(
    orgId: string,
    id: string,
    options: { liveAllowed: boolean; keepOldFor?: RotationOverlap },
  ): Promise<RotatedApiKey | null> {
    const target = await this.store.findApiKey(orgId, id);
    if (!target || target.revokedAt !== null || (target.mode === 'live' && !options.liveAllowed)) return null;
    const minted = mintApiKey(target.mode);
    const at = new Date();
    const keepOldUntil = overlapEnd(options.keepOldFor ?? 'now', at);
    const key = await this.store.rotateApiKey({
      orgId,
      id,
      mode: target.mode,
      prefix: minted.prefix,
      secretHash: minted.secretHash,
      at,
      keepOldUntil,
    });
    // Revoked between the lookup and the swap: as unknown as if it had been revoked before.
    if (!key) return null;
    await this.audit(orgId, 'key.rotated', describeKey(key), { oldWorksUntil: keepOldUntil?.toISOString() ?? null });
    return { key, secret: minted.secret, oldWorksUntil: keepOldUntil };
  }

  /** Ends the overlap of a key's last rotation: its old secret fails from now on. Null when the organisation has no such key. */
  async endApiKeyOverlap(orgId: string, id: string): Promise<ApiKey | null> {
    const before = await this.store.findApiKey(orgId, id);
    if (!before) return null;
    const key = await this.store.endApiKeyOverlap(orgId, id);
    if (key && before.previousSecretHash !== null) await this.audit(orgId, 'key.old-secret.ended', describeKey(key));
    return key;
  }

  async createConnection(request: ConnectionRequest): Promise<CreatedConnection> {
    const name = nameOf(request.name, 'the connection needs a name, e.g. "Head office"');
    const defaultCompany = request.defaultCompany == null ? null : companyId(request.defaultCompany);
    const minted = mintAgentToken();
    const connection = await this.store.createConnection({ orgId: request.orgId, name, agentTokenHash: minted.tokenHash, defaultCompany });
    await this.audit(connection.orgId, 'connection.created', describeConnection(connection), { defaultCompany });
    return { connection, agentToken: minted.token };
  }

  /**
   * Gives a live connection a new agent token, shown this once. The old token keeps opening sockets
   * for `keepOldFor` (docs/decisions.md#rotation-with-an-overlap), so its agents keep serving until
   * IT installs the new token; after that (at once by default) it opens nothing, and the running
   * gateways drop the sockets still open on it within their token check interval
   * (docs/decisions.md#agent-tokens). Also re-issues a revoked token.
   */
  async rotateAgentToken(orgId: string, connectionId: string, keepOldFor: RotationOverlap = 'now'): Promise<RotatedAgentToken> {
    if (connectionId === SANDBOX_CONNECTION_ID) throw new AdminError('the sandbox is served by the built-in agent; it has no agent token');
    const minted = mintAgentToken();
    const before = await this.store.findConnection(orgId, connectionId);
    // A revoked token is not brought back by an overlap.
    const keepOldUntil = before?.agentTokenHash ? overlapEnd(keepOldFor, new Date()) : null;
    const connection =
      (await this.store.setAgentTokenHash(orgId, connectionId, minted.tokenHash, keepOldUntil)) ?? noSuchConnection(connectionId);
    await this.audit(orgId, 'connection.agent-token.rotated', describeConnection(connection), {
      oldWorksUntil: keepOldUntil?.toISOString() ?? null,
    });
    return { connection, agentToken: minted.token, oldWorksUntil: keepOldUntil };
  }

  /** Ends the overlap of a connection's last token rotation: agents still on the old token are dropped. */
  async endAgentTokenOverlap(orgId: string, connectionId: string): Promise<Connection> {
    const connection = (await this.store.endAgentTokenOverlap(orgId, connectionId)) ?? noSuchConnection(connectionId);
    await this.audit(orgId, 'connection.agent-token.old-ended', describeConnection(connection));
    return connection;
  }

  /**
   * Revokes a live connection's agent token: no token opens a socket for it until rotateAgentToken
   * issues a new one, and the sockets open on it are dropped as on rotation.
   */
  async revokeAgentToken(orgId: string, connectionId: string): Promise<Connection> {
    if (connectionId === SANDBOX_CONNECTION_ID) throw new AdminError('the sandbox is served by the built-in agent; it has no agent token');
    const connection = (await this.store.setAgentTokenHash(orgId, connectionId, null)) ?? noSuchConnection(connectionId);
    await this.audit(orgId, 'connection.agent-token.revoked', describeConnection(connection));
    return connection;
  }

  /** The organisation's connections (the sandbox first) with what the gateways know of their agents. */
  async listConnections(orgId: string): Promise<ConnectionWithPresence[]> {
    const connections = await this.store.listConnections(orgId);
    return this.live ? withLivePresence(connections, this.live) : connections;
  }

  /** Sets (or with null clears) the company that requests without X-Company go to. */
  async setDefaultCompany(orgId: string, connectionId: string, company: string | null): Promise<Connection> {
    const updated = await this.store.setDefaultCompany(orgId, connectionId, company === null ? null : companyId(company));
    if (!updated) return noSuchConnection(connectionId);
    await this.audit(orgId, 'connection.default-company.set', describeConnection(updated), { defaultCompany: updated.defaultCompany });
    return updated;
  }

  /**
   * The dashboard's default company: one of the companies the connection's agents report now (or
   * none). Unlike the operator's `set-default-company`, which only notes a company the agent lacks
   * (it may be set before the agent is), a company no agent reports is refused: every request without
   * X-Company would get 400.
   */
  async setReportedDefaultCompany(orgId: string, connectionId: string, company: string | null): Promise<Connection> {
    if (company !== null) {
      const id = companyId(company);
      const connection = (await this.listConnections(orgId)).find((c) => c.id === connectionId);
      if (!connection) return noSuchConnection(connectionId);
      const reported = connection.presence.companies;
      if (!reported.includes(id))
        throw new AdminError(
          reported.length
            ? `${id} is not a company the agent of "${connection.name}" reports (${reported.join(', ')}); choose one of those`
            : `no agent of "${connection.name}" is connected to report its companies; connect it first, then choose one of them`,
        );
    }
    return this.setDefaultCompany(orgId, connectionId, company);
  }

  /**
   * Replaces the objects `POST /v1/{object}` may write on the connection. Names are matched
   * case-insensitively; every bad one is reported at once. The sandbox is read-only.
   */
  async setWriteWhitelist(orgId: string, connectionId: string, objects: readonly string[]): Promise<Connection> {
    if (connectionId === SANDBOX_CONNECTION_ID) throw new AdminError('the sandbox is read-only; it has no write whitelist');
    const check = checkWriteWhitelist(objects);
    if (!check.ok) throw new AdminError('the write whitelist was not changed', check.problems);
    const updated = await this.store.setWriteWhitelist(orgId, connectionId, check.objects);
    if (!updated) return noSuchConnection(connectionId);
    await this.audit(orgId, 'connection.whitelist.set', describeConnection(updated), { objects: updated.writeWhitelist });
    return updated;
  }

  /**
   * Adds a dashboard user to the organisation (an email other organisations use too gets a user of
   * its own here, with its own password) and makes their one-time sign-in link, valid for
   * SIGN_IN_LINK_TTL_MS: they set their password through it. The first admin is invited this way by
   * the operator CLI, later users by an admin in the dashboard.
   */
  async inviteUser(request: { orgId: string; email: string; role: string }): Promise<InvitedUser> {
    const email = emailOf(request.email);
    const role = checkRole(request.role);
    const user = await this.store.createUser({ orgId: request.orgId, email, role });
    // Only this organisation's users are looked at: whether another organisation has the email is
    // never said (docs/decisions.md#one-email-in-several-organisations); it gets a user of its own.
    if (!user) throw new AdminError(`${email} is already a user of this organisation`);
    const link = await this.signInLinkFor(user);
    await this.audit(user.orgId, 'user.invited', user.email, { role });
    return { user, ...link };
  }

  /** A new one-time sign-in link for a user of the organisation (e.g. a lost invitation or password). */
  async newSignInLink(orgId: string, userId: string): Promise<{ signInToken: string; expiresAt: Date }> {
    const user = await this.store.findUser(userId);
    if (!user || user.orgId !== orgId) throw new AdminError('the organisation has no such user');
    const link = await this.signInLinkFor(user);
    await this.audit(orgId, 'user.sign-in-link.made', user.email);
    return link;
  }

  listUsers(orgId: string): Promise<User[]> {
    return this.store.listUsers(orgId);
  }

  /** Changes a user's role; the organisation keeps at least one admin. */
  async setUserRole(orgId: string, userId: string, role: string): Promise<User> {
    const wanted = checkRole(role);
    if (wanted !== 'admin') await this.keepAnAdmin(orgId, userId);
    const user = await this.store.setUserRole(orgId, userId, wanted);
    if (!user) throw new AdminError('the organisation has no such user');
    await this.audit(orgId, 'user.role.set', user.email, { role: wanted });
    return user;
  }

  /** Removes a user with their sessions; the organisation keeps at least one admin. */
  async removeUser(orgId: string, userId: string): Promise<void> {
    await this.keepAnAdmin(orgId, userId);
    const user = await this.store.findUser(userId);
    if (!user || user.orgId !== orgId || !(await this.store.removeUser(orgId, userId)))
      throw new AdminError('the organisation has no such user');
    await this.audit(orgId, 'user.removed', user.email);
  }

  /** Requests per key, UTC day and status class over the last `days` days (today included). */
  dailyUsage(orgId: string, days = 30): Promise<DailyUsage[]> {
    const since = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    return this.store.listDailyUsage(orgId, since);
  }

  /** The organisation's most recent requests, newest first, optionally of one key, status class, time range or request id. */
  recentRequests(orgId: string, filter: Partial<RequestFilter> = {}): Promise<RequestRecord[]> {
    return this.store.listRecentRequests(orgId, { ...filter, limit: filter.limit ?? 200 });
  }

  /** The organisation's audit log, newest first, those entries matching `filter` only. */
  listAudit(orgId: string, limit = 200, filter: AuditFilter = {}): Promise<AuditEntry[]> {
    return this.store.listAudit(orgId, limit, filter);
  }

  private async keepAnAdmin(orgId: string, userId: string): Promise<void> {
    const admins = (await this.store.listUsers(orgId)).filter((u) => u.role === 'admin');
    if (admins.length === 1 && admins[0]!.id === userId) throw new AdminError('the organisation must keep at least one admin');
  }

  private async signInLinkFor(user: User): Promise<{ signInToken: string; expiresAt: Date }> {
    const minted = mintSignInToken();
    const at = new Date();
    const expiresAt = new Date(at.getTime() + SIGN_IN_LINK_TTL_MS);
    await this.store.createSignInLink({ tokenHash: minted.tokenHash, userId: user.id, expiresAt, at });
    return { signInToken: minted.token, expiresAt };
  }

  private audit(orgId: string, action: string, target: string, details: Record<string, unknown> | null = null): Promise<void> {
    return this.store.recordAudit({
      orgId,
      at: new Date().toISOString(),
      actor: this.actor.name,
      action,
      target,
      details,
      address: this.actor.address,
    });
  }
}

function describeKey(key: ApiKey): string {
  return `${key.id} "${key.name}"`;
}

function describeConnection(connection: Connection): string {
  return `${connection.id} "${connection.name}"`;
}

/** How the limits are named in messages that do not come from a particular front end. */
const LIMIT_NAMES: Record<keyof LimitOverrides, string> = {
  requestsPerWindow: 'requests per window',
  windowSeconds: 'the window in seconds',
  maxInFlightPerConnection: 'requests in flight per connection',
};

function noSuchConnection(id: string): never {
  throw new AdminError(`the organisation has no connection with the id "${id}"`);
}
