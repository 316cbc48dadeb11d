-- Up Migration
-- The dashboard's people (the SQLite store's step 2): users sign in by email, unique across the
-- gateway and stored lower-cased; sign-in links and sessions are kept as sha256 of their secret.
-- Dashboard sessions live here so that every instance behind the load balancer knows them.

CREATE TABLE users (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES organisations (id),
  email text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('admin', 'viewer')),
  password_hash text,
  created_at timestamptz NOT NULL,
  last_sign_in_at timestamptz
);
CREATE INDEX users_org ON users (org_id, seq);

CREATE TABLE sign_in_links (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX sign_in_links_user ON sign_in_links (user_id);

CREATE TABLE dashboard_sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id),
  at timestamptz NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  details jsonb,
  address text
);
CREATE INDEX audit_log_org ON audit_log (org_id, id);
