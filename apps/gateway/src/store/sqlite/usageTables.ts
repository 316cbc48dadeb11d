import type Database from 'better-sqlite3';
import { USAGE_LOG_KEPT, type DailyUsage, type RequestRecord } from '../store.ts';

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

/** The SQLite side of the usage part of the Store (tables of migration step 3). */
export class SqliteUsageTables {
  private readonly db: Database.Database;
  private readonly prepare: (sql: string) => Database.Statement;

  constructor(db: Database.Database, prepare: (sql: string) => Database.Statement) {
    this.db = db;
    this.prepare = prepare;
  }

  record(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): void {
    const count = this.prepare(
      `INSERT INTO usage_daily (org_id, key_id, day, status_class, requests) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (org_id, day, key_id, status_class) DO UPDATE SET requests = requests + excluded.requests`,
    );
    const log = this.prepare(
      'INSERT INTO request_log (org_id, at, key_id, key_prefix, method, object, status, ms, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Everything of the organisation below its USAGE_LOG_KEPT-th newest row goes.
    const trim = this.prepare(
      `DELETE FROM request_log WHERE org_id = ? AND id <= (
         SELECT id FROM request_log WHERE org_id = ? ORDER BY id DESC LIMIT 1 OFFSET ${USAGE_LOG_KEPT})`,
    );
    this.db.transaction(() => {
      for (const d of batch.daily) count.run(d.orgId, d.keyId, d.day, d.statusClass, d.requests);
      for (const r of batch.requests) log.run(r.orgId, r.at, r.keyId, r.keyPrefix, r.method, r.object, r.status, r.ms, r.requestId);
      for (const orgId of new Set(batch.requests.map((r) => r.orgId))) trim.run(orgId, orgId);
    })();
  }

  listDaily(orgId: string, sinceDay: string): DailyUsage[] {
    const rows = this.prepare('SELECT * FROM usage_daily WHERE org_id = ? AND day >= ? ORDER BY day, key_id, status_class').all(
      orgId,
      sinceDay,
    ) as {
      org_id: string;
      key_id: string;
      day: string;
      status_class: string;
      requests: number;
    }[];
    return rows.map((r) => ({ orgId: r.org_id, keyId: r.key_id, day: r.day, statusClass: r.status_class, requests: r.requests }));
  }

  listRecent(orgId: string, filter: { keyId?: string; statusClass?: string; limit: number }): RequestRecord[] {
    // Status classes are `2xx` … `5xx`: the class is the hundreds of the status.
    const hundreds = filter.statusClass ? Number(filter.statusClass[0]) * 100 : null;
    const rows = this.prepare(
      `SELECT * FROM request_log WHERE org_id = ?
         AND (? IS NULL OR key_id = ?)
         AND (? IS NULL OR (status >= ? AND status < ? + 100))
       ORDER BY id DESC LIMIT ?`,
    ).all(orgId, filter.keyId ?? null, filter.keyId ?? null, hundreds, hundreds, hundreds, filter.limit) as RequestRow[];
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
