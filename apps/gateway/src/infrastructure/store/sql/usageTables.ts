import { USAGE_LOG_KEPT, type DailyUsage, type RequestFilter, type RequestRecord, type UsageStore } from '../roles/usage.ts';
import type { Selectable } from 'kysely';
import { chunks } from './chunks.ts';
import type { StoreEngine } from './engine.ts';
import type { RequestLogTable } from './schema.ts';

/** Usage on either engine (UsageStore): counts per key, day and status class, and the request log. */
export class UsageTables implements UsageStore {
  private readonly engine: StoreEngine;

  constructor(engine: StoreEngine) {
    this.engine = engine;
  }

  /**
   * One transaction whatever the batch's size. Counts of one (organisation, day, key, class) are added
   * up first (one upsert may not touch a row twice) and sorted, so two instances adding to the same
   * rows lock them in the same order and cannot deadlock. Each organisation's log is then trimmed to
   * its USAGE_LOG_KEPT newest requests.
   */
  async recordUsage(batch: { daily: DailyUsage[]; requests: RequestRecord[] }): Promise<void> {
    const counts = new Map<string, DailyUsage>();
    for (const d of batch.daily) {
      const id = [d.orgId, d.day, d.keyId, d.statusClass].join('\u0000');
      const seen = counts.get(id);
      counts.set(id, seen ? { ...seen, requests: seen.requests + d.requests } : d);
    }
    const daily = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
    const orgs = [...new Set(batch.requests.map((r) => r.orgId))].sort();
    await this.engine.transaction(async (trx) => {
      for (const rows of chunks(daily))
        await trx
          .insertInto('usage_daily')
          .values(rows.map((d) => ({ org_id: d.orgId, day: d.day, key_id: d.keyId, status_class: d.statusClass, requests: d.requests })))
          .onConflict((conflict) =>
            conflict
              .columns(['org_id', 'day', 'key_id', 'status_class'])
              .doUpdateSet((eb) => ({ requests: eb('usage_daily.requests', '+', eb.ref('excluded.requests')) })),
          )
          .execute();
      for (const rows of chunks(batch.requests))
        await trx
          .insertInto('request_log')
          .values(
            rows.map((r) => ({
              org_id: r.orgId,
              at: r.at,
              key_id: r.keyId,
              key_prefix: r.keyPrefix,
              method: r.method,
              object: r.object,
              status: r.status,
              ms: r.ms,
              request_id: r.requestId,
              connection_id: r.connectionId ?? null,
              record_id: r.recordId ?? null,
              error_code: r.errorCode ?? null,
              path: r.path ?? null,
              error_message: r.errorMessage ?? null,
              trace_id: r.traceId ?? null,
            })),
          )
          .execute();
      for (const orgId of orgs)
        await trx
          .deleteFrom('request_log')
          .where('org_id', '=', orgId)
          .where('id', '<=', (eb) =>
            eb.selectFrom('request_log').select('id').where('org_id', '=', orgId).orderBy('id', 'desc').limit(1).offset(USAGE_LOG_KEPT),
          )
          .execute();
    });
  }

  async listDailyUsage(orgId: string, sinceDay: string): Promise<DailyUsage[]> {
    const rows = await this.engine.db
      .selectFrom('usage_daily')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('day', '>=', sinceDay)
      .orderBy('day')
      .orderBy('key_id')
      .orderBy('status_class')
      .execute();
    return rows.map((r) => ({ orgId: r.org_id, keyId: r.key_id, day: r.day, statusClass: r.status_class, requests: Number(r.requests) }));
  }

  async listRecentRequests(orgId: string, filter: RequestFilter): Promise<RequestRecord[]> {
    // Status classes are `2xx` … `5xx`: the class is the hundreds of the status.
    const hundreds = filter.statusClass ? Number(filter.statusClass[0]) * 100 : null;
    const rows = await this.engine.db
      .selectFrom('request_log')
      .selectAll()
      .where('org_id', '=', orgId)
      .$if(filter.keyId !== undefined, (q) => q.where('key_id', '=', filter.keyId!))
      .$if(hundreds !== null, (q) => q.where('status', '>=', hundreds!).where('status', '<', hundreds! + 100))
      .$if(filter.since !== undefined, (q) => q.where('at', '>=', filter.since!))
      .$if(filter.before !== undefined, (q) => q.where('at', '<', filter.before!))
      .$if(filter.requestId !== undefined, (q) => q.where('request_id', '=', filter.requestId!))
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .execute();
    return rows.map(requestOf);
  }
}

/** A request log row as the store gives it: a column that is null is a field left out. */
function requestOf(r: Selectable<RequestLogTable>): RequestRecord {
  return {
    orgId: r.org_id,
    at: r.at,
    keyId: r.key_id,
    keyPrefix: r.key_prefix,
    method: r.method,
    object: r.object,
    status: r.status,
    ms: r.ms,
    requestId: r.request_id,
    ...(r.connection_id !== null ? { connectionId: r.connection_id } : {}),
    ...(r.record_id !== null ? { recordId: r.record_id } : {}),
    ...(r.error_code !== null ? { errorCode: r.error_code } : {}),
    ...(r.path !== null ? { path: r.path } : {}),
    ...(r.error_message !== null ? { errorMessage: r.error_message } : {}),
    ...(r.trace_id !== null ? { traceId: r.trace_id } : {}),
  };
}
