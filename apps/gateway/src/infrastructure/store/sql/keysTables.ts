import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { AGENT_PRESENCE_STALE_MS, type AgentDetails } from '../roles/agentSessions.ts';
import {
  SANDBOX_CONNECTION_ID,
  type ApiKey,
  type Connection,
  type ConnectionWithPresence,
  type KeyRotation,
  type KeyWithConnection,
  type KeysStore,
  type LimitOverrides,
  type NewApiKey,
  type NewConnection,
  type NewSandbox,
  type Organisation,
} from '../roles/keys.ts';
import { chunks } from './chunks.ts';
import type { StoreEngine } from './engine.ts';
import { jsonText, parsedJson, presenceOf, toApiKey, toConnection, toOrganisation, toSessionInfo } from './rows.ts';

const LIMIT_COLUMNS = {
  requestsPerWindow: 'rate_limit_requests',
  windowSeconds: 'rate_limit_window_s',
  maxInFlightPerConnection: 'max_in_flight',
} as const satisfies Record<keyof LimitOverrides, string>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
const now = () => new Date().toISOString();

/**
 * Organisations, API keys and connections (KeysStore) on either engine; the agents' presence they
 * are listed with is written by AgentSessionsTables. Every change
 * to what a key reads as (its row, its connection's) is followed by `keys.forget()`, so this process
 * never answers a request from a key remembered before the change; other processes learn of it
 * through the engine's key memory.
 */
