import type { Response, Router } from 'express';
import type { Flash } from '../flash.ts';
import type { PageContext } from '../pageContext.ts';
import { field, problemOf, secretShown } from '../pageParts.ts';
import { render } from '../views.ts';

/** The users page: invite, sign-in links, roles, removal (after a confirmation). */
export function usersPages(
  router: Router,
  { admin, frame, signedIn, adminOnly, userOf, as, redirectWith, takeFlash, publicUrl }: PageContext,
): void {
  async function usersPage(res: Response): Promise<void> {
    const user = userOf(res);
    const [users, flash] = await Promise.all([admin.listUsers(user.orgId), takeFlash(res, 'users')]);
    render(res, 200, 'users', await frame(res), { title: 'Users', page: 'users', users, canChange: user.role === 'admin', ...flash });
  }
  /** Every form answers with a redirect back to the page (PageContext.redirectWith). */
  const answer = (res: Response, flash: Omit<Flash, 'page'>) => redirectWith(res, { page: 'users', ...flash });

  const linkShown = (email: string, token: string, expiresAt: Date) =>
    secretShown(
      `The sign-in link of ${email}`,
      `${publicUrl()}/dashboard/welcome?token=${token}`,
      `sign-in link (it works once, until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    );

  router.get('/users', signedIn, (_req, res) => usersPage(res));

  router.post('/users', signedIn, adminOnly, async (req, res) => {
    try {
      const invited = await as(req, res).inviteUser({ orgId: userOf(res).orgId, email: field(req, 'email'), role: field(req, 'role') });
      await answer(res, {
        notice: `${invited.user.email} is invited; their sign-in link is below, shown this once.`,
        secret: linkShown(invited.user.email, invited.signInToken, invited.expiresAt),
      });
    } catch (error) {
      await answer(res, { problem: problemOf(error) });
    }
  });

  router.post('/users/:id/link', signedIn, adminOnly, async (req, res) => {
    try {
      const link = await as(req, res).newSignInLink(userOf(res).orgId, String(req.params.id));
      const user = (await admin.listUsers(userOf(res).orgId)).find((u) => u.id === req.params.id)!;
      await answer(res, {
        notice: `${user.email} has a new sign-in link below, shown this once.`,
        secret: linkShown(user.email, link.signInToken, link.expiresAt),
      });
    } catch (error) {
      await answer(res, { problem: problemOf(error) });
    }
  });

  router.post('/users/:id/role', signedIn, adminOnly, async (req, res) => {
    try {
      const user = await as(req, res).setUserRole(userOf(res).orgId, String(req.params.id), field(req, 'role'));
      await answer(res, { notice: `${user.email} is now ${user.role === 'admin' ? 'an admin' : 'a viewer'}.` });
    } catch (error) {
      await answer(res, { problem: problemOf(error) });
    }
  });

  router.get('/users/:id/remove', signedIn, adminOnly, async (req, res) => {
    const user = (await admin.listUsers(userOf(res).orgId)).find((u) => u.id === req.params.id);
    if (!user) return answer(res, { problem: 'Your organisation has no such user.' });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Remove a user',
      page: 'users',
      question: `Remove ${user.email}?`,
      consequence: 'They are signed out everywhere and can no longer sign in.',
      action: `/dashboard/users/${user.id}/remove`,
      confirm: `Remove user ${user.email}`,
      danger: true,
      back: '/dashboard/users',
    });
  });

  router.post('/users/:id/remove', signedIn, adminOnly, async (req, res) => {
    try {
      await as(req, res).removeUser(userOf(res).orgId, String(req.params.id));
      await answer(res, { notice: 'The user is removed.' });
    } catch (error) {
      await answer(res, { problem: problemOf(error) });
    }
  });
}
