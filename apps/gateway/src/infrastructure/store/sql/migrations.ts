import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { columnTypes as types, type Db } from './columnTypes.ts';
import type { EngineKind } from './engine.ts';
import { schemaOfOneStore } from './schemaOfOneStore.ts';

/** The tables Kysely's Migrator records the applied migrations in, and its lock. */
export const MIGRATION_TABLE = 'store_migrations';
export const MIGRATION_LOCK_TABLE = 'store_migrations_lock';

/**
 * Step 2: an Idempotency-Key keeps the write's result, not the REST bytes that answered it (so that
 * REST and MCP render a replay as they render a fresh result). Records completed before keep their
 * meaning: `{"data":…}` of a 2xx becomes the record it wraps, an error body the refusal it spells.
 */
function writeResultsNotBytes(kind: EngineKind): Migration {
  const t = types(kind);
  return {
    async up(db: Db) {
      await db.schema.alterTable('idempotency_keys').addColumn('result_kind', 'text').execute();
      await db.schema.alterTable('idempotency_keys').addColumn('result_body', t.bytes).execute();
      const completed = await db
        .selectFrom('idempotency_keys')
        .select(['org_id', 'key', 'response_status', 'response_body'])
        .where('state', '=', 'completed')
        .execute();
      for (const row of completed as { org_id: string; key: string; response_status: number; response_body: Buffer }[]) {
        const sent = JSON.parse(Buffer.from(row.response_body).toString()) as { data?: unknown; error?: Record<string, unknown> };
        const [resultKind, body] =
          row.response_status < 400 ? ['created', JSON.stringify(sent.data)] : ['refused', JSON.stringify(sent.error)];
        await db
          .updateTable('idempotency_keys')
          .set({ result_kind: resultKind, result_body: Buffer.from(body) })
          .where('org_id', '=', row.org_id)
          .where('key', '=', row.key)
          .execute();
      }
      for (const column of ['response_status', 'response_type', 'response_body']) {
        await db.schema.alterTable('idempotency_keys').dropColumn(column).execute();
      }
    },
  };
}

/**
 * Step 3: the change feed's events (roles/events.ts, docs/decisions.md#change-feed). Ordered by
 * `seq` after `txid`: on PostgreSQL `txid` is the storing transaction's id, which readers compare with
 * their snapshot's xmin so that they page only over what every earlier writer has committed; on
 * SQLite, which commits one writer at a time in `seq` order, it is 0. One event per change: the
 * unique index makes a second report of it (another agent, a resend) insert nothing; events of a
 * connection itself have no version, and NULLs never collide.
 */