export class KeysTables implements KeysStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  private get db() {
    return this.engine.db;
  }

  /** Orders rows made in the same millisecond as they were made. */
  private get insertionOrder() {
    return sql.ref(this.engine.insertionOrder);
  }

  async createOrganisation(name: string, contents: { sandbox?: NewSandbox } = {}): Promise<Organisation> {
    const createdAt = now();
    const id = newId('org');
    const { sandbox } = contents;
    await this.engine.transaction(async (trx) => {
      await trx.insertInto('organisations').values({ id, name, created_at: createdAt }).execute();
      if (sandbox)
        await trx
          .insertInto('connections')
          .values({
            org_id: id,
            id: SANDBOX_CONNECTION_ID,
            name: sandbox.name,
            agent_token_hash: null,
            default_company: sandbox.defaultCompany,
            created_at: createdAt,
          })
          .execute();
    });
    this.engine.keys.forget();
    return { id, name, createdAt, limits: { requestsPerWindow: null, windowSeconds: null, maxInFlightPerConnection: null } };
  }

  async findOrganisation(id: string): Promise<Organisation | null> {
    const row = await this.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toOrganisation(row) : null;
  }

  async findOrganisationByName(name: string): Promise<Organisation | null> {
    const row = await this.db.selectFrom('organisations').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? toOrganisation(row) : null;
  }

  async listOrganisations(): Promise<Organisation[]> {
    const rows = await this.db.selectFrom('organisations').selectAll().orderBy('created_at').orderBy(this.insertionOrder).execute();
    return rows.map(toOrganisation);
  }

  async setOrganisationLimits(id: string, limits: Partial<LimitOverrides>): Promise<Organisation | null> {
    const changes: Partial<Record<(typeof LIMIT_COLUMNS)[keyof LimitOverrides], number | null>> = {};
    for (const field of Object.keys(LIMIT_COLUMNS) as (keyof LimitOverrides)[])
      if (limits[field] !== undefined) changes[LIMIT_COLUMNS[field]] = limits[field];
    if (Object.keys(changes).length) await this.db.updateTable('organisations').set(changes).where('id', '=', id).execute();
    return this.findOrganisation(id);
  }

  async createApiKey(key: NewApiKey): Promise<ApiKey> {
    const record: ApiKey = {
      ...key,
      id: newId('key'),
      createdAt: now(),
      revokedAt: null,
      rotatedAt: null,
      lastUsedAt: null,
      previousSecretHash: null,
      previousSecretUntil: null,
    };
    await this.db
      .insertInto('api_keys')
      .values({
        id: record.id,
        org_id: record.orgId,
        name: record.name,
        prefix: record.prefix,
        mode: record.mode,
        scopes: jsonText(record.scopes),
        secret_hash: record.secretHash,
        created_at: record.createdAt,
      })
      .execute();
    return record;
  }

  async findApiKey(orgId: string, id: string): Promise<ApiKey | null> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return row ? toApiKey(row) : null;
  }

  /** Every request's one store read, answered from memory while nothing it reads has changed (sql/engine.ts KeyMemory). */
  async findApiKeyWithConnection(secretHash: string, connectionId: string | null): Promise<KeyWithConnection | null> {
    const memoKey = connectionId === null ? secretHash : `${secretHash}\u0000${connectionId}`;
    const known = this.engine.keys.get(memoKey);
    if (known) return known;
    const generation = this.engine.keys.readStarted();
    const row = await this.db
      .selectFrom('api_keys as k')
      .leftJoin('connections as c', (join) => join.onRef('c.org_id', '=', 'k.org_id').on('c.id', '=', connectionId))
      .selectAll('k')
      .select([
        'c.id as c_id',
        'c.name as c_name',
        'c.agent_token_hash as c_agent_token_hash',
        'c.default_company as c_default_company',
        'c.write_whitelist as c_write_whitelist',
        'c.created_at as c_created_at',
      ])
      // Either hash, each indexed (an OR of two index lookups on both engines): still one read.
      .where((eb) => eb.or([eb('k.secret_hash', '=', secretHash), eb('k.previous_secret_hash', '=', secretHash)]))
      .executeTakeFirst();
    if (!row) return null;
    const found: KeyWithConnection = {
      key: toApiKey(row),
      connection:
        row.c_id === null
          ? null
          : toConnection({
              id: row.c_id,
              org_id: row.org_id,
              name: row.c_name!,
              agent_token_hash: row.c_agent_token_hash,
              default_company: row.c_default_company,
              write_whitelist: row.c_write_whitelist,
              created_at: row.c_created_at!,
            }),
    };
    this.engine.keys.remember(memoKey, found, generation);
    return found;
  }

  async listApiKeys(orgId: string): Promise<ApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at')
      .orderBy(this.insertionOrder)
      .execute();
    return rows.map(toApiKey);
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    // Not a change of what a key reads as: nobody forgets it (nor do PostgreSQL's triggers fire).
    await this.db.updateTable('api_keys').set({ last_used_at: at.toISOString() }).where('id', '=', id).execute();
  }

  async rotateApiKey(rotation: KeyRotation): Promise<ApiKey | null> {
    // One statement: the hashes are swapped and the row returned atomically, so no reader ever sees
    // a state between the two. SET reads the row as it was, so the old hash becomes the previous one.
    const keepUntil = rotation.keepOldUntil?.toISOString() ?? null;
    const row = await this.db
      .updateTable('api_keys')
      .set((eb) => ({
        secret_hash: rotation.secretHash,
        prefix: rotation.prefix,
        rotated_at: rotation.at.toISOString(),
        previous_secret_hash: keepUntil === null ? null : eb.ref('secret_hash'),
        previous_secret_until: keepUntil,
      }))
      .where('id', '=', rotation.id)
      .where('org_id', '=', rotation.orgId)
      .where('mode', '=', rotation.mode)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    this.engine.keys.forget();
    return row ? toApiKey(row) : null;
  }

  async endApiKeyOverlap(orgId: string, id: string): Promise<ApiKey | null> {
    const row = await this.db
      .updateTable('api_keys')
      .set({ previous_secret_hash: null, previous_secret_until: null })
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .returningAll()
      .executeTakeFirst();
    this.engine.keys.forget();
    return row ? toApiKey(row) : null;
  }

  async revokeApiKey(id: string, at: Date): Promise<{ key: ApiKey; revokedNow: boolean } | null> {
    const result = await this.engine.transaction(async (trx) => {
      // Of two revocations at the same moment, the second waits for the first (PostgreSQL's row
      // lock; SQLite runs one transaction at a time), then sees its time.
      const before = await trx
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('id', '=', id)
        .$if(this.engine.rowLocks, (q) => q.forUpdate())
        .executeTakeFirst();
      if (!before) return null;
      const after = await trx
        .updateTable('api_keys')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at.toISOString())) }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { key: toApiKey(after), revokedNow: before.revoked_at === null };
    });
    this.engine.keys.forget();
    return result;
  }

  async createConnection(connection: NewConnection): Promise<Connection> {
    const record: Connection = { ...connection, id: newId('conn'), writeWhitelist: [], createdAt: now() };
    await this.db
      .insertInto('connections')
      .values({
        org_id: record.orgId,
        id: record.id,
        name: record.name,
        agent_token_hash: record.agentTokenHash,
        default_company: record.defaultCompany,
        created_at: record.createdAt,
      })
      .execute();
    // A key asked earlier for this connection id was remembered with none.
    this.engine.keys.forget();
    return record;
  }

  async findConnection(orgId: string, id: string): Promise<Connection | null> {
    const row = await this.db.selectFrom('connections').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    return row ? toConnection(row) : null;
  }

  async findConnectionByAgentTokenHash(tokenHash: string, at = new Date()): Promise<Connection | null> {
    const row = await this.db
      .selectFrom('connections')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('agent_token_hash', '=', tokenHash),
          eb.and([eb('previous_agent_token_hash', '=', tokenHash), eb('previous_agent_token_until', '>', at.toISOString())]),
        ]),
      )
      .executeTakeFirst();
    return row ? toConnection(row) : null;
  }

  async agentTokenHashesHeld(tokenHashes: readonly string[], at = new Date()): Promise<Set<string>> {
    const held = new Set<string>();
    const wanted = new Set(tokenHashes);
    const until = at.toISOString();
    for (const some of chunks(tokenHashes)) {
      const rows = await this.db
        .selectFrom('connections')
        .select(['agent_token_hash', 'previous_agent_token_hash', 'previous_agent_token_until'])
        .where((eb) =>
          eb.or([
            eb('agent_token_hash', 'in', some),
            eb.and([eb('previous_agent_token_hash', 'in', some), eb('previous_agent_token_until', '>', until)]),
          ]),
        )
        .execute();
      for (const row of rows) {
        if (row.agent_token_hash !== null && wanted.has(row.agent_token_hash)) held.add(row.agent_token_hash);
        // A row selected for its current token may hold a previous one that has ended: times compare as ISO text on both engines.
        const previous = row.previous_agent_token_hash;
        if (previous !== null && wanted.has(previous) && (row.previous_agent_token_until ?? '') > until) held.add(previous);
      }
    }
    return held;
  }

  async setAgentTokenHash(
    orgId: string,
    id: string,
    tokenHash: string | null,
    keepOldUntil: Date | null = null,
  ): Promise<Connection | null> {
    const keepUntil = tokenHash === null ? null : (keepOldUntil?.toISOString() ?? null);
    const row = await this.db
      .updateTable('connections')
      .set((eb) => ({
        agent_token_hash: tokenHash,
        // SET reads the row as it was: the token replaced becomes the previous one (null when it was revoked).
        previous_agent_token_hash: keepUntil === null ? null : eb.ref('agent_token_hash'),
        previous_agent_token_until: keepUntil,
      }))
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('id', '<>', SANDBOX_CONNECTION_ID)
      .returningAll()
      .executeTakeFirst();
    this.engine.keys.forget();
    return row ? toConnection(row) : null;
  }

  async endAgentTokenOverlap(orgId: string, id: string): Promise<Connection | null> {
    const row = await this.db
      .updateTable('connections')
      .set({ previous_agent_token_hash: null, previous_agent_token_until: null })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('id', '<>', SANDBOX_CONNECTION_ID)
      .returningAll()
      .executeTakeFirst();
    return row ? toConnection(row) : null;
  }

  async listConnections(orgId: string): Promise<ConnectionWithPresence[]> {
    const rows = await this.db
      .selectFrom('connections')
      .selectAll()
      .where('org_id', '=', orgId)
      // The sandbox first, then the rest oldest first.
      .orderBy(sql`id <> ${SANDBOX_CONNECTION_ID}`)
      .orderBy('created_at')
      .orderBy(this.insertionOrder)
      .execute();
    if (!rows.length) return [];
    const liveSince = new Date(Date.now() - AGENT_PRESENCE_STALE_MS).toISOString();
    const sessions = await this.db
      .selectFrom('agent_sessions')
      .selectAll()
      .where(
        'connection_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('last_seen_at', '>=', liveSince)
      .orderBy('connected_at', 'desc')
      .orderBy(this.insertionOrder, 'desc')
      .execute();
    return rows.map((row) => {
      const agents = sessions.filter((s) => s.connection_id === row.id).map(toSessionInfo);
      const overlapLive =
        row.previous_agent_token_hash !== null && row.previous_agent_token_until !== null && row.previous_agent_token_until > now();
      return {
        ...toConnection(row),
        previousAgentTokenUntil: overlapLive ? row.previous_agent_token_until : null,
        presence: presenceOf(row, agents),
        agents,
        lastAgentDetails: row.last_agent_details === null ? null : parsedJson<AgentDetails>(row.last_agent_details),
      };
    });
  }

  async setDefaultCompany(orgId: string, id: string, company: string | null): Promise<Connection | null> {
    return this.updateConnection(orgId, id, { default_company: company });
  }

  async setWriteWhitelist(orgId: string, id: string, objects: string[]): Promise<Connection | null> {
    return this.updateConnection(orgId, id, { write_whitelist: jsonText(objects) });
  }

  /** Changes a connection of the organisation that keys read, and forgets remembered keys. */
  private async updateConnection(
    orgId: string,
    id: string,
    changes: { default_company?: string | null; write_whitelist?: string },
  ): Promise<Connection | null> {
    const row = await this.db
      .updateTable('connections')
      .set(changes)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    this.engine.keys.forget();
    return row ? toConnection(row) : null;
  }
}
