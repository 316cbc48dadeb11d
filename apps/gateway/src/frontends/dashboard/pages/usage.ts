import type { Router } from 'express';
import type { PageContext } from '../pageContext.ts';
import { usageByKey, usageChart } from '../usageChart.ts';
import { render } from '../views.ts';

/** The usage page looks back this many days. */
const USAGE_DAYS = 30;

/** The usage page: requests per day, per key, and the most recent requests, filtered by key and status class. */
export function usagePages(router: Router, { admin, frame, signedIn, userOf }: PageContext): void {
  router.get('/usage', signedIn, async (req, res) => {
    const orgId = userOf(res).orgId;
    const keys = await admin.listApiKeys(orgId);
    const key = typeof req.query.key === 'string' && keys.some((k) => k.id === req.query.key) ? req.query.key : '';
    const status = typeof req.query.status === 'string' && /^[2-5]xx$/.test(req.query.status) ? req.query.status : '';
    const [daily, requests] = await Promise.all([
      admin.dailyUsage(orgId, USAGE_DAYS),
      admin.recentRequests(orgId, { ...(key ? { keyId: key } : {}), ...(status ? { statusClass: status } : {}) }),
    ]);
    render(res, 200, 'usage', await frame(res), {
      title: 'Usage',
      page: 'usage',
      keys,
      filter: { key, status },
      chart: usageChart(key ? daily.filter((d) => d.keyId === key) : daily, USAGE_DAYS),
      byKey: usageByKey(daily, keys),
      requests,
    });
  });
}
