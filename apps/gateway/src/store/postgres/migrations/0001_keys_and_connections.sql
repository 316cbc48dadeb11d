-- Up Migration
-- Organisations, their API keys and connections, and the agents the gateways hold: the tables of the
-- SQLite store's step 1 (sqlite/migrations.ts), typed for PostgreSQL. Times are timestamptz; lists
-- (scopes, write whitelist, companies) and agent details are jsonb. `seq` orders rows created in the
-- same millisecond, as SQLite's rowid does.

CREATE TABLE organisations (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  rate_limit_requests integer,
  rate_limit_window_s integer,
  max_in_flight integer
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organisations (id),
  name text NOT NULL,
  prefix text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  scopes jsonb NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  rotated_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_org ON api_keys (org_id, seq);

CREATE TABLE connections (
  org_id text NOT NULL REFERENCES organisations (id),
  id text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  name text NOT NULL,
  agent_token_hash text UNIQUE,
  default_company text,
  write_whitelist jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  last_agent_seen_at timestamptz,
  last_agent_version text,
  last_agent_host text,
  last_agent_details jsonb,
  PRIMARY KEY (org_id, id)
);
-- Agent presence updates connections by id alone (`sandbox` is every organisation's).
CREATE INDEX connections_id ON connections (id);

-- One row per agent link a gateway holds right now (see the SQLite store's agent_sessions).
CREATE TABLE agent_sessions (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  connection_id text NOT NULL,
  gateway_id text NOT NULL,
  agent_version text NOT NULL,
  agent_host text NOT NULL,
  companies jsonb NOT NULL,
  details jsonb,
  connected_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX agent_sessions_connection ON agent_sessions (connection_id);
CREATE INDEX agent_sessions_last_seen ON agent_sessions (last_seen_at);

-- Every gateway instance remembers keys with their connection (findApiKeyWithConnection) and forgets
-- them when told, on this channel, that a key or a connection changed. Triggers rather than the
-- store's code send it, so no change can forget to: any statement that could change what a key
-- reads as (not last-used times, not agent presence, which are written all the time) notifies
-- every listening instance when it commits.
CREATE FUNCTION gateway_notify_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gateway_keys_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_changed
  AFTER INSERT OR DELETE OR UPDATE OF id, org_id, name, prefix, mode, scopes, secret_hash, created_at, revoked_at, rotated_at
  ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed();
CREATE TRIGGER connections_changed
  AFTER INSERT OR DELETE OR UPDATE OF org_id, id, name, agent_token_hash, default_company, write_whitelist, created_at
  ON connections FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed();
CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed();
CREATE TRIGGER connections_truncated AFTER TRUNCATE ON connections FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_keys_changed();
