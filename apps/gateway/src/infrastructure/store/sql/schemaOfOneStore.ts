import { sql, type Migration } from 'kysely';
import { columnTypes, type Db } from './columnTypes.ts';
import type { EngineKind } from './engine.ts';

/**
 * Step 1: the store as it stood when the two engines' schemas became one. Every table and index is
 * made only if missing, and every column is added if missing, so a store written before (an SQLite
 * file of any earlier release, whose schema grew step by step on `user_version`, or a PostgreSQL
 * database of node-pg-migrate's four steps) opens in place and keeps its data.
 */
export function schemaOfOneStore(kind: EngineKind): Migration {
  const t = columnTypes(kind);
  const withSeq = t.postgres
    ? (builder: any) => builder.addColumn('seq', 'bigint', (c: any) => c.generatedAlwaysAsIdentity())
    : (builder: any) => builder;
  return {
    async up(db: Db) {
      await withSeq(
        db.schema
          .createTable('organisations')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('rate_limit_requests', 'integer')
          .addColumn('rate_limit_window_s', 'integer')
          .addColumn('max_in_flight', 'integer'),
      ).execute();

      await withSeq(
        db.schema
          .createTable('api_keys')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('prefix', 'text', (c) => c.notNull())
          .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode IN ('live', 'test')`))
          .addColumn('scopes', t.json, (c) => c.notNull())
          .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('revoked_at', t.time)
          .addColumn('rotated_at', t.time)
          .addColumn('last_used_at', t.time),
      ).execute();
      await db.schema.createIndex('api_keys_org').ifNotExists().on('api_keys').column('org_id').execute();

      await withSeq(
        db.schema
          .createTable('connections')
          .ifNotExists()
          .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
          .addColumn('id', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('agent_token_hash', 'text', (c) => c.unique())
          .addColumn('default_company', 'text')
          .addColumn('write_whitelist', t.json, (c) => c.notNull().defaultTo(sql`'[]'`))
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('last_agent_seen_at', t.time)
          .addColumn('last_agent_version', 'text')
          .addColumn('last_agent_host', 'text')
          .addColumn('last_agent_details', t.json)
          .addPrimaryKeyConstraint('connections_pkey', ['org_id', 'id']),
      ).execute();
      // Agent presence updates connections by id alone (`sandbox` is every organisation's).
      await db.schema.createIndex('connections_id').ifNotExists().on('connections').column('id').execute();

      // One row per agent link a gateway holds right now. `connection_id` alone: live connection ids
      // are unique across organisations, and `sandbox` is served by one built-in agent for all.
      await withSeq(
        db.schema
          .createTable('agent_sessions')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('connection_id', 'text', (c) => c.notNull())
          .addColumn('gateway_id', 'text', (c) => c.notNull())
          .addColumn('agent_version', 'text', (c) => c.notNull())
          .addColumn('agent_host', 'text', (c) => c.notNull())
          .addColumn('companies', t.json, (c) => c.notNull())
          .addColumn('details', t.json)
          .addColumn('connected_at', t.time, (c) => c.notNull())
          .addColumn('last_seen_at', t.time, (c) => c.notNull()),
      ).execute();
      await db.schema.createIndex('agent_sessions_connection').ifNotExists().on('agent_sessions').column('connection_id').execute();
      await db.schema.createIndex('agent_sessions_last_seen').ifNotExists().on('agent_sessions').column('last_seen_at').execute();

      // The dashboard's people: users sign in by email, unique across the gateway and stored
      // lower-cased; sign-in links and sessions are kept as sha256 of their secret.
      await withSeq(
        db.schema
          .createTable('users')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('admin', 'viewer')`))
          .addColumn('password_hash', 'text')
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('last_sign_in_at', t.time),
      ).execute();
      await db.schema.createIndex('users_org').ifNotExists().on('users').column('org_id').execute();

      await db.schema
        .createTable('sign_in_links')
        .ifNotExists()
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time, (c) => c.notNull())
        .addColumn('used_at', t.time)
        .execute();
      await db.schema.createIndex('sign_in_links_user').ifNotExists().on('sign_in_links').column('user_id').execute();

      await db.schema
        .createTable('dashboard_sessions')
        .ifNotExists()
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_seen_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('dashboard_sessions_user').ifNotExists().on('dashboard_sessions').column('user_id').execute();

      await db.schema
        .createTable('audit_log')
        .ifNotExists()
        .addColumn('id', t.bigint, (c) => (t.postgres ? c.generatedAlwaysAsIdentity().primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id'))
        .addColumn('at', t.time, (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('details', t.json)
        .addColumn('address', 'text')
        .execute();
      await db.schema.createIndex('audit_log_org').ifNotExists().on('audit_log').columns(['org_id', 'id']).execute();

      // Usage: requests per key, day and status class, and each organisation's most recent requests.
      await db.schema
        .createTable('usage_daily')
        .ifNotExists()
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('status_class', 'text', (c) => c.notNull())
        .addColumn('requests', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_daily_pkey', ['org_id', 'day', 'key_id', 'status_class'])
        .execute();
      await db.schema
        .createTable('request_log')
        .ifNotExists()
        .addColumn('id', t.bigint, (c) => (t.postgres ? c.generatedAlwaysAsIdentity().primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('at', t.time, (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('object', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('ms', t.postgres ? sql`double precision` : sql`real`, (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('request_log_org').ifNotExists().on('request_log').columns(['org_id', 'id']).execute();

      // Idempotency-Keys of writes, per organisation, kept 24 h; the answer as the bytes that were sent (until step 2).
      await db.schema
        .createTable('idempotency_keys')
        .ifNotExists()
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('pending', 'completed')`))
        .addColumn('lease_until', t.time, (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_type', 'text')
        .addColumn('response_body', t.bytes)
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['org_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry').ifNotExists().on('idempotency_keys').column('expires_at').execute();

      await addMissingColumns(db, kind);
      if (t.postgres) await notifyKeyChanges(db);
    },
  };
}

/**
 * Columns that SQLite stores of earlier releases may lack (they grew by ALTER TABLE; PostgreSQL
 * databases were always made whole). All are nullable or have a default, so adding them keeps every row.
 */
const COLUMNS_ADDED_OVER_TIME: readonly { table: string; column: string; type: 'integer' | 'text' | 'time' | 'json'; default?: string }[] =
  [
    { table: 'organisations', column: 'rate_limit_requests', type: 'integer' },
    { table: 'organisations', column: 'rate_limit_window_s', type: 'integer' },
    { table: 'organisations', column: 'max_in_flight', type: 'integer' },
    { table: 'api_keys', column: 'rotated_at', type: 'time' },
    { table: 'connections', column: 'write_whitelist', type: 'json', default: "'[]'" },
    { table: 'connections', column: 'last_agent_seen_at', type: 'time' },
    { table: 'connections', column: 'last_agent_version', type: 'text' },
    { table: 'connections', column: 'last_agent_host', type: 'text' },
    { table: 'agent_sessions', column: 'details', type: 'json' },
    { table: 'connections', column: 'last_agent_details', type: 'json' },
  ];

async function addMissingColumns(db: Db, kind: EngineKind): Promise<void> {
  const t = columnTypes(kind);
  const tables = await db.introspection.getTables();
  for (const { table, column, type, default: defaultValue } of COLUMNS_ADDED_OVER_TIME) {
    const existing = tables.find((x) => x.name === table);
    if (!existing || existing.columns.some((c) => c.name === column)) continue;
    const sqlType = type === 'integer' ? sql`integer` : type === 'text' ? sql`text` : t[type];
    await db.schema
      .alterTable(table)
      .addColumn(column, sqlType, (c) => (defaultValue ? c.notNull().defaultTo(sql.raw(defaultValue)) : c))
      .execute();
  }
}

/**
 * Every gateway instance remembers keys with their connection (engines/postgresKeyMemory.ts) and
 * forgets them when told, on this channel, that a key or a connection changed. Triggers rather than
 * the store's code send it, so no change can forget to: any statement that could change what a key
 * reads as (not last-used times, not agent presence, which are written all the time) notifies every
 * listening instance when it commits.
 */
async function notifyKeyChanges(db: Db): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION gateway_notify_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('gateway_keys_changed', TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`.execute(db);
  const triggers = [
    sql`CREATE TRIGGER api_keys_changed
      AFTER INSERT OR DELETE OR UPDATE OF id, org_id, name, prefix, mode, scopes, secret_hash, created_at, revoked_at, rotated_at
      ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed()`,
    sql`CREATE TRIGGER connections_changed
      AFTER INSERT OR DELETE OR UPDATE OF org_id, id, name, agent_token_hash, default_company, write_whitelist, created_at
      ON connections FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed()`,
    sql`CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed()`,
    sql`CREATE TRIGGER connections_truncated AFTER TRUNCATE ON connections FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed()`,
  ];
  const names = ['api_keys_changed', 'connections_changed', 'api_keys_truncated', 'connections_truncated'];
  const tables = ['api_keys', 'connections', 'api_keys', 'connections'];
  for (const [i, create] of triggers.entries()) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(names[i]!)} ON ${sql.id(tables[i]!)}`.execute(db);
    await create.execute(db);
  }
}
