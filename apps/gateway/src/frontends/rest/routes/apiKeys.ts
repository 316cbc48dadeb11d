import { Router } from 'express';
import { requireScope } from '../../../core/auth/authenticate.ts';
import type { AdminService } from '../../../core/admin/adminService.ts';
import type { ApiKey } from '../../../infrastructure/store/store.ts';
import { ApiError } from '../../../errors/apiError.ts';

export interface ApiKeyRoutesOptions {
  admin: AdminService;
}

/** Same words for unknown, revoked, foreign and (for a test key) live keys: docs/api.md#key-rotation allows no hint. */
const NO_SUCH_KEY = 'No API key with that id.';

/** The key as docs/api.md#key-rotation shows it: never the hash, never the owner, never last use. */
function publicKey(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    mode: key.mode,
    scopes: key.scopes,
    revokedAt: key.revokedAt,
    createdAt: key.createdAt,
  };
}

/**
 * `POST /v1/api-keys/{id}/rotate` (docs/api.md#key-rotation): a key with the write scope replaces the secret of any
 * non-revoked key of its organisation, itself included; the new secret is in this response only.
 * A test key cannot rotate a live key: that would hand out a live secret, and test keys never reach
 * live data (docs/api.md#modes-and-the-sandbox). Query parameters are refused like everywhere else; a body is not read.
 */
export function apiKeyRoutes({ admin }: ApiKeyRoutesOptions): Router {
  const router = Router();

  router.post('/api-keys/:id/rotate', requireScope('write'), async (req, res) => {
    const unknown = Object.keys(req.query as Record<string, unknown>);
    if (unknown.length) {
      throw ApiError.validation([{ path: unknown.join(', '), message: `unknown query parameter${unknown.length > 1 ? 's' : ''}` }]);
    }
    const caller = res.locals.auth!.key;
    const rotated = await admin.rotateApiKey(caller.orgId, String(req.params.id), { liveAllowed: caller.mode === 'live' });
    if (!rotated) throw new ApiError('NOT_FOUND', NO_SUCH_KEY);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ key: publicKey(rotated.key), secret: rotated.secret });
  });

  return router;
}
