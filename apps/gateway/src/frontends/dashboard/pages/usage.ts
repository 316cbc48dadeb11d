import type { Router } from 'express';
import type { PageContext } from '../pageContext.ts';
import { dayRangeOf } from '../pageParts.ts';
import { usageByKey, usageChart } from '../usageChart.ts';
import { render } from '../views.ts';

/** The usage page looks back this many days. */
const USAGE_DAYS = 30;

/** The usage page: requests per day, per key, and the most recent requests, filtered by key, status class and UTC days. */
export function usagePages(router: Router, { admin, frame, signedIn, userOf }: PageContext): void {
  router.get('/usage', signedIn, async (req, res) => {
    const orgId = userOf(res).orgId;
    const keys = await admin.listApiKeys(orgId);
    const key = typeof req.query.key === 'string' && keys.some((k) => k.id === req.query.key) ? req.query.key : '';
    const status = typeof req.query.status === 'string' && /^[2-5]xx$/.test(req.query.status) ? req.query.status : '';
    const days = dayRangeOf(req);
    const [daily, requests, connections] = await Promise.all([
      admin.dailyUsage(orgId, USAGE_DAYS),
      admin.recentRequests(orgId, {
        ...(key ? { keyId: key } : {}),
        ...(status ? { statusClass: status } : {}),
        ...(days.since ? { since: days.since } : {}),
        ...(days.before ? { before: days.before } : {}),
      }),
      admin.listConnections(orgId),
    ]);
    // A request's key by name (an OAuth grant's has none here: its prefix stands in).
    const names = new Map(keys.map((k) => [k.id, k.name]));
    const connectionNames = new Map(connections.map((c) => [c.id, c.name]));
    render(res, 200, 'usage', await frame(res), {
      title: 'Usage',
      page: 'usage',
      keys,
      filter: { key, status, from: days.from, to: days.to },
      chart: usageChart(key ? daily.filter((d) => d.keyId === key) : daily, USAGE_DAYS),
      byKey: usageByKey(daily, keys),
      requests: requests.map((r) => ({
        ...r,
        keyName: names.get(r.keyId) ?? null,
        connectionName: r.connectionId === undefined ? null : (connectionNames.get(r.connectionId) ?? r.connectionId),
      })),
      ...(days.problems.length ? { problem: days.problems.join(' ') } : {}),
    });
  });
}
