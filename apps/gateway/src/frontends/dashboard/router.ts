import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import type { AdminService } from '../../core/admin/adminService.ts';
import type { OAuthAuthority } from '../../core/oauth/oauthAuthority.ts';
import { csrfTokenOf, type DashboardAuth } from './dashboardAuth.ts';
import { pageContext } from './pageContext.ts';
import type { ReleaseFolder } from '../../infrastructure/releases/releaseFolder.ts';
import { field } from './pageParts.ts';
import { auditPages } from './pages/audit.ts';
import { connectedAppsPages } from './pages/connectedApps.ts';
import { connectionsPages } from './pages/connections.ts';
import { connectPages } from './pages/connect.ts';
import { keysPages } from './pages/keys.ts';
import { oauthConsentPages } from './pages/oauthConsent.ts';
import { signInPages } from './pages/signIn.ts';
import { usagePages } from './pages/usage.ts';
import { usersPages } from './pages/users.ts';
import { webhooksPages, type DashboardWebhooks } from './pages/webhooks.ts';
import { cookiesOf, dashboardHeaders, formTokenOf, fromThisOrigin, sameToken, SESSION_COOKIE } from './security.ts';

export interface DashboardOptions {
  admin: AdminService;
  auth: DashboardAuth;
  /** The public base URL links start with (GATEWAY_URL), never the request's Host. */
  publicUrl: () => string;
  /** OAuth for /mcp: the consent page and connected apps; absent, neither is served. */
  oauth?: OAuthAuthority;
  /** The agent's release folder, for download links and the latest agent version; none unless given. */
  releases?: ReleaseFolder | null;
  /** The webhooks pages' endpoints service and store; absent, those pages are not served. */
  webhooks?: DashboardWebhooks;
}

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const ASSET_FILES = new Set(['dashboard.css', 'dashboard.js', 'connect.js']);

/**
 * The dashboard at /dashboard (docs/decisions.md#dashboard): server-rendered pages whose forms work
 * without JavaScript, a second front end on the admin service beside the operator CLI. Admins
 * change things, viewers look. Every form answers with a redirect (post/redirect/get): a secret it
 * made (key, agent token, sign-in link) is held, sealed, in the session for the one view after the
 * redirect, so a reload neither sends the form again nor shows the secret again
 * (docs/decisions.md#post-redirect-get-and-secrets-shown-once).
 */
export function dashboardRouter({ admin, auth, publicUrl, oauth, releases = null, webhooks }: DashboardOptions): Router {
  const router = Router();
  const context = pageContext(admin, auth, publicUrl, releases);
  const { message } = context;
  router.use(dashboardHeaders);

  router.get('/assets/:file', (req, res) => {
    const file = String(req.params.file);
    if (!ASSET_FILES.has(file)) return void res.status(404).type('text').send('Not found');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.sendFile(path.join(ASSETS, file));
  });

  router.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));

  router.use(async (req, res, next) => {
    const sessionId = cookiesOf(req)[SESSION_COOKIE] ?? null;
    const session = sessionId ? await auth.session(sessionId) : null;
    res.locals.visit = { session, sessionId: session ? sessionId : null, csrf: session ? csrfTokenOf(sessionId!) : formTokenOf(req, res) };
    if (req.method !== 'POST') return next();
    if (!fromThisOrigin(req) || !sameToken(field(req, 'csrf'), res.locals.visit.csrf)) {
      return message(
        res,
        403,
        'This form was not accepted',
        'It did not come from this dashboard, or the page was too old. Reload the page and try again.',
      );
    }
    next();
  });

  for (const pages of [signInPages, keysPages, connectionsPages, connectPages, usersPages, usagePages, auditPages]) pages(router, context);
  if (webhooks) webhooksPages(router, context, webhooks);
  if (oauth) {
    oauthConsentPages(router, context, oauth);
    connectedAppsPages(router, context, oauth);
  }

  router.use(async (req, res) => message(res, 404, 'Not found', 'There is no such dashboard page.'));
  return router;
}
