/** Requests of one key on one UTC day with one status class (`2xx`, `4xx`, `5xx`, …). */
export interface DailyUsage {
  orgId: string;
  keyId: string;
  day: string;
  statusClass: string;
  requests: number;
}

/** One request as the dashboard lists it: never its query, headers or body. */
export interface RequestRecord {
  orgId: string;
  at: string;
  keyId: string;
  keyPrefix: string;
  method: string;
  /** The object asked for (`customers`), `mcp`, or `api-keys`. */
  object: string;
  status: number;
  ms: number;
  requestId: string;
  /** The connection the request went to, when it named or was bound to one; absent otherwise. */
  connectionId?: string;
  /** The record it read (`GET /v1/{object}/{id}`) or created (`POST /v1/{object}`); absent otherwise. */
  recordId?: string;
  /** The error envelope's code of a refused request (`NOT_FOUND`, `RATE_LIMITED`, …); absent otherwise. */
  errorCode?: string;
  /** The path asked for (`/v1/customers/ABC`, `/mcp`), never the query; absent on rows written before it was kept. */
  path?: string;
  /** The error envelope's message of a refused request; absent otherwise. */
  errorMessage?: string;
  /** The request's trace id when the gateway traces (OpenTelemetry); absent otherwise. */
  traceId?: string;
}

/** Which of an organisation's logged requests to list: each given field must match. */
export interface RequestFilter {
  keyId?: string;
  statusClass?: string;
  since?: string;
  before?: string;
  requestId?: string;
  limit: number;
}

/** Requests kept in each organisation's request log. */
export const USAGE_LOG_KEPT = 10_000;

/** Requests counted per key, day and status class, and each organisation's most recent requests. */
export interface UsageStore {
  /** Adds a batch of counts and appends requests to the log, keeping each organisation's last USAGE_LOG_KEPT. */
  recordUsage(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): Promise<void>;
  /** The organisation's counts from `sinceDay` (YYYY-MM-DD) on. */
  listDailyUsage(orgId: string, sinceDay: string): Promise<DailyUsage[]>;
  /**
   * The organisation's most recent requests first, optionally of one key, one status class, a time
   * range (ISO 8601: `since` included, `before` not), and one request id (a request's own page).
   */
  listRecentRequests(orgId: string, filter: RequestFilter): Promise<RequestRecord[]>;
}
