import type { Response, Router } from 'express';
import { rotationOverlapNamed } from '../../../core/auth/rotationOverlap.ts';
import type { PageContext } from '../pageContext.ts';
import { firstRunChecklist } from '../firstRun.ts';
import { field, fields, overlapChoices, problemOf, secretShown } from '../pageParts.ts';
import { render, time } from '../views.ts';

const NO_SUCH_KEY = 'There is no active key with that id in your organisation.';

/**
 * The API keys page: create, rotate (after a confirmation that names what stops working and when,
 * with the old secret's overlap), end an overlap early, revoke (after a confirmation). Every form
 * answers with a redirect back to the page (PageContext.redirectWith).
 */
export function keysPages(
  router: Router,
  { admin, frame, signedIn, adminOnly, userOf, as, redirectWith, takeFlash, publicUrl }: PageContext,
): void {
  async function keysPage(res: Response): Promise<void> {
    const user = userOf(res);
    const [keys, flash, connections, daily] = await Promise.all([
      admin.listApiKeys(user.orgId),
      takeFlash(res, 'keys'),
      admin.listConnections(user.orgId),
      admin.dailyUsage(user.orgId),
    ]);
    const now = new Date().toISOString();
    render(res, 200, 'keys', await frame(res), {
      title: 'API keys',
      page: 'keys',
      keys,
      // The old secret of a rotation with an overlap, while it still works.
      oldWorksUntil: (key: (typeof keys)[number]) =>
        key.previousSecretHash !== null && key.previousSecretUntil !== null && key.previousSecretUntil > now
          ? key.previousSecretUntil
          : null,
      canChange: user.role === 'admin',
      // Until a connection's agent has connected, a live key exists and has made a request.
      checklist: firstRunChecklist({ connections, keys, daily, publicUrl: publicUrl() }),
      ...flash,
    });
  }

  router.get('/keys', signedIn, (_req, res) => keysPage(res));

  router.post('/keys', signedIn, adminOnly, async (req, res) => {
    try {
      const { key, secret } = await as(req, res).issueApiKey({
        orgId: userOf(res).orgId,
        name: field(req, 'name'),
        mode: field(req, 'mode') === 'test' ? 'test' : 'live',
        scopes: fields(req, 'scopes'),
      });
      await redirectWith(res, {
        page: 'keys',
        notice: `Key "${key.name}" is created; its secret is below, shown this once.`,
        secret: secretShown(`The secret of "${key.name}"`, secret, 'key'),
      });
    } catch (error) {
      await redirectWith(res, { page: 'keys', problem: problemOf(error) });
    }
  });

  router.get('/keys/:id/rotate', signedIn, adminOnly, async (req, res) => {
    const key = (await admin.listApiKeys(userOf(res).orgId)).find((k) => k.id === req.params.id && k.revokedAt === null);
    if (!key) return redirectWith(res, { page: 'keys', problem: NO_SUCH_KEY });
    const now = new Date();
    const earlier =
      key.previousSecretHash !== null && key.previousSecretUntil !== null && Date.parse(key.previousSecretUntil) > now.getTime()
        ? ` The secret it replaced last time, which works until ${time(key.previousSecretUntil)}, stops working at once.`
        : '';
    render(res, 200, 'confirm', await frame(res), {
      title: 'Rotate a key',
      page: 'keys',
      question: `Rotate "${key.name}" (${key.prefix}…)?`,
      consequence:
        `A new secret is made and shown once. The current secret (${key.prefix}…) keeps working for the time you choose, ` +
        `then requests with it get 401. Choose "at once" if it may have leaked.${earlier}`,
      choices: overlapChoices(now, 'old secret'),
      action: `/dashboard/keys/${key.id}/rotate`,
      confirm: `Rotate key “${key.name}”`,
      back: '/dashboard/keys',
    });
  });

  router.post('/keys/:id/rotate', signedIn, adminOnly, async (req, res) => {
    const keepOldFor = rotationOverlapNamed(field(req, 'keepOldFor'));
    if (!keepOldFor) return redirectWith(res, { page: 'keys', problem: 'Choose how long the old secret keeps working.' });
    const rotated = await as(req, res).rotateApiKey(userOf(res).orgId, String(req.params.id), { liveAllowed: true, keepOldFor });
    if (!rotated) return redirectWith(res, { page: 'keys', problem: NO_SUCH_KEY });
    const { key, oldWorksUntil } = rotated;
    await redirectWith(res, {
      page: 'keys',
      secret: secretShown(`The new secret of "${key.name}"`, rotated.secret, 'key'),
      notice: oldWorksUntil
        ? `"${key.name}" has a new secret; the old one works until ${time(oldWorksUntil.toISOString())}, then gets 401.`
        : `"${key.name}" has a new secret; the old one no longer works.`,
    });
  });

  router.post('/keys/:id/end-old-secret', signedIn, adminOnly, async (req, res) => {
    const key = await as(req, res).endApiKeyOverlap(userOf(res).orgId, String(req.params.id));
    if (!key) return redirectWith(res, { page: 'keys', problem: NO_SUCH_KEY });
    await redirectWith(res, { page: 'keys', notice: `The old secret of "${key.name}" no longer works; its current secret does.` });
  });

  router.get('/keys/:id/revoke', signedIn, adminOnly, async (req, res) => {
    const key = (await admin.listApiKeys(userOf(res).orgId)).find((k) => k.id === req.params.id && k.revokedAt === null);
    if (!key) return redirectWith(res, { page: 'keys', problem: NO_SUCH_KEY });
    render(res, 200, 'confirm', await frame(res), {
      title: 'Revoke a key',
      page: 'keys',
      question: `Revoke "${key.name}" (${key.prefix}…)?`,
      consequence: 'Requests with this key (and an old secret still in its overlap) are refused from now on. This cannot be undone.',
      action: `/dashboard/keys/${key.id}/revoke`,
      confirm: `Revoke key “${key.name}”`,
      danger: true,
      back: '/dashboard/keys',
    });
  });

  router.post('/keys/:id/revoke', signedIn, adminOnly, async (req, res) => {
    const revoked = await as(req, res).revokeApiKey(String(req.params.id), { orgId: userOf(res).orgId });
    if (!revoked) return redirectWith(res, { page: 'keys', problem: 'There is no key with that id in your organisation.' });
    await redirectWith(res, { page: 'keys', notice: `"${revoked.key.name}" is revoked: requests with it are refused.` });
  });
}
