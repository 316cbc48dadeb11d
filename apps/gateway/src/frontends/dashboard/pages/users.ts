import type { Response, Router } from 'express';
import type { PageContext } from '../pageContext.ts';
import { field, problemOf, secretShown } from '../pageParts.ts';
import { render } from '../views.ts';

/** The users page: invite, sign-in links, roles, removal (after a confirmation). */
export function usersPages(router: Router, { admin, frame, signedIn, adminOnly, userOf, as, publicUrl }: PageContext): void {
  async function usersPage(res: Response, status: number, extra: Record<string, unknown> = {}): Promise<void> {
    const user = userOf(res);
    const users = await admin.listUsers(user.orgId);
    render(res, status, 'users', await frame(res), { title: 'Users', page: 'users', users, canChange: user.role === 'admin', ...extra });
  }

  const linkShown = (email: string, token: string, expiresAt: Date) =>
    secretShown(
      `The sign-in link of ${email}`,
      `${publicUrl()}/dashboard/welcome?token=${token}`,
      `sign-in link (it works once, until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    );

  router.get('/users', signedIn, (_req, res) => usersPage(res, 200));

  router.post('/users', signedIn, adminOnly, async (req, res) => {
    try {
      const invited = await as(req, res).inviteUser({ orgId: userOf(res).orgId, email: field(req, 'email'), role: field(req, 'role') });
      await usersPage(res, 201, { secret: linkShown(invited.user.email, invited.signInToken, invited.expiresAt) });
    } catch (error) {
      await usersPage(res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/users/:id/link', signedIn, adminOnly, async (req, res) => {
    try {
      const link = await as(req, res).newSignInLink(userOf(res).orgId, String(req.params.id));
      const user = (await admin.listUsers(userOf(res).orgId)).find((u) => u.id === req.params.id)!;
      await usersPage(res, 200, { secret: linkShown(user.email, link.signInToken, link.expiresAt) });
    } catch (error) {
      await usersPage(res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/users/:id/role', signedIn, adminOnly, async (req, res) => {
    try {
      const user = await as(req, res).setUserRole(userOf(res).orgId, String(req.params.id), field(req, 'role'));
      await usersPage(res, 200, { notice: `${user.email} is now ${user.role === 'admin' ? 'an admin' : 'a viewer'}.` });
    } catch (error) {
      await usersPage(res, 400, { problem: problemOf(error) });
    }
  });

  router.get('/users/:id/remove', signedIn, adminOnly, async (req, res) => {
    const user = (await admin.listUsers(userOf(res).orgId)).find((u) => u.id === req.params.id);
    if (!user) return usersPage(res, 404, { problem: 'Your organisation has no such user.' });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Remove a user',
      page: 'users',
      question: `Remove ${user.email}?`,
      consequence: 'They are signed out everywhere and can no longer sign in.',
      action: `/dashboard/users/${user.id}/remove`,
      confirm: 'Remove the user',
      back: '/dashboard/users',
    });
  });

  router.post('/users/:id/remove', signedIn, adminOnly, async (req, res) => {
    try {
      await as(req, res).removeUser(userOf(res).orgId, String(req.params.id));
      await usersPage(res, 200, { notice: 'The user is removed.' });
    } catch (error) {
      await usersPage(res, 400, { problem: problemOf(error) });
    }
  });
}
