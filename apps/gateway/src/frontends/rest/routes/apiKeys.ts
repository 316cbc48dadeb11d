import { Router } from 'express';
import type { z } from 'zod';
import { RotateKeyBodySchema, type ValidationIssue } from '@gp-gateway/protocol';
import { requireScope } from '../../../core/auth/authenticate.ts';
import type { AdminService } from '../../../core/admin/adminService.ts';
import type { RotationOverlap } from '../../../core/auth/rotationOverlap.ts';
import type { ApiKey } from '../../../infrastructure/store/store.ts';
import { ApiError } from '../../../errors/apiError.ts';
import { jsonBodyReader } from '../jsonBody.ts';

export interface ApiKeyRoutesOptions {
  admin: AdminService;
}

/** Same words for unknown, revoked, foreign and (for a test key) live keys: docs/api.md#key-rotation allows no hint. */
const NO_SUCH_KEY = 'No API key with that id.';

/** The body's problems as the error envelope names them: a field by its name, the whole body as `body`. */
function bodyIssuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return { path: issue.keys.join(', '), message: 'is not a field of this body; send only overlap' };
    if (issue.path.length === 0) return { path: 'body', message: 'must be a JSON object, e.g. {"overlap": "24h"}' };
    return { path: issue.path.map(String).join('.'), message: issue.message };
  });
}

/** A body of one short field: a kibibyte is plenty. */
const readRotateBody = jsonBodyReader(1024, 'optional');

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
 * live data (docs/api.md#modes-and-the-sandbox). Query parameters are refused like everywhere else.
 * The old secret fails at once, as the contract says, unless an optional body `{"overlap": …}` asks
 * for the dashboard's overlap (docs/decisions.md#rotation-with-an-overlap); then the answer also
 * says until when the old secret works. Without a body the answer is the contract's, unchanged.
 */
export function apiKeyRoutes({ admin }: ApiKeyRoutesOptions): Router {
  const router = Router();

  router.post('/api-keys/:id/rotate', requireScope('write'), async (req, res) => {
    const unknown = Object.keys(req.query as Record<string, unknown>);
    if (unknown.length) {
      throw ApiError.validation([{ path: unknown.join(', '), message: `unknown query parameter${unknown.length > 1 ? 's' : ''}` }]);
    }
    const raw = await readRotateBody(req, res);
    let overlap: RotationOverlap | null = null;
    if (raw !== undefined) {
      const body = RotateKeyBodySchema.safeParse(raw);
      if (!body.success) throw ApiError.validation(bodyIssuesOf(body.error));
      overlap = body.data.overlap ?? null;
    }
    const caller = res.locals.auth!.key;
    const rotated = await admin.rotateApiKey(caller.orgId, String(req.params.id), {
      liveAllowed: caller.mode === 'live',
      keepOldFor: overlap ?? 'now',
    });
    if (!rotated) throw new ApiError('NOT_FOUND', NO_SUCH_KEY);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      key: publicKey(rotated.key),
      secret: rotated.secret,
      ...(overlap !== null ? { oldSecretWorksUntil: rotated.oldWorksUntil?.toISOString() ?? null } : {}),
    });
  });

  return router;
}
