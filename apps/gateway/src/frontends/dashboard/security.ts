import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * The dashboard's cookies. `__Host-` binds each to this exact origin (Secure, Path=/, no Domain);
 * browsers accept Secure cookies from http://localhost too, so the embedded default works as is.
 */
export const SESSION_COOKIE = '__Host-gp_session';
/** Before sign-in there is no session to derive a CSRF token from: a random one lives in this cookie. */
const FORM_COOKIE = '__Host-gp_form';

const COOKIE_BASE = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' } as const;

export function cookiesOf(req: Request): Record<string, string | undefined> {
  return parseCookie(req.headers.cookie ?? '');
}

export function setSessionCookie(res: Response, sessionId: string): void {
  res.append('Set-Cookie', stringifySetCookie({ name: SESSION_COOKIE, value: sessionId, ...COOKIE_BASE }));
}

export function clearSessionCookie(res: Response): void {
  res.append('Set-Cookie', stringifySetCookie({ name: SESSION_COOKIE, value: '', ...COOKIE_BASE, maxAge: 0 }));
}

/** The form token of a visitor who is not signed in, set as a cookie when it is new. */
export function formTokenOf(req: Request, res: Response): string {
  const existing = cookiesOf(req)[FORM_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  res.append('Set-Cookie', stringifySetCookie({ name: FORM_COOKIE, value: token, ...COOKIE_BASE }));
  return token;
}

export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses a state-changing request that another site made the browser send: `Sec-Fetch-Site` must
 * be same-origin (or none: typed or bookmarked), and an `Origin`, when sent, must name the host the
 * request was sent to. Only the host is compared: behind a proxy that terminates TLS the gateway sees
 * http while the browser says https. Browsers send at least one of the two headers on every POST;
 * the CSRF token is checked as well.
 */
export function fromThisOrigin(req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * Headers of every dashboard response (helmet, with its defaults for the rest): no caching anywhere
 * (a page may hold a secret shown once), no framing, no referrer to other sites (sign-in links carry
 * a token in their query; `no-referrer` would also make browsers send `Origin: null` on our own
 * forms), and a content security policy that allows only the dashboard's own stylesheet and script.
 * HSTS is left to whatever terminates TLS in front of the gateway, which knows the domain's policy.
 */
const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // The guided connection page polls its agent's status (assets/connect.js).
      connectSrc: ["'self'"],
      imgSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
  strictTransportSecurity: false,
});

export function dashboardHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  securityHeaders(req, res, next);
}
