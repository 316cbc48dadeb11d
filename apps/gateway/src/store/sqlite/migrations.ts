import type Database from 'better-sqlite3';

/**
 * The store's schema as numbered steps (MIGRATIONS). `start` reuses its data folder, so a store
 * written by an earlier gateway version must open and upgrade in place: SQLite's `user_version`
 * records the last step a store has, and opening it runs the steps after that one. Never edit a
 * released step; add one.
 *
 * Step 1 is every table and column of the releases made before steps were numbered (their stores
 * all have user_version 0): it creates and adds only what is missing, so any of them opens in place.
 */
const BASE_TABLES = `
CREATE TABLE IF NOT EXISTS organisations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organisations(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  scopes TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  last_used_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_org ON api_keys(org_id);
CREATE TABLE IF NOT EXISTS connections (
  org_id TEXT NOT NULL REFERENCES organisations(id),
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  agent_token_hash TEXT UNIQUE,
  default_company TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, id)
);
`;

/** Columns added after the base tables, in the order they were introduced. */
const ADDED_COLUMNS: readonly { table: string; column: string; definition: string }[] = [
  { table: 'organisations', column: 'rate_limit_requests', definition: 'INTEGER' },
  { table: 'organisations', column: 'rate_limit_window_s', definition: 'INTEGER' },
  { table: 'organisations', column: 'max_in_flight', definition: 'INTEGER' },
  { table: 'api_keys', column: 'rotated_at', definition: 'TEXT' },
  { table: 'connections', column: 'write_whitelist', definition: "TEXT NOT NULL DEFAULT '[]'" },
  { table: 'connections', column: 'last_agent_seen_at', definition: 'TEXT' },
  { table: 'connections', column: 'last_agent_version', definition: 'TEXT' },
  { table: 'connections', column: 'last_agent_host', definition: 'TEXT' },
];

/**
 * One row per agent link a gateway holds right now. `connection_id` alone (no organisation): live
 * connection ids are unique across organisations, and `sandbox` is served by one built-in agent for
 * every organisation's sandbox.
 */
const ADDED_TABLES = `
CREATE TABLE IF NOT EXISTS agent_sessions (
  id TEXT PRIMARY KEY,
  connection_id TEXT NOT NULL,
  gateway_id TEXT NOT NULL,
  agent_version TEXT NOT NULL,
  agent_host TEXT NOT NULL,
  companies TEXT NOT NULL,
  connected_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS agent_sessions_connection ON agent_sessions(connection_id);
`;

/** Columns added after ADDED_TABLES, in the order they were introduced (agent details: JSON). */
const LATER_COLUMNS: readonly { table: string; column: string; definition: string }[] = [
  { table: 'agent_sessions', column: 'details', definition: 'TEXT' },
  { table: 'connections', column: 'last_agent_details', definition: 'TEXT' },
];

/**
 * Step 2: the dashboard's people (docs/decisions.md#dashboard). A user belongs to one organisation
 * and signs in by email, unique across the gateway (stored lower-cased). Sign-in links (first
 * password, invitations) and sessions are kept as sha256 of their secret, like API keys. The audit
 * log is append-only.
 */
const DASHBOARD_TABLES = `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organisations(id),
  email TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'viewer')),
  password_hash TEXT,
  created_at TEXT NOT NULL,
  last_sign_in_at TEXT
);
CREATE INDEX users_org ON users(org_id);
CREATE TABLE sign_in_links (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX sign_in_links_user ON sign_in_links(user_id);
CREATE TABLE dashboard_sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions(user_id);
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES organisations(id),
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  details TEXT,
  address TEXT
);
CREATE INDEX audit_log_org ON audit_log(org_id, id);
`;

/**
 * Step 3: usage, for the dashboard. Requests per key, day and status class are counted (the
 * gateway adds them up in memory and writes a batch every few seconds); the request log keeps each
 * organisation's most recent requests, trimmed on every write (USAGE_LOG_KEPT).
 */
const USAGE_TABLES = `
CREATE TABLE usage_daily (
  org_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  day TEXT NOT NULL,
  status_class TEXT NOT NULL,
  requests INTEGER NOT NULL,
  PRIMARY KEY (org_id, day, key_id, status_class)
);
CREATE TABLE request_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL,
  at TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_prefix TEXT NOT NULL,
  method TEXT NOT NULL,
  object TEXT NOT NULL,
  status INTEGER NOT NULL,
  ms REAL NOT NULL,
  request_id TEXT NOT NULL
);
CREATE INDEX request_log_org ON request_log(org_id, id);
`;

/**
 * Step 4: Idempotency-Keys of writes (docs/api.md#idempotency), per organisation, kept 24 h. The
 * answer is kept as the bytes that were sent. Expired rows are deleted by the gateway's sweep.
 */
const IDEMPOTENCY_TABLES = `
CREATE TABLE idempotency_keys (
  org_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  operation_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'completed')),
  lease_until TEXT NOT NULL,
  response_status INTEGER,
  response_type TEXT,
  response_body BLOB,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
`;

function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === column);
}

function addMissingColumns(db: Database.Database, columns: typeof ADDED_COLUMNS): void {
  for (const { table, column, definition } of columns) {
    if (!hasColumn(db, table, column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}

/** Step n+1 is MIGRATIONS[n]. */
const MIGRATIONS: readonly ((db: Database.Database) => void)[] = [
  (db) => {
    db.exec(BASE_TABLES);
    addMissingColumns(db, ADDED_COLUMNS);
    db.exec(ADDED_TABLES);
    addMissingColumns(db, LATER_COLUMNS);
  },
  (db) => db.exec(DASHBOARD_TABLES),
  (db) => db.exec(USAGE_TABLES),
  (db) => db.exec(IDEMPOTENCY_TABLES),
];

/** The schema step this gateway writes stores at. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings any earlier store up to date, and refuses one written by a newer gateway (whose tables
 * this one might misread). IMMEDIATE, so a gateway and an operator CLI opening the same old store
 * at once cannot both run a step.
 */
export function migrate(db: Database.Database): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `this store was written by a newer gateway (schema ${version}; this gateway knows up to ${SCHEMA_VERSION}): run the newer gateway, or upgrade this one`,
      );
    }
    for (const step of MIGRATIONS.slice(version)) step(db);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
