import type { Response, Router } from 'express';
import type { PageContext } from '../pageContext.ts';
import { field, fields, problemOf, secretShown } from '../pageParts.ts';
import { render } from '../views.ts';

/** The API keys page: create, rotate, revoke (after a confirmation). */
export function keysPages(router: Router, { admin, frame, signedIn, adminOnly, userOf, as }: PageContext): void {
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
}
