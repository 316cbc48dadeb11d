import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../../errors/apiError.ts';
import { SANDBOX_CONNECTION_ID, type ApiKey } from '../../infrastructure/store/store.ts';
import { bearerToken } from '../auth/bearer.ts';
import type { RefusalThrottle } from '../auth/refusalThrottle.ts';
import { isOAuthAccessToken } from '../auth/secrets.ts';
import { accessOf, type OAuthAuthority } from './oauthAuthority.ts';
import { sameResource, type OAuthUrls } from './oauthUrls.ts';

/** As for API keys (auth/authenticate.ts): last use is written at most once a minute per grant. */
const TOUCH_INTERVAL_MS = 60_000;

/** A 401 for a bad access token, which RFC 6750 answers with `error="invalid_token"` (a missing credential has none). */
export class InvalidAccessToken extends ApiError {
  constructor(message: string) {
    super('UNAUTHORIZED', message);
  }
}

export interface McpAuthenticationOptions {
  /** API keys, as on /v1 (auth/authenticate.ts). */
  apiKeys: RequestHandler;
  authority: OAuthAuthority;
  urls: () => OAuthUrls;
  refusals?: RefusalThrottle | null;
}

/**
 * /mcp's authentication: an OAuth access token (`lb_oat_…`) or, as before, an API key. A token acts
 * as an API key of its user's organisation would (docs/decisions.md#oauth-for-mcp): the `mcp` scope
 * and the scopes the user granted, live on the chosen connection or test on the sandbox, and only
 * that connection: X-Connection-Id is set to it whatever the client sent. It must have been issued
 * for this server's /mcp (RFC 8707 audience), be unexpired, and its grant unrevoked: the store is
 * read on every request, so a revocation holds from the next one.
 */
export function authenticateMcp({ apiKeys, authority, urls, refusals = null }: McpAuthenticationOptions): RequestHandler {
  const touched = new Map<string, number>();
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = bearerToken(req.headers.authorization);
    if (!token || !isOAuthAccessToken(token)) return void (await apiKeys(req, res, next));
    const refuse = async (message: string): Promise<never> => {
      const wait = (await refusals?.refused(req.socket.remoteAddress, 'invalid key')) ?? 0;
      if (wait > 0) {
        res.locals.throttled = true;
        throw new ApiError('RATE_LIMITED', `Too many requests with invalid credentials from this address. Retry after ${wait} s.`, null, {
          retryAfterSeconds: wait,
        });
      }
      throw new InvalidAccessToken(message);
    };
    const info = await authority.verifyAccessToken(token).catch(() => null);
    if (!info) return refuse('The access token is invalid or was revoked. Sign in again.');
    if (!sameResource(info.resource ?? '', urls().resource)) return refuse(`The access token was not issued for ${urls().resource.href}.`);
    if ((info.expiresAt ?? 0) * 1000 <= Date.now()) return refuse('The access token has expired: refresh it.');
    const { grant, connection } = accessOf(info);
    const sandbox = grant.connectionId === SANDBOX_CONNECTION_ID;
    const key: ApiKey = {
      id: grant.id,
      orgId: grant.orgId,
      name: `${grant.clientName} (OAuth, ${grant.userEmail})`,
      prefix: `oauth:${grant.id.slice(-6)}`,
      mode: sandbox ? 'test' : 'live',
      scopes: ['mcp', ...grant.scopes],
      secretHash: '',
      createdAt: grant.createdAt,
      revokedAt: null,
      rotatedAt: null,
      previousSecretHash: null,
      previousSecretUntil: null,
      lastUsedAt: grant.lastUsedAt,
    };
    // Routing reads the request's headers (core/routing): the grant's connection is the one it names.
    if (sandbox) delete req.headers['x-connection-id'];
    else req.headers['x-connection-id'] = grant.connectionId;
    res.locals.auth = { key, connection, grant: { id: grant.id, connectionId: grant.connectionId } };
    const now = Date.now();
    if (now - (touched.get(grant.id) ?? 0) > TOUCH_INTERVAL_MS) {
      touched.set(grant.id, now);
      await authority.touch(grant.id, new Date(now));
    }
    next();
  };
}