function changeFeed(kind: EngineKind): Migration {
  const t = types(kind);
  return {
    async up(db: Db) {
      await db.schema
        .createTable('events')
        .addColumn('seq', t.bigint, (c) => (t.postgres ? c.generatedAlwaysAsIdentity().primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('txid', t.bigint, (c) => c.notNull().defaultTo(t.postgres ? sql`(pg_current_xact_id()::text::bigint)` : sql`0`))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('connection_id', 'text', (c) => c.notNull())
        .addColumn('company', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('object', 'text')
        .addColumn('record_id', 'text')
        .addColumn('version', 'text')
        .addColumn('changed_at', t.time)
        .addColumn('recorded_at', t.time, (c) => c.notNull())
        .addColumn('data', t.json)
        .execute();
      await db.schema.createIndex('events_feed').on('events').columns(['org_id', 'txid', 'seq']).execute();
      await db.schema.createIndex('events_recorded').on('events').column('recorded_at').execute();
      await db.schema
        .createIndex('events_one_per_change')
        .on('events')
        .columns(['org_id', 'connection_id', 'company', 'object', 'record_id', 'version'])
        .unique()
        .execute();
    },
  };
}

/**
 * Step 4: webhooks (roles/webhooks.ts, docs/decisions.md#webhooks). One delivery per endpoint and
 * event (the unique index: an event fanned out twice is queued once). Workers claim due deliveries
 * by `next_attempt_at` with a lease (`lease`, `lease_until`); lists read newest first by `seq`.
 * Attempts go with their delivery, deliveries with their endpoint.
 */
function webhooks(kind: EngineKind): Migration {
  const t = types(kind);
  return {
    async up(db: Db) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('event_types', t.json, (c) => c.notNull())
        .addColumn('connection_ids', t.json)
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_expires_at', t.time)
        .addColumn('disabled_at', t.time)
        .addColumn('disabled_reason', 'text')
        .addColumn('failing_since', t.time)
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_org').on('webhook_endpoints').column('org_id').execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('seq', t.bigint, (c) => (t.postgres ? c.generatedAlwaysAsIdentity().primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'succeeded', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', t.time)
        .addColumn('lease', 'text')
        .addColumn('lease_until', t.time)
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('settled_at', t.time)
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_one_per_event')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'event_id'])
        .unique()
        .execute();
      await db.schema.createIndex('webhook_deliveries_org').on('webhook_deliveries').columns(['org_id', 'seq']).execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', t.bigint, (c) => (t.postgres ? c.generatedAlwaysAsIdentity().primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
        .addColumn('at', t.time, (c) => c.notNull())
        .addColumn('http_status', 'integer')
        .addColumn('latency_ms', t.postgres ? sql`double precision` : sql`real`, (c) => c.notNull())
        .addColumn('response_excerpt', 'text')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute();
    },
  };
}

/**
 * Step 5: OAuth for /mcp (roles/oauth.ts, docs/decisions.md#oauth-for-mcp). Clients registered by
 * RFC 7591 (metadata only: every client is public, so no secret), and grants: one approved consent,
 * its authorization code and its current tokens, each kept only as a sha256 (unique, so a lookup by
 * hash is an index read). The previous refresh token's hash is kept to recognise its replay.
 */
function oauth(kind: EngineKind): Migration {
  const t = types(kind);
  return {
    async up(db: Db) {
      await db.schema
        .createTable('oauth_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('metadata', t.json, (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('connection_id', 'text', (c) => c.notNull())
        .addColumn('scopes', t.json, (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_used_at', t.time)
        .addColumn('revoked_at', t.time)
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_expires_at', t.time, (c) => c.notNull())
        .addColumn('code_used_at', t.time)
        .addColumn('access_hash', 'text', (c) => c.unique())
        .addColumn('access_expires_at', t.time)
        .addColumn('refresh_hash', 'text', (c) => c.unique())
        .addColumn('refresh_expires_at', t.time)
        .addColumn('previous_refresh_hash', 'text', (c) => c.unique())
        .execute();
      await db.schema.createIndex('oauth_grants_org').on('oauth_grants').column('org_id').execute();
    },
  };
}

/**
 * Step 6: rotation with an overlap (docs/decisions.md#rotation-with-an-overlap). A key and a
 * connection keep the secret they had before their last rotation, and until when it still works:
 * the key lookup finds a key by either hash in its one read (both indexed), and the time is compared
 * by the caller, so that a remembered key stops working at the end without anything being told. A
 * dashboard session holds at most one sealed message for its next page view (`flash`: sealed with a
 * key derived from the session id, which the store never holds), so a secret is shown after a
 * redirect and never re-sent. PostgreSQL's trigger that tells the gateways to forget remembered keys
 * learns the new key columns.
 */
function rotationOverlap(kind: EngineKind): Migration {
  const t = types(kind);
  return {
    async up(db: Db) {
      await db.schema.alterTable('api_keys').addColumn('previous_secret_hash', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('previous_secret_until', t.time).execute();
      await db.schema.createIndex('api_keys_previous_secret').on('api_keys').column('previous_secret_hash').unique().execute();
      await db.schema.alterTable('connections').addColumn('previous_agent_token_hash', 'text').execute();
      await db.schema.alterTable('connections').addColumn('previous_agent_token_until', t.time).execute();
      await db.schema
        .createIndex('connections_previous_agent_token')
        .on('connections')
        .column('previous_agent_token_hash')
        .unique()
        .execute();
      await db.schema.alterTable('dashboard_sessions').addColumn('flash', 'text').execute();
      if (!t.postgres) return;
      await sql`DROP TRIGGER IF EXISTS api_keys_changed ON api_keys`.execute(db);
      await sql`CREATE TRIGGER api_keys_changed
        AFTER INSERT OR DELETE OR UPDATE OF id, org_id, name, prefix, mode, scopes, secret_hash, created_at, revoked_at, rotated_at,
          previous_secret_hash, previous_secret_until
        ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed()`.execute(db);
    },
  };
}

/**
 * Step 7: one email may be a user of several organisations, a user per organisation
 * (docs/decisions.md#one-email-in-several-organisations): an email is unique within an organisation,
 * no longer across the gateway, so inviting someone another organisation has invited reveals nothing
 * and works. Sign-in looks users up by email alone, hence the index on it.
 *
 * PostgreSQL drops the unique constraint on `email` (by whatever name an earlier release gave it).
 * SQLite cannot drop a column's UNIQUE: the table is rebuilt as SQLite's documented procedure does
 * it (https://sqlite.org/lang_altertable.html#otheralter), with foreign keys off so that dropping the
 * old table does not cascade to the users' sign-in links and sessions, in one transaction, and the
 * foreign keys checked before it commits. SQLite runs migrations outside a transaction (Kysely's
 * SQLite adapter has no transactional DDL), which is what lets the pragma take effect here.
 */
function usersPerOrganisation(kind: EngineKind): Migration {
  return {
    async up(db: Db) {
      if (kind === 'postgres') {
        const { rows } = await sql<{ conname: string }>`
          SELECT c.conname FROM pg_constraint c
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
          WHERE c.conrelid = 'users'::regclass AND c.contype = 'u' AND a.attname = 'email' AND array_length(c.conkey, 1) = 1`.execute(db);
        for (const { conname } of rows) await sql`ALTER TABLE users DROP CONSTRAINT ${sql.id(conname)}`.execute(db);
      } else {
        await sql`PRAGMA foreign_keys = OFF`.execute(db);
        try {
          await sql`BEGIN IMMEDIATE`.execute(db);
          try {
            await sql`CREATE TABLE users_per_org (
              id text PRIMARY KEY,
              org_id text NOT NULL REFERENCES organisations (id),
              email text NOT NULL,
              role text NOT NULL CHECK (role IN ('admin', 'viewer')),
              password_hash text,
              created_at text NOT NULL,
              last_sign_in_at text
            )`.execute(db);
            await sql`INSERT INTO users_per_org (rowid, id, org_id, email, role, password_hash, created_at, last_sign_in_at)
              SELECT rowid, id, org_id, email, role, password_hash, created_at, last_sign_in_at FROM users`.execute(db);
            await sql`DROP TABLE users`.execute(db);
            await sql`ALTER TABLE users_per_org RENAME TO users`.execute(db);
            await db.schema.createIndex('users_org').on('users').column('org_id').execute();
            const broken = await sql`PRAGMA foreign_key_check`.execute(db);
            if (broken.rows.length)
              throw new Error(`rebuilding users broke ${broken.rows.length} foreign key(s): ${JSON.stringify(broken.rows)}`);
            await sql`COMMIT`.execute(db);
          } catch (error) {
            await sql`ROLLBACK`.execute(db);
            throw error;
          }
        } finally {
          await sql`PRAGMA foreign_keys = ON`.execute(db);
        }
      }
      await db.schema.createIndex('users_org_email').unique().on('users').columns(['org_id', 'email']).execute();
      await db.schema.createIndex('users_email').on('users').column('email').execute();
    },
  };
}

/**
 * The store's one migration history, for either engine, in order. Never edit a released step; add
 * the next. Every gateway instance and the operator CLI run it at open, and several may at once:
 * Kysely's Migrator holds a lock for the whole run (PostgreSQL: an advisory lock; SQLite: the file's
 * write lock, engines/sqlite.ts), so the others wait and then find nothing left to run.
 */
export function storeMigrations(kind: EngineKind): Record<string, Migration> {
  return {
    '0001_one_store': schemaOfOneStore(kind),
    '0002_write_results': writeResultsNotBytes(kind),
    '0003_change_feed': changeFeed(kind),
    '0004_webhooks': webhooks(kind),
    '0005_oauth': oauth(kind),
    '0006_rotation_overlap': rotationOverlap(kind),
    '0007_users_per_org': usersPerOrganisation(kind),
    '0008_request_detail': requestDetail(),
    '0009_request_page': requestPage(),
  };
}

/**
 * The usage page's request rows (issue 36 item 7): the connection a request went to, the record it
 * named or created, and its error code; null for rows written before, and where a request has none.
 */
function requestDetail(): Migration {
  return {
    async up(db: Db) {
      for (const column of ['connection_id', 'record_id', 'error_code']) {
        await db.schema.alterTable('request_log').addColumn(column, 'text').execute();
      }
    },
  };
}

/**
 * A request's own page on the dashboard (issue 36 item 7): the path it asked for (never its query),
 * its error envelope's message, and its trace id when tracing; null for rows written before. The
 * page finds a request by its id within the organisation, hence the index.
 */
function requestPage(): Migration {
  return {
    async up(db: Db) {
      for (const column of ['path', 'error_message', 'trace_id']) {
        await db.schema.alterTable('request_log').addColumn(column, 'text').execute();
      }
      await db.schema.createIndex('request_log_request').on('request_log').columns(['org_id', 'request_id']).execute();
    },
  };
}

/**
 * Brings the database up to date, and refuses one a newer gateway has migrated further (whose tables
 * this one might misread).
 */
export async function migrateStore(db: Kysely<any>, kind: EngineKind): Promise<void> {
  const migrations = storeMigrations(kind);
  const tables = await db.introspection.getTables();
  if (tables.some((table) => table.name === MIGRATION_TABLE)) {
    const applied = await db.selectFrom(MIGRATION_TABLE).select('name').execute();
    const unknown = applied.map((r: { name: string }) => r.name).filter((name: string) => !(name in migrations));
    if (unknown.length)
      throw new Error(
        `this store was migrated by a newer gateway (it has ${unknown.join(', ')}; this gateway knows up to ${Object.keys(migrations).at(-1)}): run the newer gateway, or upgrade this one`,
      );
  }
  const { error } = await storeMigrator(db, kind).migrateToLatest();
  if (error) throw error;
}

/** Kysely's Migrator over the store's history and tables (tests migrate a database to an earlier step with it). */
export function storeMigrator(db: Kysely<any>, kind: EngineKind): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => storeMigrations(kind) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
}
