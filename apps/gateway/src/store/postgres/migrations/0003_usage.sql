-- Up Migration
-- Usage, for the dashboard (the SQLite store's step 3): requests per key, day and status class, and
-- each organisation's most recent requests, trimmed on every write to USAGE_LOG_KEPT.

CREATE TABLE usage_daily (
  org_id text NOT NULL,
  key_id text NOT NULL,
  day text NOT NULL,
  status_class text NOT NULL,
  requests bigint NOT NULL,
  PRIMARY KEY (org_id, day, key_id, status_class)
);

CREATE TABLE request_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id text NOT NULL,
  at timestamptz NOT NULL,
  key_id text NOT NULL,
  key_prefix text NOT NULL,
  method text NOT NULL,
  object text NOT NULL,
  status integer NOT NULL,
  ms double precision NOT NULL,
  request_id text NOT NULL
);
CREATE INDEX request_log_org ON request_log (org_id, id);
