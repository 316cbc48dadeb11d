import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../../errors/apiError.ts';
import { routeHeadersOf } from '../routing/routeHeaders.ts';
import { connectionToRead } from '../routing/connectionRouting.ts';
import type { ApiKey, Connection, Scope, Store } from '../../infrastructure/store/store.ts';
import type { Limits } from '../limits/limits.ts';
import { bearerToken } from './bearer.ts';
import type { RefusalThrottle } from './refusalThrottle.ts';
import { secretOpens } from './keySecret.ts';
import { apiKeyMode, sha256Hex } from './secrets.ts';

export interface AuthContext {
  key: ApiKey;
  /** The connection the request's headers name, read with the key; resolveConnection checks it. */
  connection: Connection | null;
  /**
   * Set when the request came with an OAuth access token (oauth/authenticateMcp.ts): the grant it
   * belongs to, whose connection is the only one it reaches. `key` then stands for the grant.
   */
  grant?: { id: string; connectionId: string };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      auth?: AuthContext;
      requestId?: string;
      /** The organisation's limits, set by applyLimits. */
      limits?: Limits;
      /** Refused for the address's bad keys (auth/refusalThrottle.ts): summed up in the log, not a line each. */
      throttled?: boolean;
    }
  }
}

/** Writing last-used on every request would make each read a write; once a minute per key is enough. */
const TOUCH_INTERVAL_MS = 60_000;

const UNAUTHORIZED = 'Missing or invalid API key. Send it as: Authorization: Bearer <API_KEY>.';

/**
 * Bearer API keys (docs/api.md#authentication-and-keys, docs/api.md#modes-and-the-sandbox). Missing, malformed, unknown and revoked keys, and a
 * rotated key's old secret after its overlap, all get the same 401, so the answer tells an attacker
 * nothing about which it was. `clock` is the time the overlap's end is compared with.
 */
export function authenticate(store: Store, refusals: RefusalThrottle | null = null, clock: () => number = Date.now) {
  const touched = new Map<string, number>();
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const secret = bearerToken(req.headers.authorization);
    const mode = secret ? apiKeyMode(secret) : null;
    const hash = secret && mode ? sha256Hex(secret) : null;
    const found = hash && mode ? await store.findApiKeyWithConnection(hash, connectionToRead(routeHeadersOf(req), mode)) : null;
    if (!found || !hash || !secretOpens(found.key, hash, clock())) {
      const wait = (await refusals?.refused(req.socket.remoteAddress, secret ? 'invalid key' : 'no key')) ?? 0;
      if (wait > 0) {
        res.locals.throttled = true;
        throw new ApiError('RATE_LIMITED', `Too many requests with invalid API keys from this address. Retry after ${wait} s.`, null, {
          retryAfterSeconds: wait,
        });
      }
      throw new ApiError('UNAUTHORIZED', UNAUTHORIZED);
    }
    const { key } = found;
    res.locals.auth = found;
    const now = Date.now();
    if (now - (touched.get(key.id) ?? 0) > TOUCH_INTERVAL_MS) {
      touched.set(key.id, now);
      await store.touchApiKey(key.id, new Date(now));
    }
    next();
  };
}

export function requireScope(scope: Scope) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (!res.locals.auth?.key.scopes.includes(scope)) {
      throw new ApiError('FORBIDDEN', `This API key lacks the ${scope} scope.`);
    }
    next();
  };
}
