import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Actor, AdminService } from '../admin/adminService.ts';
import { outdatedAgentNote } from '../agents/agentVersion.ts';
import { PASSWORD_MIN_LENGTH } from '../auth/passwords.ts';
import { DEFAULT_LIMITS, effectiveLimits } from '../limits/limits.ts';
import type { DashboardSession, LimitOverrides, User } from '../store/store.ts';
import { writableObjects } from '../writes/writableObjects.ts';
import { csrfTokenOf, type DashboardAuth } from './dashboardAuth.ts';
import { installSteps } from './installSteps.ts';
import { describeStatus, field, fields, originOf, problemOf, secretShown } from './pageParts.ts';
import { usageByKey, usageChart } from './usageChart.ts';
import {
  clearSessionCookie,
  cookiesOf,
  dashboardHeaders,
  formTokenOf,
  fromThisOrigin,
  sameToken,
  SESSION_COOKIE,
  setSessionCookie,
} from './security.ts';
import { render, type PageFrame } from './views.ts';

export interface DashboardOptions {
  admin: AdminService;
  auth: DashboardAuth;
}

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const ASSET_FILES = new Set(['dashboard.css', 'dashboard.js']);
/** The usage page looks back this many days. */
const USAGE_DAYS = 30;

/** Who is looking at a dashboard page, worked out once per request. */
interface Visit {
  session: DashboardSession | null;
  sessionId: string | null;
  /** The token every form of the page carries: the session's, or the form cookie's before sign-in. */
  csrf: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      visit?: Visit;
    }
  }
}

const visitOf = (res: Response): Visit => res.locals.visit!;

/**
 * The dashboard at /dashboard (docs/decisions.md#dashboard): server-rendered pages whose forms work
 * without JavaScript, a second front end on the admin service beside the operator CLI. Admins
 * change things, viewers look; a secret (key, agent token, sign-in link) appears only in the answer
 * to the form that made it, never on a page fetched with GET.
 */
