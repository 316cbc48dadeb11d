import type { Router } from 'express';
import type { PageContext } from '../pageContext.ts';
import { render } from '../views.ts';

/** The audit log: who changed what in the organisation, newest first. */
export function auditPages(router: Router, { admin, frame, signedIn, userOf }: PageContext): void {
  router.get('/audit', signedIn, async (_req, res) => {
    const entries = await admin.listAudit(userOf(res).orgId);
    render(res, 200, 'audit', await frame(res), { title: 'Audit log', page: 'audit', entries });
  });
}
