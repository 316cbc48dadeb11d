import type { Router } from 'express';
import type { PageContext } from '../pageContext.ts';
import { dayRangeOf } from '../pageParts.ts';
import { usageByKey, usageChart, usageMatching } from '../usageChart.ts';
import { render } from '../views.ts';

/** The usage page looks back this many days. */
const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * The UTC days the by-key table counts: From and To when given; without From, the USAGE_DAYS days up
 * to To (or today), so that the table with no filter is the last 30 days as before.
 */
function byKeyDays(days: { since?: string; before?: string }, now: Date): { firstDay: string; lastDay: string } {
  const last = days.before ? Date.parse(days.before) - DAY_MS : now.getTime();
  const first = days.since ? Date.parse(days.since) : last - (USAGE_DAYS - 1) * DAY_MS;
  return { firstDay: new Date(first).toISOString().slice(0, 10), lastDay: new Date(last).toISOString().slice(0, 10) };
}

/** Longer than any request id the gateway gives (`req_` and 16 characters): not looked up. */
const MAX_REQUEST_ID = 100;

/**
 * The usage page: requests per day, per key, and the most recent requests, filtered by key, status
 * class and UTC days; and each logged request's own page, found by its id within the organisation.
 */
export function usagePages(router: Router, { admin, frame, message, signedIn, userOf }: PageContext): void {
  router.get('/usage', signedIn, async (req, res) => {
    const orgId = userOf(res).orgId;
    const keys = await admin.listApiKeys(orgId);
    const key = typeof req.query.key === 'string' && keys.some((k) => k.id === req.query.key) ? req.query.key : '';
    const status = typeof req.query.status === 'string' && /^[2-5]xx$/.test(req.query.status) ? req.query.status : '';
    const days = dayRangeOf(req);
    const now = new Date();
    const counted = byKeyDays(days, now);
    // Counts back to the by-key table's first day, or the chart's, whichever is earlier.
    const lookBack = Math.max(USAGE_DAYS, Math.ceil((now.getTime() - Date.parse(counted.firstDay)) / DAY_MS) + 1);
    const [daily, requests, connections] = await Promise.all([
      admin.dailyUsage(orgId, lookBack),
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
      // The same filters as the requests below, over whole UTC days of exact counts.
      byKey: usageByKey(
        usageMatching(daily, { ...counted, ...(key ? { keyId: key } : {}), ...(status ? { statusClass: status } : {}) }),
        keys,
      ),
      byKeyTitle: `By key, ${counted.firstDay === counted.lastDay ? counted.firstDay : `${counted.firstDay} to ${counted.lastDay}`}${status ? `, ${status} only` : ''}`,
      requests: requests.map((r) => ({
        ...r,
        keyName: names.get(r.keyId) ?? null,
        connectionName: r.connectionId === undefined ? null : (connectionNames.get(r.connectionId) ?? r.connectionId),
      })),
      ...(days.problems.length ? { problem: days.problems.join(' ') } : {}),
    });
  });

  router.get('/usage/requests/:requestId', signedIn, async (req, res) => {
    const orgId = userOf(res).orgId;
    const requestId = String(req.params.requestId);
    // Another organisation's request is as unknown as one never made: the lookup is within the organisation.
    const [request] = requestId.length <= MAX_REQUEST_ID ? await admin.recentRequests(orgId, { requestId, limit: 1 }) : [];
    if (!request) {
      return message(
        res,
        404,
        'No such request',
        `No request ${requestId.slice(0, MAX_REQUEST_ID)} is in your organisation's log: it keeps the last 10,000, and a sample at high rates.`,
        '/dashboard/usage',
      );
    }
    const [keys, connections] = await Promise.all([admin.listApiKeys(orgId), admin.listConnections(orgId)]);
    const connection = request.connectionId === undefined ? null : connections.find((c) => c.id === request.connectionId);
    render(res, 200, 'usage-request', await frame(res), {
      title: `Request ${request.requestId}`,
      page: 'usage',
      request,
      keyName: keys.find((k) => k.id === request.keyId)?.name ?? null,
      connection: request.connectionId === undefined ? null : { id: request.connectionId, name: connection?.name ?? null },
    });
  });
}
