-- Up Migration
-- Idempotency-Keys of writes (the SQLite store's step 4), per organisation, kept 24 h: which write a
-- key names and, once known, its answer as the bytes that were sent. The gateway's sweep deletes
-- expired rows.

CREATE TABLE idempotency_keys (
  org_id text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  operation_id text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'completed')),
  lease_until timestamptz NOT NULL,
  response_status integer,
  response_type text,
  response_body bytea,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
