import { USAGE_LOG_KEPT, type DailyUsage, type RequestRecord } from '../store.ts';
import type { Database } from './database.ts';

interface RequestRow {
  org_id: string;
  at: string;
  key_id: string;
  key_prefix: string;
  method: string;
  object: string;
  status: number;
  ms: number;
  request_id: string;
}

/** The PostgreSQL side of the usage part of the Store (migrations/0003_usage.sql). */
export class PostgresUsageTables {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /**
   * One transaction of three statements whatever the batch's size: each column goes in as one array
   * parameter. Counts of one (organisation, day, key, class) are added up first (one upsert may not
   * touch a row twice) and sorted, so two instances adding to the same rows lock them in the same
   * order and cannot deadlock.
   */
  async record(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): Promise<void> {
    const counts = new Map<string, DailyUsage>();
    for (const d of batch.daily) {
      const id = [d.orgId, d.day, d.keyId, d.statusClass].join('\u0000');
      const seen = counts.get(id);
      counts.set(id, seen ? { ...seen, requests: seen.requests + d.requests } : d);
    }
    const daily = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
    const orgs = [...new Set(batch.requests.map((r) => r.orgId))].sort();
    await this.db.transaction(async (client) => {
      if (daily.length) {
        await client.query(
          `INSERT INTO usage_daily (org_id, day, key_id, status_class, requests)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
           ON CONFLICT (org_id, day, key_id, status_class) DO UPDATE SET requests = usage_daily.requests + excluded.requests`,
          [
            daily.map((d) => d.orgId),
            daily.map((d) => d.day),
            daily.map((d) => d.keyId),
            daily.map((d) => d.statusClass),
            daily.map((d) => d.requests),
          ],
        );
      }
      if (batch.requests.length) {
        const r = batch.requests;
        await client.query(
          `INSERT INTO request_log (org_id, at, key_id, key_prefix, method, object, status, ms, request_id)
           SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::float8[], $9::text[])`,
          [
            r.map((x) => x.orgId),
            r.map((x) => x.at),
            r.map((x) => x.keyId),
            r.map((x) => x.keyPrefix),
            r.map((x) => x.method),
            r.map((x) => x.object),
            r.map((x) => x.status),
            r.map((x) => x.ms),
            r.map((x) => x.requestId),
          ],
        );
        // Everything of each organisation below its USAGE_LOG_KEPT-th newest row goes.
        await client.query(
          `DELETE FROM request_log l USING unnest($1::text[]) AS o(org_id)
           WHERE l.org_id = o.org_id AND l.id <= (
             SELECT id FROM request_log WHERE org_id = o.org_id ORDER BY id DESC LIMIT 1 OFFSET ${USAGE_LOG_KEPT})`,
          [orgs],
        );
      }
    });
  }

  async listDaily(orgId: string, sinceDay: string): Promise<DailyUsage[]> {
    const rows = await this.db.rows<{ org_id: string; key_id: string; day: string; status_class: string; requests: number }>(
      'SELECT org_id, key_id, day, status_class, requests FROM usage_daily WHERE org_id = $1 AND day >= $2 ORDER BY day, key_id, status_class',
      [orgId, sinceDay],
    );
    return rows.map((r) => ({ orgId: r.org_id, keyId: r.key_id, day: r.day, statusClass: r.status_class, requests: r.requests }));
  }

  async listRecent(orgId: string, filter: { keyId?: string; statusClass?: string; limit: number }): Promise<RequestRecord[]> {
    // Status classes are `2xx` … `5xx`: the class is the hundreds of the status.
    const hundreds = filter.statusClass ? Number(filter.statusClass[0]) * 100 : null;
    const rows = await this.db.rows<RequestRow>(
      `SELECT org_id, at, key_id, key_prefix, method, object, status, ms, request_id FROM request_log
       WHERE org_id = $1 AND ($2::text IS NULL OR key_id = $2) AND ($3::int IS NULL OR (status >= $3 AND status < $3 + 100))
       ORDER BY id DESC LIMIT $4`,
      [orgId, filter.keyId ?? null, hundreds, filter.limit],
    );
    return rows.map((r) => ({
      orgId: r.org_id,
      at: r.at,
      keyId: r.key_id,
      keyPrefix: r.key_prefix,
      method: r.method,
      object: r.object,
      status: r.status,
      ms: r.ms,
      requestId: r.request_id,
    }));
  }
}