export function dashboardRouter({ admin, auth }: DashboardOptions): Router {
  const router = Router();
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

  async function frame(res: Response): Promise<PageFrame> {
    const visit = visitOf(res);
    const user = visit.session?.user ?? null;
    const org = user ? await admin.findOrganisation(user.orgId) : null;
    return { viewer: user, organisation: org?.name ?? '', csrf: visit.csrf };
  }

  async function message(res: Response, status: number, heading: string, text: string): Promise<void> {
    render(res, status, 'message', await frame(res), { title: heading, heading, text });
  }

  /** The signed-in user; otherwise GET pages go to sign-in and anything else is refused. */
  function signedIn(req: Request, res: Response, next: NextFunction): void {
    if (visitOf(res).session) return next();
    if (req.method === 'GET') return res.redirect(303, '/dashboard/sign-in');
    void message(res, 401, 'Signed out', 'Your session has ended. Sign in again.');
  }

  /** Changes are for admins; a viewer gets a plain 403 page. */
  function adminOnly(req: Request, res: Response, next: NextFunction): void {
    if (visitOf(res).session?.user.role === 'admin') return next();
    void message(res, 403, 'Not allowed', 'Viewers can look at everything but change nothing. Ask an admin of your organisation.');
  }

  const userOf = (res: Response): User => visitOf(res).session!.user;
  const actorOf = (req: Request, res: Response): Actor => ({ name: userOf(res).email, address: req.ip ?? null });
  const as = (req: Request, res: Response) => admin.by(actorOf(req, res));

  // Sign-in, first password, sign-out.

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

  router.get('/welcome', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
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

  // Keys.

  async function keysPage(res: Response, status: number, extra: Record<string, unknown> = {}): Promise<void> {
    const user = userOf(res);
    const keys = await admin.listApiKeys(user.orgId);
    render(res, status, 'keys', await frame(res), { title: 'API keys', page: 'keys', keys, canChange: user.role === 'admin', ...extra });
  }

  router.get('/keys', signedIn, (_req, res) => keysPage(res, 200));

  router.post('/keys', signedIn, adminOnly, async (req, res) => {
    try {
      const { key, secret } = await as(req, res).issueApiKey({
        orgId: userOf(res).orgId,
        name: field(req, 'name'),
        mode: field(req, 'mode') === 'test' ? 'test' : 'live',
        scopes: fields(req, 'scopes'),
      });
      await keysPage(res, 201, { secret: secretShown(`The secret of "${key.name}"`, secret, 'key') });
    } catch (error) {
      await keysPage(res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/keys/:id/rotate', signedIn, adminOnly, async (req, res) => {
    const rotated = await as(req, res).rotateApiKey(userOf(res).orgId, String(req.params.id), { liveAllowed: true });
    if (!rotated) return keysPage(res, 404, { problem: 'There is no active key with that id in your organisation.' });
    await keysPage(res, 200, {
      secret: secretShown(`The new secret of "${rotated.key.name}"`, rotated.secret, 'key'),
      notice: `"${rotated.key.name}" has a new secret; the old one no longer works.`,
    });
  });

  router.get('/keys/:id/revoke', signedIn, adminOnly, async (req, res) => {
    const key = (await admin.listApiKeys(userOf(res).orgId)).find((k) => k.id === req.params.id && k.revokedAt === null);
    if (!key) return keysPage(res, 404, { problem: 'There is no active key with that id in your organisation.' });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Revoke a key',
      page: 'keys',
      question: `Revoke "${key.name}" (${key.prefix}…)?`,
      consequence: 'Requests with this key are refused from now on. This cannot be undone.',
      action: `/dashboard/keys/${key.id}/revoke`,
      confirm: 'Revoke the key',
      back: '/dashboard/keys',
    });
  });

  router.post('/keys/:id/revoke', signedIn, adminOnly, async (req, res) => {
    const revoked = await as(req, res).revokeApiKey(String(req.params.id), { orgId: userOf(res).orgId });
    if (!revoked) return keysPage(res, 404, { problem: 'There is no key with that id in your organisation.' });
    await keysPage(res, 200, { notice: `"${revoked.key.name}" is revoked: requests with it are refused.` });
  });

  // Connections and limits.

  async function connectionsPage(req: Request, res: Response, status: number, extra: Record<string, unknown> = {}): Promise<void> {
    const user = userOf(res);
    const [connections, org] = await Promise.all([admin.listConnections(user.orgId), admin.findOrganisation(user.orgId)]);
    const limits = effectiveLimits(org!.limits, DEFAULT_LIMITS);
    render(res, status, 'connections', await frame(res), {
      title: 'Connections',
      page: 'connections',
      connections,
      org,
      limits: `${limits.requestsPerWindow} requests per ${limits.windowSeconds} s per key; ${limits.maxInFlightPerConnection} requests in flight per connection.`,
      writable: writableObjects(),
      describeStatus,
      outdated: outdatedAgentNote,
      canChange: user.role === 'admin',
      gateway: originOf(req),
      ...extra,
    });
  }

  router.get('/connections', signedIn, (req, res) => connectionsPage(req, res, 200));

  router.post('/connections', signedIn, adminOnly, async (req, res) => {
    try {
      const { connection, agentToken } = await as(req, res).createConnection({
        orgId: userOf(res).orgId,
        name: field(req, 'name'),
        defaultCompany: field(req, 'defaultCompany') || null,
      });
      await connectionsPage(req, res, 201, {
        secret: secretShown(`The agent token of "${connection.name}"`, agentToken, 'agent token'),
        install: installSteps(originOf(req)),
        createdId: connection.id,
      });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/connections/:id/default-company', signedIn, adminOnly, async (req, res) => {
    try {
      const company = field(req, 'company');
      const updated = await as(req, res).setDefaultCompany(userOf(res).orgId, String(req.params.id), company || null);
      await connectionsPage(req, res, 200, { notice: `The default company of "${updated.name}" is ${updated.defaultCompany ?? 'none'}.` });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/connections/:id/whitelist', signedIn, adminOnly, async (req, res) => {
    try {
      const updated = await as(req, res).setWriteWhitelist(userOf(res).orgId, String(req.params.id), fields(req, 'objects'));
      await connectionsPage(req, res, 200, { notice: `Writable on "${updated.name}": ${updated.writeWhitelist.join(', ') || 'nothing'}.` });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/connections/:id/rotate-token', signedIn, adminOnly, async (req, res) => {
    try {
      const { connection, agentToken } = await as(req, res).rotateAgentToken(userOf(res).orgId, String(req.params.id));
      await connectionsPage(req, res, 200, {
        secret: secretShown(`The new agent token of "${connection.name}"`, agentToken, 'agent token'),
        install: installSteps(originOf(req)),
        createdId: connection.id,
        notice: `"${connection.name}" has a new agent token: agents on the old one are dropped and cannot reconnect with it.`,
      });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.get('/connections/:id/revoke-token', signedIn, adminOnly, async (req, res) => {
    const connection = (await admin.listConnections(userOf(res).orgId)).find((c) => c.id === req.params.id && c.id !== 'sandbox');
    if (!connection) return connectionsPage(req, res, 404, { problem: 'Your organisation has no such connection.' });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Revoke an agent token',
      page: 'connections',
      question: `Revoke the agent token of "${connection.name}"?`,
      consequence: 'Its agents are dropped at once and no agent can connect until you rotate the token to a new one.',
      action: `/dashboard/connections/${connection.id}/revoke-token`,
      confirm: 'Revoke the token',
      back: '/dashboard/connections',
    });
  });

  router.post('/connections/:id/revoke-token', signedIn, adminOnly, async (req, res) => {
    try {
      const connection = await as(req, res).revokeAgentToken(userOf(res).orgId, String(req.params.id));
      await connectionsPage(req, res, 200, { notice: `The agent token of "${connection.name}" is revoked; its agents are dropped.` });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/limits', signedIn, adminOnly, async (req, res) => {
    try {
      const number = (name: string): number | null => (field(req, name) === '' ? null : Number(field(req, name)));
      const changes: Partial<LimitOverrides> = {
        requestsPerWindow: number('requests'),
        windowSeconds: number('window'),
        maxInFlightPerConnection: number('inFlight'),
      };
      await as(req, res).setLimits(userOf(res).orgId, changes);
      await connectionsPage(req, res, 200, { notice: 'Limits saved; running gateways apply them within 5 seconds.' });
    } catch (error) {
      await connectionsPage(req, res, 400, { problem: problemOf(error) });
    }
  });

  // Users and the audit log.

  async function usersPage(res: Response, status: number, extra: Record<string, unknown> = {}): Promise<void> {
    const user = userOf(res);
    const users = await admin.listUsers(user.orgId);
    render(res, status, 'users', await frame(res), { title: 'Users', page: 'users', users, canChange: user.role === 'admin', ...extra });
  }

  const linkShown = (req: Request, email: string, token: string, expiresAt: Date) =>
    secretShown(
      `The sign-in link of ${email}`,
      `${originOf(req)}/dashboard/welcome?token=${token}`,
      `sign-in link (it works once, until ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    );

  router.get('/users', signedIn, (_req, res) => usersPage(res, 200));

  router.post('/users', signedIn, adminOnly, async (req, res) => {
    try {
      const invited = await as(req, res).inviteUser({ orgId: userOf(res).orgId, email: field(req, 'email'), role: field(req, 'role') });
      await usersPage(res, 201, { secret: linkShown(req, invited.user.email, invited.signInToken, invited.expiresAt) });
    } catch (error) {
      await usersPage(res, 400, { problem: problemOf(error) });
    }
  });

  router.post('/users/:id/link', signedIn, adminOnly, async (req, res) => {
    try {
      const link = await as(req, res).newSignInLink(userOf(res).orgId, String(req.params.id));
      const user = (await admin.listUsers(userOf(res).orgId)).find((u) => u.id === req.params.id)!;
      await usersPage(res, 200, { secret: linkShown(req, user.email, link.signInToken, link.expiresAt) });
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

  router.get('/audit', signedIn, async (_req, res) => {
    const entries = await admin.listAudit(userOf(res).orgId);
    render(res, 200, 'audit', await frame(res), { title: 'Audit log', page: 'audit', entries });
  });

  router.use(async (req, res) => message(res, 404, 'Not found', 'There is no such dashboard page.'));
  return router;
}
