import type { Response, Router } from 'express';
import type { SignInResult } from '../dashboardAuth.ts';
import { PASSWORD_MIN_LENGTH } from '../../../core/auth/passwords.ts';
import { visitOf, type PageContext } from '../pageContext.ts';
import { field } from '../pageParts.ts';
import { clearSessionCookie, setSessionCookie } from '../security.ts';
import { render } from '../views.ts';

const DEAD_LINK =
  'It was used already, it has expired (links last 72 hours), or a newer link was made for you since, which ends every older one. ' +
  'If you know your password, sign in; otherwise ask an admin of your organisation for a new link.';

/** Where a sign-in may return to: the OAuth consent page it came from, else the dashboard. */
export function afterSignIn(next: string): string {
  // Only the consent page: anything else would make sign-in an open redirect.
  return next.startsWith('/dashboard/oauth/authorize?') ? next : '/dashboard/keys';
}

/** A password that opens accounts in several organisations: which one (docs/decisions.md#one-email-in-several-organisations). */
export async function chooseOrganisationPage(
  res: Response,
  { admin, frame }: Pick<PageContext, 'admin' | 'frame'>,
  email: string,
  choice: Extract<SignInResult, { reason: 'choose' }>,
  next = '',
): Promise<void> {
  const choices = await Promise.all(
    choice.choices.map(async (c) => ({ userId: c.userId, name: (await admin.findOrganisation(c.orgId))?.name ?? c.orgId })),
  );
  render(res, 200, 'choose-organisation', await frame(res), {
    title: 'Choose an organisation',
    email,
    choices,
    ticket: choice.ticket,
    next,
  });
}

/** Sign-in, the first password (a sign-in link), sign-out. */
export function signInPages(router: Router, { admin, auth, frame, message, signedIn, userOf }: PageContext): void {
  router.get('/', (_req, res) => res.redirect(303, visitOf(res).session ? '/dashboard/keys' : '/dashboard/sign-in'));

  router.get('/sign-in', async (_req, res) => render(res, 200, 'sign-in', await frame(res), { title: 'Sign in' }));

  router.post('/sign-in', async (req, res) => {
    const email = field(req, 'email');
    const result = await auth.signIn(email, field(req, 'password'), req.ip ?? 'unknown');
    if (result.ok) {
      if (visitOf(res).sessionId) await auth.signOut(visitOf(res).sessionId!);
      setSessionCookie(res, result.sessionId);
      return res.redirect(303, '/dashboard/keys');
    }
    if (result.reason === 'choose') return chooseOrganisationPage(res, { admin, frame }, email, result);
    const throttled = result.reason === 'throttled';
    if (throttled) res.setHeader('Retry-After', String(result.retryAfterSeconds));
    render(res, throttled ? 429 : 401, 'sign-in', await frame(res), {
      title: 'Sign in',
      email,
      problem: throttled
        ? `Too many attempts. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minute(s).`
        : 'The email or password is not right.',
    });
  });

  router.post('/sign-in/choose', async (req, res) => {
    const chosen = await auth.chooseOrganisation(field(req, 'ticket'), field(req, 'user'));
    if (!chosen)
      return render(res, 400, 'sign-in', await frame(res), {
        title: 'Sign in',
        problem: 'That choice is no longer valid (it lasts 5 minutes, and a password change ends it). Sign in again.',
      });
    if (visitOf(res).sessionId) await auth.signOut(visitOf(res).sessionId!);
    setSessionCookie(res, chosen.sessionId);
    res.redirect(303, afterSignIn(field(req, 'next')));
  });

  router.get('/welcome', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    // Said before anything is asked: a password typed into a dead link would be wasted.
    if (!(await auth.linkIsLive(token))) return message(res, 410, 'This sign-in link no longer works', DEAD_LINK);
    render(res, 200, 'welcome', await frame(res), { title: 'Choose your password', token, minLength: PASSWORD_MIN_LENGTH });
  });

  router.post('/welcome', async (req, res) => {
    const token = field(req, 'token');
    const result = await auth.acceptSignInLink(token, field(req, 'password'));
    if (!result.ok) {
      return render(res, 400, 'welcome', await frame(res), {
        title: 'Choose your password',
        token,
        minLength: PASSWORD_MIN_LENGTH,
        problem: result.problem,
      });
    }
    if (visitOf(res).sessionId) await auth.signOut(visitOf(res).sessionId!);
    setSessionCookie(res, result.sessionId);
    res.redirect(303, '/dashboard/keys');
  });

  router.post('/sign-out', async (_req, res) => {
    if (visitOf(res).sessionId) await auth.signOut(visitOf(res).sessionId!);
    clearSessionCookie(res);
    res.redirect(303, '/dashboard/sign-in');
  });

  router.post('/sign-out-everywhere', signedIn, async (_req, res) => {
    await auth.signOutEverywhere(userOf(res).id);
    clearSessionCookie(res);
    res.redirect(303, '/dashboard/sign-in');
  });
}
