import type { Request, Response, Router } from 'express';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { ConsentRequest, OAuthAuthority } from '../../../core/oauth/oauthAuthority.ts';
import { OAUTH_SCOPES, type OAuthScope } from '../../../infrastructure/store/store.ts';
import { visitOf, type PageContext } from '../pageContext.ts';
import { field, fields } from '../pageParts.ts';
import { setSessionCookie } from '../security.ts';
import { render } from '../views.ts';
import { afterSignIn, chooseOrganisationPage } from './signIn.ts';

/** The parameters of an authorization request that the consent page carries from its GET to its POST. */
const REQUEST_FIELDS = ['client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'scope', 'resource', 'state'] as const;

/** What each scope lets a client do, in the words the consent page shows. */
const SCOPE_WORDS: Record<OAuthScope, string> = {
  read: 'read: list and read every record of the connection (customers, vendors, items, invoices, ledger, …) and what changed',
  write: 'write: create customers, vendors, orders, invoices and journal entries where the connection allows writes',
};

/**
 * The Content-Security-Policy of the consent page: the dashboard's (security.ts), with the client's
 * redirect origin allowed as a form target, since browsers apply form-action to the redirect that
 * answers the form as well.
 */
function consentPolicy(redirectUri: string): string {
  const target = new URL(redirectUri);
  const source = target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : target.protocol;
  return [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "img-src 'self'",
    `form-action 'self' ${source}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join(';');
}

/**
 * OAuth's consent (docs/api.md#oauth): where the authorization endpoint sends the browser. The user
 * signs in here if needed, picks the connection (or the sandbox) and the scopes, reads what the
 * client will be able to do, and approves or denies; either way the browser returns to the client.
 * A request that does not check out (unknown client, unregistered redirect URI) is shown as a
 * problem and never redirected, since its redirect URI cannot be trusted.
 */
export function oauthConsentPages(router: Router, context: PageContext, oauth: OAuthAuthority): void {
  const { admin, auth, frame, message, signedIn, userOf } = context;

  const requestOf = async (res: Response, source: Record<string, unknown>): Promise<ConsentRequest | null> => {
    try {
      return await oauth.consentRequest(source);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      await message(res, 400, 'This sign-in request cannot be used', `${error.message} Start again from the app you were connecting.`);
      return null;
    }
  };
  const hiddenFields = (source: Record<string, unknown>) =>
    REQUEST_FIELDS.filter((name) => typeof source[name] === 'string').map((name) => ({ name, value: source[name] as string }));

  async function consentPage(req: Request, res: Response, request: ConsentRequest, status = 200, problem?: string): Promise<void> {
    const user = userOf(res);
    const connections = await admin.listConnections(user.orgId);
    const canWrite = user.role === 'admin';
    res.setHeader('Content-Security-Policy', consentPolicy(request.redirectUri));
    render(res, status, 'oauth-consent', await frame(res), {
      title: 'Connect an app',
      client: {
        name: request.client.client_name ?? request.client.client_id,
        id: request.client.client_id,
        redirectHost: new URL(request.redirectUri).host,
      },
      connections: connections.map((c) => ({ id: c.id, name: c.name })),
      scopes: OAUTH_SCOPES.map((scope) => ({
        scope,
        words: SCOPE_WORDS[scope],
        checked: scope === 'read' || (request.scopes.includes(scope) && canWrite),
        disabled: scope === 'read' || (scope === 'write' && !canWrite),
      })),
      canWrite,
      fields: hiddenFields(req.method === 'GET' ? req.query : req.body),
      ...(problem ? { problem } : {}),
    });
  }

  router.get('/oauth/authorize', async (req, res) => {
    const request = await requestOf(res, req.query);
    if (!request) return;
    if (!visitOf(res).session) {
      res.setHeader('Content-Security-Policy', consentPolicy(request.redirectUri));
      return render(res, 200, 'oauth-sign-in', await frame(res), {
        title: 'Sign in to connect an app',
        clientName: request.client.client_name ?? request.client.client_id,
        next: req.originalUrl,
      });
    }
    await consentPage(req, res, request);
  });

  router.post('/oauth/sign-in', async (req, res) => {
    const back = afterSignIn(field(req, 'next'));
    const result = await auth.signIn(field(req, 'email'), field(req, 'password'), req.ip ?? 'unknown');
    // One password, accounts in several organisations: the same choice as the dashboard's sign-in, then back here.
    if (!result.ok && result.reason === 'choose') return chooseOrganisationPage(res, { admin, frame }, field(req, 'email'), result, back);
    if (!result.ok) {
      if (result.reason === 'throttled') res.setHeader('Retry-After', String(result.retryAfterSeconds));
      return render(res, result.reason === 'throttled' ? 429 : 401, 'oauth-sign-in', await frame(res), {
        title: 'Sign in to connect an app',
        email: field(req, 'email'),
        next: back,
        problem:
          result.reason === 'throttled'
            ? `Too many attempts. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minute(s).`
            : 'The email or password is not right.',
      });
    }
    if (visitOf(res).sessionId) await auth.signOut(visitOf(res).sessionId!);
    setSessionCookie(res, result.sessionId);
    res.redirect(303, back);
  });

  router.post('/oauth/authorize', signedIn, async (req, res) => {
    const request = await requestOf(res, req.body as Record<string, unknown>);
    if (!request) return;
    if (field(req, 'decision') !== 'approve') return res.redirect(303, oauth.deny(request));
    const user = userOf(res);
    const connectionId = field(req, 'connection');
    const connections = await admin.listConnections(user.orgId);
    if (!connections.some((c) => c.id === connectionId))
      return consentPage(req, res, request, 400, 'Choose one of the connections listed.');
    const asked = fields(req, 'scopes');
    if (asked.includes('write') && user.role !== 'admin') {
      return consentPage(req, res, request, 403, 'Only an admin of your organisation can let an app write.');
    }
    const scopes = OAUTH_SCOPES.filter((s) => s === 'read' || asked.includes(s));
    res.redirect(303, await oauth.approve(request, user, connectionId, scopes, req.ip ?? null));
  });
}
