import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  SANDBOX_CONNECTION_ID,
  type ApiKey,
  type Connection,
  type NewApiKey,
  type NewConnection,
  type Organisation,
  type Scope,
  type Store,
} from './store.ts';

const SCHEMA = `
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

interface KeyRow {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  mode: 'live' | 'test';
  scopes: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}
interface ConnectionRow {
  id: string;
  org_id: string;
  name: string;
  agent_token_hash: string | null;
  default_company: string | null;
  created_at: string;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
const now = () => new Date().toISOString();

/** The demo database's first company; the sandbox connection defaults to it. */
export const SANDBOX_DEFAULT_COMPANY = 'TWO';

/** The gateway's store in one SQLite file (WAL, so the operator CLI can use it beside a running gateway). */
export class SqliteStore implements Store {
  private readonly db: Database.Database;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
  }

  async createOrganisation(name: string): Promise<Organisation> {
    const org: Organisation = { id: newId('org'), name, createdAt: now() };
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO organisations (id, name, created_at) VALUES (?, ?, ?)').run(org.id, org.name, org.createdAt);
      this.db
        .prepare('INSERT INTO connections (org_id, id, name, agent_token_hash, default_company, created_at) VALUES (?, ?, ?, NULL, ?, ?)')
        .run(org.id, SANDBOX_CONNECTION_ID, 'Demo sandbox', SANDBOX_DEFAULT_COMPANY, org.createdAt);
    })();
    return org;
  }

  async findOrganisationByName(name: string): Promise<Organisation | null> {
    const row = this.db.prepare('SELECT id, name, created_at FROM organisations WHERE name = ?').get(name) as
      | { id: string; name: string; created_at: string }
      | undefined;
    return row ? { id: row.id, name: row.name, createdAt: row.created_at } : null;
  }

  async createApiKey(key: NewApiKey): Promise<ApiKey> {
    const record: ApiKey = { ...key, id: newId('key'), createdAt: now(), revokedAt: null, lastUsedAt: null };
    this.db
      .prepare('INSERT INTO api_keys (id, org_id, name, prefix, mode, scopes, secret_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(record.id, record.orgId, record.name, record.prefix, record.mode, JSON.stringify(record.scopes), record.secretHash, record.createdAt);
    return record;
  }

  async findApiKeyBySecretHash(secretHash: string): Promise<ApiKey | null> {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE secret_hash = ?').get(secretHash) as KeyRow | undefined;
    return row ? toApiKey(row) : null;
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at.toISOString(), id);
  }

  async createConnection(connection: NewConnection): Promise<Connection> {
    const record: Connection = { ...connection, id: newId('conn'), createdAt: now() };
    this.db
      .prepare('INSERT INTO connections (org_id, id, name, agent_token_hash, default_company, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(record.orgId, record.id, record.name, record.agentTokenHash, record.defaultCompany, record.createdAt);
    return record;
  }

  async findConnection(orgId: string, id: string): Promise<Connection | null> {
    const row = this.db.prepare('SELECT * FROM connections WHERE org_id = ? AND id = ?').get(orgId, id) as ConnectionRow | undefined;
    return row ? toConnection(row) : null;
  }

  async findConnectionByAgentTokenHash(tokenHash: string): Promise<Connection | null> {
    const row = this.db.prepare('SELECT * FROM connections WHERE agent_token_hash = ?').get(tokenHash) as ConnectionRow | undefined;
    return row ? toConnection(row) : null;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    prefix: row.prefix,
    mode: row.mode,
    scopes: JSON.parse(row.scopes) as Scope[],
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

function toConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    agentTokenHash: row.agent_token_hash,
    defaultCompany: row.default_company,
    createdAt: row.created_at,
  };
}
