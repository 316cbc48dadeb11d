import type { Generated } from 'kysely';
import type { UserRole } from '../roles/users.ts';

/**
 * The store's tables as both engines hold them (sql/migrations.ts creates them). Values are what the
 * store writes and reads: times are ISO-8601 UTC strings (SQLite keeps them as text; PostgreSQL as
 * timestamptz, read back as ISO strings by engines/postgres.ts), so they compare as the instants they
 * name; JSON columns are written as JSON text and read back parsed (PostgreSQL's jsonb) or as text
 * (SQLite), which sql/rows.ts's `parsedJson` takes either way.
 */
type Time = string;
type Json = string | unknown;

export interface OrganisationsTable {
  id: string;
  name: string;
  created_at: Time;
  rate_limit_requests: number | null;
  rate_limit_window_s: number | null;
  max_in_flight: number | null;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  mode: 'live' | 'test';
  scopes: Json;
  secret_hash: string;
  created_at: Time;
  revoked_at: Time | null;
  rotated_at: Time | null;
  last_used_at: Time | null;
  /** The secret before the last rotation and until when it still works (0006_rotation_overlap). */
  previous_secret_hash: string | null;
  previous_secret_until: Time | null;
}

export interface ConnectionsTable {
  org_id: string;
  id: string;
  name: string;
  agent_token_hash: string | null;
  default_company: string | null;
  write_whitelist: Generated<Json>;
  created_at: Time;
  last_agent_seen_at: Time | null;
  last_agent_version: string | null;
  last_agent_host: string | null;
  last_agent_details: Json | null;
  /** The agent token before the last rotation and until when it still opens sockets (0006_rotation_overlap). */
  previous_agent_token_hash: string | null;
  previous_agent_token_until: Time | null;
}

export interface AgentSessionsTable {
  id: string;
  connection_id: string;
  gateway_id: string;
  agent_version: string;
  agent_host: string;
  companies: Json;
  details: Json | null;
  connected_at: Time;
  last_seen_at: Time;
}

export interface UsersTable {
  id: string;
  org_id: string;
  email: string;
  role: UserRole;
  password_hash: string | null;
  created_at: Time;
  last_sign_in_at: Time | null;
}

export interface SignInLinksTable {
  token_hash: string;
  user_id: string;
  created_at: Time;
  expires_at: Time;
  used_at: Time | null;
}

export interface DashboardSessionsTable {
  id_hash: string;
  user_id: string;
  created_at: Time;
  last_seen_at: Time;
  /** A message for the session's next page view, sealed with a key only the session's cookie gives (0006_rotation_overlap). */
  flash: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  org_id: string;
  at: Time;
  actor: string;
  action: string;
  target: string;
  details: Json | null;
  address: string | null;
}

export interface UsageDailyTable {
  org_id: string;
  key_id: string;
  day: string;
  status_class: string;
  requests: number;
}

export interface RequestLogTable {
  id: Generated<number>;
  org_id: string;
  at: Time;
  key_id: string;
  key_prefix: string;
  method: string;
  object: string;
  status: number;
  ms: number;
  request_id: string;
  connection_id: string | null;
  record_id: string | null;
  error_code: string | null;
  path: string | null;
  error_message: string | null;
  trace_id: string | null;
}

export interface IdempotencyKeysTable {
  org_id: string;
  key: string;
  fingerprint: string;
  operation_id: string;
  state: 'pending' | 'completed';
  lease_until: Time;
  /** A completed record's result (roles/idempotency.ts): the record's bytes, or the refusal as JSON. */
  result_kind: 'created' | 'refused' | null;
  result_body: Buffer | null;
  created_at: Time;
  expires_at: Time;
}

export interface EventsTable {
  /** Orders events (after `txid` on PostgreSQL); SQLite's rowid, PostgreSQL's identity. */
  seq: Generated<number>;
  /** The id of the transaction that stored the event (PostgreSQL: `pg_current_xact_id()`; SQLite: 0). */
  txid: Generated<number | string>;
  id: string;
  org_id: string;
  connection_id: string;
  company: string | null;
  type: string;
  object: string | null;
  record_id: string | null;
  version: string | null;
  changed_at: Time | null;
  recorded_at: Time;
  data: Json | null;
}

export interface OAuthClientsTable {
  client_id: string;
  metadata: Json;
  created_at: Time;
}

export interface OAuthGrantsTable {
  id: string;
  org_id: string;
  user_id: string;
  client_id: string;
  client_name: string;
  connection_id: string;
  scopes: Json;
  resource: string;
  created_at: Time;
  last_used_at: Time | null;
  revoked_at: Time | null;
  code_hash: string;
  code_challenge: string;
  redirect_uri: string;
  code_expires_at: Time;
  code_used_at: Time | null;
  access_hash: string | null;
  access_expires_at: Time | null;
  refresh_hash: string | null;
  refresh_expires_at: Time | null;
  previous_refresh_hash: string | null;
}

export interface WebhookEndpointsTable {
  id: string;
  org_id: string;
  url: string;
  event_types: Json;
  connection_ids: Json | null;
  description: string;
  /** The signing secret sealed (core/webhooks/secretBox.ts); never the secret in clear. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Time | null;
  disabled_at: Time | null;
  disabled_reason: string | null;
  failing_since: Time | null;
  created_at: Time;
  updated_at: Time;
}

export interface WebhookDeliveriesTable {
  /** Orders deliveries for lists (newest first); SQLite's rowid, PostgreSQL's identity. */
  seq: Generated<number>;
  id: string;
  org_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Time | null;
  /** The claim holding the delivery until `lease_until`; another may take it once that has passed. */
  lease: string | null;
  lease_until: Time | null;
  created_at: Time;
  settled_at: Time | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  at: Time;
  http_status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

export interface StoreSchema {
  organisations: OrganisationsTable;
  api_keys: ApiKeysTable;
  connections: ConnectionsTable;
  agent_sessions: AgentSessionsTable;
  users: UsersTable;
  sign_in_links: SignInLinksTable;
  dashboard_sessions: DashboardSessionsTable;
  audit_log: AuditLogTable;
  usage_daily: UsageDailyTable;
  request_log: RequestLogTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
