import type { Response, Router } from 'express';
import type { OAuthAuthority } from '../../../core/oauth/oauthAuthority.ts';
import type { PageContext } from '../pageContext.ts';
import { render } from '../views.ts';

/**
 * Connected apps: the OAuth clients the organisation's users approved, with who approved what and
 * when each was last used. Revoking one takes effect on the app's next request. Admins may revoke
 * any; everyone may revoke their own.
 */
export function connectedAppsPages(router: Router, { frame, signedIn, userOf }: PageContext, oauth: OAuthAuthority): void {
  async function appsPage(res: Response, status: number, extra: Record<string, unknown> = {}): Promise<void> {
    const user = userOf(res);
    const apps = await oauth.connectedApps(user.orgId);
    render(res, status, 'connected-apps', await frame(res), {
      title: 'Connected apps',
      page: 'connected-apps',
      apps: apps.map((app) => ({ ...app, canRevoke: user.role === 'admin' || app.userId === user.id })),
      ...extra,
    });
  }

  router.get('/connected-apps', signedIn, (_req, res) => appsPage(res, 200));

  router.post('/connected-apps/:id/revoke', signedIn, async (req, res) => {
    const user = userOf(res);
    const app = (await oauth.connectedApps(user.orgId)).find((a) => a.id === req.params.id);
    if (!app || (user.role !== 'admin' && app.userId !== user.id)) {
      return appsPage(res, 404, { problem: 'There is no connected app with that id that you may revoke.' });
    }
    await oauth.disconnect(user.orgId, app.id, user.email, req.ip ?? null);
    await appsPage(res, 200, { notice: `"${app.clientName}" is disconnected: its next request is refused.` });
  });
}
